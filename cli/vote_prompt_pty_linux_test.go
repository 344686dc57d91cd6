//go:build linux

package cli

import (
	"fmt"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
)

// The vote prompt is where a root member decides: a policy name of the
// longest kind, full of quotes that double in length once escaped, must not
// push the effect, condition or consensus of a deny-everything policy out of
// it. The name is shortened, and says so.
func TestVotePromptShowsAPolicysEffectAndConditionPastALongName(t *testing.T) {
	e := newVerbEnv(t)
	name := `Routine: rename "ops" "approvers" "v2" "v3" "eu" "us" "ap" "qa" "dev" policy (ticket 4411)`
	name += strings.Repeat(" ", api.MaxNameLength-len(name))
	code, out, errOut := e.run("", "policy", "create", "--name", name, "--effect", "deny",
		"--condition", "true", "--consensus", "approvers.count() >= 1", "--notes", "")
	wantExit(t, "policy create", code, 0, out, errOut)
	id := activityIDFrom(t, out)

	code, _, errOut, _ = e.runOnTerminal("Approve this activity? [y/N]", "n\n", "activity", "approve", "--profile", "bob", id)
	if code != 1 {
		t.Fatalf("answer n: exit %d\n%s", code, errOut)
	}
	wantOnlyEscaped(t, "the vote prompt", errOut)
	for field, want := range map[string]string{"effect": "EFFECT_DENY", "condition": `"true"`, "consensus": `"approvers.count() >= 1"`} {
		if got := lineOf(t, errOut, "  "+field+":"); !strings.HasSuffix(got, " "+want) {
			t.Errorf("the prompt's %s line is %q, want it to show %s:\n%s", field, got, want, errOut)
		}
	}
	shortened := fmt.Sprintf("(%d characters, %d shown)", api.MaxNameLength, api.FreeTextShown)
	if got := lineOf(t, errOut, "  policyName:"); !strings.Contains(got, `"Routine: rename \"ops\"`) || !strings.HasSuffix(got, shortened) {
		t.Errorf("the name line is %q, want it shortened, saying so (%s)", got, shortened)
	}
	if !strings.Contains(errOut, "'vigil activity get --json "+id+"' shows it whole") {
		t.Errorf("the prompt does not say where to read the whole name:\n%s", errOut)
	}
}
