package ui

import (
	"testing"

	"github.com/vigil-console/vigil/ui/theme"
)

// A narrower pane wraps every block again at word boundaries: the blocks
// memoised at the old width must not be served cut at the edge instead.
func TestDetailBlocksRewrapOnResize(t *testing.T) {
	th := theme.New(theme.Options{NoColor: true})
	blocks := []string{
		"header: a user with several keys",
		"key one was created for the deploy robot and expires next spring",
		"key two signs the nightly export of the audit log to cold storage",
	}
	resized := NewDetail(th)
	resized.SetSize(60, 40)
	resized.SetBlocks(blocks)
	resized.SetSize(24, 40)
	resized.SetBlocks(blocks) // a keystroke after the resize: the same blocks again

	fresh := NewDetail(th)
	fresh.SetSize(24, 40)
	fresh.SetBlocks(blocks)
	if got, want := resized.View(), fresh.View(); got != want {
		t.Errorf("after narrowing, the pane shows\n%s\nwant, as a pane opened at that width,\n%s", got, want)
	}
}

// A builder's blocks, given to a pane, show what its String shows: the
// activity detail gives its blocks so that only what changed is wrapped
// again.
func TestDetailBuilderBlocksAreItsString(t *testing.T) {
	th := theme.New(theme.Options{NoColor: true})
	part := NewDetailBuilder(th)
	part.JSON(map[string]string{"policyName": "d\u0435ploy", "notes": "two\nlines"})
	b := NewDetailBuilder(th)
	b.Section("Record")
	b.Field("id", "act-1")
	b.Line("")
	b.Section("Intent")
	b.Append(part)
	b.Styled("styled\n")
	b.Line("")
	b.Line("")
	joined := NewDetail(th)
	joined.SetSize(30, 100)
	joined.SetContent(b.String())
	blocks := NewDetail(th)
	blocks.SetSize(30, 100)
	blocks.SetBlocks(b.Blocks())
	if got, want := blocks.View(), joined.View(); got != want {
		t.Errorf("the blocks show\n%s\nwant, as String does,\n%s", got, want)
	}
}
