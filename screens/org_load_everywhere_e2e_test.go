package screens

import (
	"strings"
	"testing"

	"github.com/vigil-console/vigil/server"
	"github.com/vigil-console/vigil/server/servertest"
)

// The vote dialog's read of the organization finds a policy no copy showed
// completing (it completed on a page not shown): the dialog names it, and
// the Policies screen, loaded before, lists it too. A load that changes what
// the screens show is taken by every screen, whoever asked for it.
func TestVoteDialogReadReachesThePoliciesScreen(t *testing.T) {
	d := servertest.StartDemo(t)
	pol := proposeCarolAlonePolicy(t, d)
	backlog(t, d, pageSize+10) // the policy is on the older page: no list shown holds it
	tag := proposeWatchedTag(t, d)
	h := memberConsole(t, d.Client("carol"))
	h.key("@Policies")
	if frame := h.frame(); !strings.Contains(strings.Join(strings.Fields(frame), " "), "Policies 4 NAME") {
		t.Fatalf("set-up: the Policies screen does not list the four seeded policies:\n%s", frame)
	}
	h.key("@Activities")
	a := h.activities()
	completeElsewhere(t, d, pol)
	h.run(a.load())
	if h.holdsPolicy("carol alone allows tags") {
		t.Fatal("set-up: the organization was reloaded before the dialog opened")
	}
	h.selectActivityID(tag.ID)
	h.key("a")
	body, _ := dialogBody(t, h.frame(), "Approve this activity?")
	text := strings.Join(strings.Fields(strings.Join(body, " ")), " ")
	if !strings.Contains(text, `allowed by policy "carol alone allows tags"`) {
		t.Fatalf("set-up: the dialog does not name the policy:\n%s", text)
	}
	h.key("esc")
	h.key("@Policies")
	if frame := h.frame(); !strings.Contains(frame, "carol alone allows tags") || !strings.Contains(strings.Join(strings.Fields(frame), " "), "Policies 5 NAME") {
		t.Errorf("the vote dialog allowed the tag by a policy the Policies screen does not list:\n%s", frame)
	}
}

// r on the Organization screen reloads the organization, which has a member
// more (one added without an activity the console saw): the Users screen,
// loaded before, lists the member too.
func TestOrganizationReloadReachesTheUsersScreen(t *testing.T) {
	d := servertest.StartDemo(t)
	h := memberConsole(t, d.Client("carol"))
	h.key("@Users")
	if frame := h.frame(); strings.Contains(frame, "newcomer") {
		t.Fatalf("set-up: the Users screen lists the newcomer before they were added:\n%s", frame)
	}
	if _, err := d.Server.CreateUsers(t.Context(), d.Info.OrganizationID, []server.UserSpec{{Name: "newcomer", Email: "newcomer@example.com"}}); err != nil {
		t.Fatal(err)
	}
	h.key("@Organization")
	h.key("r")
	h.key("@Users")
	if frame := h.frame(); !strings.Contains(frame, "newcomer") {
		t.Errorf("the organization's reload holds a new member the Users screen does not list:\n%s", frame)
	}
}
