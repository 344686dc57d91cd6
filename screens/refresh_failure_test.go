package screens

import (
	"context"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/ui/theme"
)

// A refresh that fails keeps the last list on screen and says when it was
// fetched, marked stale (docs/console.md), on every screen with a list.

// failingReads is the fake whose reads of MFA policies and users fail once
// failing is set (the service went down).
type failingReads struct {
	*fakeClient
	failing bool
}

func (f *failingReads) GetMfaPolicies(ctx context.Context, user string) ([]api.MfaPolicy, error) {
	if f.failing {
		return nil, context.DeadlineExceeded
	}
	return f.fakeClient.GetMfaPolicies(ctx, user)
}

func (f *failingReads) ListUsers(ctx context.Context) ([]api.User, error) {
	if f.failing {
		return nil, context.DeadlineExceeded
	}
	return f.fakeClient.ListUsers(ctx)
}

func TestFailedMfaReloadKeepsTheList(t *testing.T) {
	fake := &failingReads{fakeClient: &fakeClient{users: governanceUsers(), mfaPolicies: alicePolicies(), activities: sampleActivities()}}
	h := newHarnessWith(t, fake, fake, theme.Options{Dark: true, NoColor: true}, 0)
	h.send(tea.WindowSizeMsg{Width: 160, Height: 48})
	h.gotoScreen("MFA policies")
	loaded := h.frame()
	if !strings.Contains(loaded, "big transfers") {
		t.Fatalf("setup: the policies are not shown:\n%s", loaded)
	}
	heading := statusHeading(loaded)
	if strings.Contains(heading, "(0)") {
		t.Fatalf("setup: no pending activity in the MFA status: %q", heading)
	}
	fetched := h.mfa().fetched
	fake.failing = true
	h.key("r")
	out := h.frame()
	if !strings.Contains(out, "big transfers") || strings.Contains(out, "not loaded") {
		t.Errorf("a failed reload dropped the MFA policies shown:\n%s", out)
	}
	if got := statusHeading(out); got != heading {
		t.Errorf("a failed reload changed the MFA status heading from %q to %q", heading, got)
	}
	if st := h.mfa().Status(); !st.LastRefresh.Equal(fetched) || !st.Stale || st.Err == "" {
		t.Errorf("a failed reload is not shown as stale with its error: refreshed %v (was %v), stale %v, error %q", st.LastRefresh, fetched, st.Stale, st.Err)
	}
	if !strings.Contains(out, "stale: refreshed") {
		t.Errorf("the status bar does not say the list is stale:\n%s", out)
	}
	// Another user, never loaded: nothing may read as "no policies" or
	// "nothing pending".
	h.key("U")
	out = h.frame()
	if !strings.Contains(out, "not loaded") || strings.Contains(out, "no MFA policies for this user") || strings.Contains(out, "pending activities (0)") {
		t.Errorf("a failed first load of another user's policies reads as empty:\n%s", out)
	}
}

// statusHeading is the MFA status heading line of a frame.
func statusHeading(frame string) string {
	for _, l := range strings.Split(frame, "\n") {
		if strings.Contains(l, "MFA status of") {
			return strings.TrimSpace(l)
		}
	}
	return ""
}

func TestFailedUsersReloadKeepsTheListMarkedStale(t *testing.T) {
	fake := &failingReads{fakeClient: &fakeClient{users: governanceUsers()}}
	h := newHarnessWith(t, fake, fake, theme.Options{Dark: true, NoColor: true}, 0)
	h.send(tea.WindowSizeMsg{Width: 160, Height: 48})
	h.gotoScreen("Users")
	if out := h.frame(); !strings.Contains(out, "operator") {
		t.Fatalf("setup: the users are not shown:\n%s", out)
	}
	fake.failing = true
	h.key("r")
	out := h.frame()
	if !strings.Contains(out, "operator") {
		t.Errorf("a failed reload dropped the users shown:\n%s", out)
	}
	if !strings.Contains(out, "stale: refreshed") {
		t.Errorf("the status bar does not say the list is stale:\n%s", out)
	}
}

// A reload of the organization that fails half-way (its users) keeps the
// last whole one: the names of users and policies every screen shows, and
// the vote dialog reasons with, stay.
func TestFailedOrganizationReloadKeepsTheLastOrganization(t *testing.T) {
	fake := &failingReads{fakeClient: &fakeClient{users: governanceUsers()}}
	h := newHarnessWith(t, fake, fake, theme.Options{Dark: true, NoColor: true}, 0)
	h.send(tea.WindowSizeMsg{Width: 160, Height: 48})
	h.gotoScreen("Organization")
	names := len(h.root.common.Org.UserNames)
	if names == 0 {
		t.Fatal("setup: the organization's users are not loaded")
	}
	fake.failing = true
	h.key("r")
	if got := len(h.root.common.Org.UserNames); got != names {
		t.Errorf("a failed reload left the console knowing %d users' names, not %d", got, names)
	}
	if out := h.frame(); !strings.Contains(out, "stale: refreshed") {
		t.Errorf("the status bar does not say the organization shown is stale:\n%s", out)
	}
}
