package ui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// dialogText is the text inside a dialog's frame, one string per line, with
// the frame and the padding removed.
func dialogText(view string) []string {
	var out []string
	for _, l := range strings.Split(ansi.Strip(view), "\n") {
		l = strings.TrimSpace(l)
		l = strings.TrimPrefix(strings.TrimSuffix(l, "│"), "│")
		out = append(out, strings.TrimSpace(l))
	}
	return out
}

// What a voter reads before signing is not cut mid-word: an id, a part of a
// condition, a quoted name that fits on the dialog's line is on one line; only
// the fingerprint, longer than a line, is broken.
func TestConfirmNeverBreaksAWordThatFits(t *testing.T) {
	id := "01a209a7-8073-7c99-95f4-8a49f9acd2c7"
	lines := []string{
		"condition:   activity.type in ['ACTIVITY_TYPE_CREATE_INVITATIONS','ACTIVITY_TYPE_DELETE_TVC_DEPLOYMENT']&&activity.resource == 'USER'",
		"consensus:   approvers.any(user, user.tags.contains('" + id + "')) || approvers.filter(u, u.id == '" + id + "').count() >= 2",
		`policy:      "Operator changes need two ops approvers, deploym\u0435nts reviewed by the treasury team"`,
		"fingerprint: sha256:73a6e2f6ba2784ab61ba2677e47f4aa7e98d811df4780560f1b1947276c91d27",
	}
	for _, width := range []int{60, 80, 160} {
		text := dialogText(NewConfirm("Approve this activity?", "Approve", lines...).View(plainTheme, width, 0))
		inner := confirmInner(width) - len("condition:   ")
		flat := " " + strings.Join(text, " ") + " "
		for _, l := range lines {
			_, value, _ := strings.Cut(l, ":")
			for _, word := range strings.Fields(strings.NewReplacer(",", ", ", "&&", "&& ", "||", "|| ").Replace(value)) {
				if ansi.StringWidth(word) > inner {
					continue
				}
				if !strings.Contains(flat, word) {
					t.Errorf("at %d columns %q is not whole on a line:\n%s", width, word, strings.Join(text, "\n"))
				}
			}
		}
		if !strings.Contains(strings.Join(text, ""), "sha256:73a6e2f6ba2784ab61ba2677e47f4aa7e98d811df4780560f1b1947276c91d27") {
			t.Errorf("at %d columns the fingerprint is not all there:\n%s", width, strings.Join(text, "\n"))
		}
	}
}
