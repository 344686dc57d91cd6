package screens

import (
	"context"
	"testing"

	"github.com/vigil-console/vigil/server/servertest"
	"github.com/vigil-console/vigil/ui/theme"
)

// Alice approves from the CLI while her console's vote dialog is open on the
// same activity, then answers y: the service refuses the repeat, and the
// console says her vote was already counted, not that a reply failed.
func TestVoteRefusedAsRepeatSaysAlreadyCounted(t *testing.T) {
	d := servertest.StartDemo(t)
	backlog(t, d, 2)
	h := newHarnessWith(t, d.Client("alice"), d.Client("alice"), theme.Options{Dark: true, NoColor: true}, 0)
	target := bobsActivity(t, h.activities(), 0)
	h.selectActivityID(target.ID)
	h.key("a")
	if !h.voteDialogOpen() {
		t.Fatalf("a opened no vote dialog:\n%s", h.plainFrame())
	}
	if _, err := d.Client("alice").ApproveActivity(context.Background(), target.Fingerprint); err != nil {
		t.Fatalf("alice's approval from the CLI: %v", err)
	}
	h.msgs = nil
	for range 40 { // read it to the end, and answer
		h.key("down")
	}
	h.key("y")
	if !h.toasted("your vote was already counted") || h.toasted("the reply failed") {
		t.Errorf("a vote refused because it was already cast is not said to be already counted:\n%s", h.plainFrame())
	}
}
