package screens

import (
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/server/servertest"
)

// The console on an organization whose user list is over the bound of list
// replies: the rest of the organization (quorum, policy names, tag names)
// still loads, and the Users and Policies screens say why the users are
// missing and where to raise the bound. With the bound raised, every user
// shows.
func TestConsoleOnAnOrganizationWhoseUserListIsTooLarge(t *testing.T) {
	d := servertest.StartDemo(t)
	// A small list bound and a few users show what thousands do under the
	// real bound (api.WithMaxListReplyBytesUnchecked), without megabytes of
	// replies to build under the race detector.
	const n, bound = 50, 64 << 10
	d.AddOrdinaryUsers(n)
	const setting = `max_list_reply_mib (in MiB) in profile "big" of /tmp/config.toml`

	tight := d.ClientAt(d.URL, "alice", api.WithMaxListReplyBytesUnchecked(bound, setting))
	h := demoHarnessWithin(t, tight, ProofSettings{Apps: d.Info.EnclaveApps}, largeOrgCommands)
	org := h.root.common.Org
	if !org.Loaded || len(org.Quorum.UserIDs) == 0 || len(org.PolicyNames) == 0 || len(org.TagNames) == 0 {
		t.Errorf("with the user list too large, the rest did not load: loaded %v, quorum %v, %d policy names, %d tag names",
			org.Loaded, org.Quorum.UserIDs, len(org.PolicyNames), len(org.TagNames))
	}
	if !strings.Contains(h.root.orgErr, "list users") || !strings.Contains(h.root.orgErr, setting) {
		t.Errorf("organization error %q; want it to name list users and %s", h.root.orgErr, setting)
	}
	h.gotoScreen("Users")
	if frame := h.frame(); !strings.Contains(frame, "max_list_reply_mib") {
		t.Errorf("the Users screen does not say where to raise the bound:\n%s", frame)
	}
	h.gotoScreen("Policies")
	p := h.policies()
	if len(p.data.policies) == 0 || !strings.Contains(p.Status().Err, "max_list_reply_mib") {
		t.Errorf("Policies screen: %d policies, status error %q; want the policies and the users' error", len(p.data.policies), p.Status().Err)
	}

	roomy := d.ClientAt(d.URL, "alice", api.WithMaxReplyBytes(api.MinReplyBytes), api.WithMaxListReplyBytesUnchecked(16*bound, setting))
	h = demoHarnessWithin(t, roomy, ProofSettings{Apps: d.Info.EnclaveApps}, largeOrgCommands)
	want := n + len(d.Info.Members)
	if org := h.root.common.Org; !org.Loaded || h.root.orgErr != "" || len(org.Users) != want {
		t.Errorf("with the list bound raised: loaded %v, %d users (want %d), error %q", org.Loaded, len(org.Users), want, h.root.orgErr)
	}
}
