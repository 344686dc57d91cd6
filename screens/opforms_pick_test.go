package screens

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/server/servertest"
)

// The create user tag form's user picker over an organization of 1,000
// users: typing a user's name on the field finds them (the field once took
// only ←/→, one user a press, and dropped letters unseen), space ticks them,
// enter writes the tick back, and the tag is created for that user alone.
func TestUserTagPickerFindsAUserByNameAmongThousands(t *testing.T) {
	d := servertest.StartDemo(t)
	d.AddPlainUsers(1000)
	users, err := d.Client("alice").ListUsers(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var want string
	for _, u := range users {
		if u.UserName == "user-00500" {
			want = u.UserID
		}
	}
	if want == "" {
		t.Fatalf("the demo has no user-00500 among %d users", len(users))
	}
	var log bytes.Buffer
	h := opsHarnessWithin(t, d, &log, largeOrgCommands)
	openOperation(h, "create user tag")
	h.typeText("oncall")
	h.key("tab")
	h.typeText("user-00500")
	if frame := h.frame(); !strings.Contains(frame, "filter: user-00500") || !strings.Contains(frame, "[ ] user-00500 ("+want+")") {
		t.Fatalf("typing the name on the field should open a filter showing user-00500 (%s):\n%s", want, frame)
	}
	h.key("space")
	h.key("enter")
	f := &h.root.dialogs.Top().(*opFormDialog).form
	if got := f.Values()["userIds"]; got != want {
		t.Fatalf("picked %q, want user-00500 %s:\n%s", got, want, h.frame())
	}
	if frame := h.frame(); !strings.Contains(frame, "picked (1): user-00500") {
		t.Errorf("the form should say user-00500 is picked:\n%s", frame)
	}
	h.submitAndConfirm()
	a := followed(t, h, d)
	in := a.Intent.CreateUserTagIntent
	if in == nil || len(in.UserIDs) != 1 || in.UserIDs[0] != want {
		t.Errorf("the tag was submitted for %+v, want exactly [%s]", in, want)
	}
}

// esc in the picker leaves the field as it was, and a tick made before the
// picker opened is ticked in it.
func TestUserTagPickerEscKeepsTheTicks(t *testing.T) {
	d := servertest.StartDemo(t)
	var log bytes.Buffer
	h := opsHarnessWithin(t, d, &log, largeOrgCommands)
	openOperation(h, "create user tag")
	h.typeText("oncall")
	h.key("tab")
	h.key("space") // the first user, ticked on the field itself
	f := &h.root.dialogs.Top().(*opFormDialog).form
	before := f.Values()["userIds"]
	if before == "" {
		t.Fatalf("space ticked no one:\n%s", h.frame())
	}
	h.key("/")
	if frame := h.frame(); !strings.Contains(frame, "1 ticked") {
		t.Errorf("the picker should start with the field's tick:\n%s", frame)
	}
	h.typeText("bob")
	h.key("space")
	h.key("esc")
	if got := f.Values()["userIds"]; got != before {
		t.Errorf("esc in the picker changed the field from %q to %q", before, got)
	}
	if _, ok := h.root.dialogs.Top().(*opFormDialog); !ok {
		t.Errorf("esc in the picker should leave the form open, not %T", h.root.dialogs.Top())
	}
}
