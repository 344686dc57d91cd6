package proof

import (
	"fmt"
	"strings"
	"testing"
)

// docs/verification.md: an envelope holds at most 64 approvals "in Borsh and
// in JSON v2". The v2 shareSetApprovals are bounded and shaped as Borsh's
// share_set_approvals are ({signature, member}), so the count the report
// shows is a count of approvals, not of whatever values the service listed.
func TestJSONShareSetApprovalsAreBoundedAndShaped(t *testing.T) {
	approval := `{"signature":"00","member":{"alias":"s0","pubKey":"00"}}`
	envWith := func(approvals ...string) string {
		return `{"manifest":` + jsonManifestWithMembers(1) + `,"manifestSetApprovals":[],"shareSetApprovals":[` + strings.Join(approvals, ",") + `]}`
	}
	many := func(s string, n int) []string {
		out := make([]string, n)
		for i := range out {
			out[i] = s
		}
		return out
	}
	for name, c := range map[string]struct{ env, want string }{
		"10000 numbers":       {envWith(many("1", 10000)...), "shareSetApprovals"},
		"over the limit":      {envWith(many(approval, maxSetMembers+1)...), fmt.Sprintf("shareSetApprovals: %d approvals, over the limit of %d", maxSetMembers+1, maxSetMembers)},
		"a number":            {envWith(approval, "1"), "shareSetApprovals"},
		"null":                {envWith(approval, "null"), "shareSetApprovals[1] is null"},
		"a string":            {envWith(`"approved"`), "shareSetApprovals"},
		"an unknown key":      {envWith(`{"signature":"00","member":{"alias":"s0","pubKey":"00"},"valid":true}`), "valid"},
		"a signature not hex": {envWith(`{"signature":"zz","member":{"alias":"s0","pubKey":"00"}}`), "invalid byte"},
	} {
		e, err := decodeEnvelope([]byte(c.env), true)
		if err == nil {
			t.Errorf("%s: accepted, the report would show \"share-set approvals: %d\"", name, e.shareApprovals)
		} else if !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want it to say %q", name, err, c.want)
		}
	}
	e, err := decodeEnvelope([]byte(envWith(many(approval, maxSetMembers)...)), true)
	if err != nil || e.shareApprovals != maxSetMembers {
		t.Fatalf("%d well-formed share-set approvals: %v", maxSetMembers, err)
	}
}

// The share-set approvals are not checked, so wherever the report carries
// their count it says so (ShareSetApprovalsNote, shown by the CLI and in
// --json): the count must not read as verified approvals.
func TestShareSetApprovalCountSaysItIsNotChecked(t *testing.T) {
	manifest, env := hostileQuorum(t, 1, 1)
	rep := VerifyBootProof(hostileBootProof(manifest, env), Options{})
	if rep.Manifest == nil {
		t.Fatalf("no manifest in the report: %s", dump(rep))
	}
	if !strings.HasPrefix(rep.Manifest.ShareSetApprovalsNote, "not checked") {
		t.Errorf("share-set approvals note %q, want it to say they are not checked", rep.Manifest.ShareSetApprovalsNote)
	}
}
