package cli

import (
	"context"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
)

// invitationsSent is every invitation of the org's create_invitations
// activities, by e-mail (the newest wins).
func (e *verbEnv) invitationsSent() (byEmail map[string]api.Invitation, activities int) {
	e.t.Helper()
	acts, err := e.client("alice").ListActivities(context.Background(), api.ListActivitiesOptions{Types: []string{api.TypeCreateInvitations}, Limit: 100})
	if err != nil {
		e.t.Fatal(err)
	}
	byEmail = map[string]api.Invitation{}
	for i := len(acts) - 1; i >= 0; i-- {
		if in := acts[i].Intent.CreateInvitationsIntent; in != nil {
			for _, inv := range in.Invitations {
				byEmail[inv.ReceiverUserEmail] = inv
			}
		}
	}
	return byEmail, len(acts)
}

// --per-invitee gives one invitee its own access, tags (by name) and sender
// (by name), sent by id as --tag and --sender are; the other invitee keeps
// the shared flags, all in one create_invitations.
func TestInvitationCreatePerInvitee(t *testing.T) {
	e := newVerbEnv(t)
	_, before := e.invitationsSent()
	code, out, errOut := e.run("", "invitation", "create", "--access", "web",
		"--name", "dave", "--email", "dave@example.com",
		"--name", "erin", "--email", "erin@example.com",
		"--per-invitee", "erin@example.com: access=api, tags=auditors, sender=bob")
	wantExit(t, "invitation create --per-invitee", code, 0, out, errOut)
	sent, after := e.invitationsSent()
	if after != before+1 {
		t.Fatalf("%d create_invitations submitted, want one for both", after-before)
	}
	dave, erin := sent["dave@example.com"], sent["erin@example.com"]
	if dave.AccessType != "ACCESS_TYPE_WEB" || len(dave.ReceiverUserTags) != 0 || dave.SenderUserID != e.userID("alice") {
		t.Errorf("dave, with no --per-invitee, was sent %+v; want the shared web access, no tags, sent by alice", dave)
	}
	if erin.AccessType != "ACCESS_TYPE_API" || erin.SenderUserID != e.userID("bob") ||
		len(erin.ReceiverUserTags) != 1 || erin.ReceiverUserTags[0] != e.demoTagID("auditors") {
		t.Errorf("erin was sent %+v; want her own api access, the auditors tag by id, sent by bob", erin)
	}
}

// Without --access, every invitee needs access= of its own; a malformed or
// unresolvable --per-invitee is refused (exit 2) before anything is sent,
// naming the invitee and the setting.
func TestInvitationCreatePerInviteeRefusals(t *testing.T) {
	e := newVerbEnv(t)
	_, before := e.invitationsSent()
	two := []string{"invitation", "create", "--name", "dave", "--email", "dave@example.com", "--name", "erin", "--email", "erin@example.com"}
	for _, c := range []struct {
		args []string
		want []string
	}{
		{[]string{"--per-invitee", "erin@example.com: access=api"}, []string{`"dave@example.com" has no access type`, "--access"}},
		{[]string{"--access", "web", "--per-invitee", "access=api"}, []string{`entry "access=api"`, "EMAIL:"}},
		{[]string{"--access", "web", "--per-invitee", "erin@example.com: access=root"}, []string{`"erin@example.com"`, `access "root" is not web, api or all`}},
		{[]string{"--access", "web", "--per-invitee", "erin@example.com: colour=red"}, []string{`"erin@example.com"`, `"colour=red" is not access=…, tags=… or sender=…`}},
		{[]string{"--access", "web", "--per-invitee", "erin@example.com: access=api", "--per-invitee", "ERIN@example.com: tags="}, []string{`"ERIN@example.com": given twice`}},
		{[]string{"--access", "web", "--per-invitee", "frank@example.com: access=api"}, []string{`"frank@example.com" is not among the invitees`, "--email"}},
		{[]string{"--access", "web", "--per-invitee", "erin@example.com: tags=nosuch"}, []string{`"erin@example.com"`, "tags=", `"nosuch"`, "create_user_tag"}},
		{[]string{"--access", "web", "--per-invitee", "erin@example.com: sender=nobody"}, []string{`"erin@example.com"`, "sender=", `"nobody"`, "vigil user list"}},
	} {
		args := append(two[:len(two):len(two)], c.args...)
		code, out, errOut := e.run("", args...)
		wantExit(t, strings.Join(c.args, " "), code, 2, out, errOut)
		for _, w := range c.want {
			if !strings.Contains(errOut, w) {
				t.Errorf("%v: the refusal does not say %q:\n%s", c.args, w, errOut)
			}
		}
	}
	if _, after := e.invitationsSent(); after != before {
		t.Errorf("%d create_invitations submitted anyway", after-before)
	}
}
