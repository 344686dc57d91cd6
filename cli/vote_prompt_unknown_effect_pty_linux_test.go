//go:build linux

package cli

import (
	"bytes"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
)

// A broken or hostile service that reports a create_policy intent's effect
// as "ALLOW" (which the engine reads as neither allow nor deny) must not have
// the approve prompt, the last thing a root member reads before signing, or
// 'activity get' show it bare, as if it were EFFECT_ALLOW.
func TestVotePromptAndActivityGetMarkAnUnknownIntentEffect(t *testing.T) {
	e := newVerbEnv(t)
	code, out, errOut := e.run("", "policy", "create", "--name", "p", "--effect", "allow", "--condition", "activity.action == 'NOPE'")
	wantExit(t, "policy create", code, 0, out, errOut)
	id := activityIDFrom(t, out)
	via := e.via(func(op string, request, reply []byte) []byte {
		return bytes.ReplaceAll(reply, []byte(`"effect":"EFFECT_ALLOW"`), []byte(`"effect":"ALLOW"`))
	})
	want := api.Quote("ALLOW") + " (unknown effect: neither ALLOW nor DENY)"

	code, out, errOut = via.run("", "activity", "get", id)
	wantExit(t, "activity get", code, 0, out, errOut)
	if got := intentFieldLine(t, out, "effect"); !strings.HasSuffix(got, " "+want) {
		t.Errorf("activity get shows the effect as %q; want %s", got, want)
	}

	code, _, errOut, _ = via.runOnTerminal("Approve this activity? [y/N]", "n\n", "activity", "approve", "--profile", "bob", id)
	if code != 1 {
		t.Fatalf("answer n: exit %d\n%s", code, errOut)
	}
	if got := intentFieldLine(t, errOut, "effect"); !strings.HasSuffix(got, " "+want) {
		t.Errorf("the approve prompt shows the effect as %q; want %s", got, want)
	}
}
