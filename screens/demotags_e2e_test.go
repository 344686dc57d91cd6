package screens

import (
	"context"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/server/servertest"
)

// The demo's members carry the tags ops and operator from the start. The
// service has no tag query, so the console learns a tag's name from the
// create_user_tag activity that made it: the demo's tags must come from
// such activities, as they would on the real service, and show by name.
func TestEndToEndDemoTagsShowByName(t *testing.T) {
	d := servertest.StartDemo(t)
	alice := d.Client("alice")
	h := memberConsole(t, alice)
	h.gotoScreen("Users")
	out := h.frame()
	wants := map[string]string{"bob": "ops", "carol": "ops", "operator": "auditors, operator"}
	for user, tags := range wants {
		row := rowOf(t, out, user)
		if !strings.Contains(row, " "+tags+" ") {
			t.Errorf("%s's row %q does not name the tags %q", user, row, tags)
		}
	}
	users, err := alice.ListUsers(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, u := range users {
		for _, id := range u.UserTags {
			if _, ok := h.root.common.Org.TagNames[id]; !ok {
				t.Errorf("%s's tag %s is named by no create_user_tag activity: it shows as an unknown tag", u.UserName, id)
			}
		}
	}
}
