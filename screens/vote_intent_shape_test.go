package screens

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/vigil-console/vigil/api"
)

// A known intent with a field this console does not know inside it: the
// dialog shows the field and says the console does not know this shape.
func TestVoteDialogShowsAFieldTheConsoleDoesNotKnowInsideAKnownIntent(t *testing.T) {
	in := unknownIntent(t, `{"createUserTagIntent":{"userTagName":"harmless","userIds":[],"grantRootQuorum":true}}`)
	act := pendingActivity("act-extra", "bob", time.Minute, in, "ACTIVITY_TYPE_CREATE_USER_TAG")
	h := newHarness(t, &fakeClient{activities: []api.Activity{act}}, false, 0)
	h.send(tea.WindowSizeMsg{Width: 100, Height: 40})
	h.selectActivityID(act.ID)
	flat := approveDialogText(t, h)
	for _, want := range []string{"grantRootQuorum", "in a shape it does not know"} {
		if !strings.Contains(flat, want) {
			t.Errorf("the vote dialog lacks %q:\n%s", want, flat)
		}
	}
}
