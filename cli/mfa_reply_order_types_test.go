package cli

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
)

// A get_mfa_policies reply not in evaluation order: `mfa status --user`
// still names the first policy, by order, whose condition holds, as the
// console's MFA screen and the vote warnings do, and `mfa list --user`
// lists them by order.
func TestMfaStatusAndListSortAReplyOutOfOrder(t *testing.T) {
	e := newVerbEnv(t)
	ctx := context.Background()
	aliceID := e.userID("alice")
	// A pending create_policy: alice's order-0 "Passkey for policy changes" applies.
	acts, err := e.client("alice").ListActivities(ctx, api.ListActivitiesOptions{Types: []string{api.TypeCreatePolicyV3}, Statuses: []string{api.StatusConsensusNeeded}})
	if err != nil || len(acts) == 0 {
		t.Fatalf("no pending create_policy in the demo: %v %v", acts, err)
	}
	url := e.demo.Rewriting(func(op string, _, reply []byte) []byte {
		if op != "query/"+api.QueryGetMfaPolicies {
			return reply
		}
		var r struct {
			MfaPolicies []json.RawMessage `json:"mfaPolicies"`
		}
		if json.Unmarshal(reply, &r) != nil {
			return reply
		}
		for i, j := 0, len(r.MfaPolicies)-1; i < j; i, j = i+1, j-1 {
			r.MfaPolicies[i], r.MfaPolicies[j] = r.MfaPolicies[j], r.MfaPolicies[i]
		}
		b, _ := json.Marshal(r)
		return b
	})
	env := map[string]string{"VIGIL_CONFIG": e.configVia(url, filepath.Join(t.TempDir(), "proxy.toml"))}
	_, _, errOut := runVigil(t, env, "", "mfa", "status", "--user", aliceID, acts[0].ID)
	if !strings.Contains(errOut, `MFA policy "Passkey for policy changes"`) {
		t.Errorf("mfa status --user names another policy than the first, by order, whose condition holds:\n%s", errOut)
	}
	_, out, _ := runVigil(t, env, "", "mfa", "list", "--user", aliceID)
	first, second := strings.Index(out, "Passkey for policy changes"), strings.Index(out, "Email or SMS code, then API key")
	if first < 0 || second < 0 || first > second {
		t.Errorf("mfa list --user does not list order 0 before order 1:\n%s", out)
	}
}

// A method type vigil does not know, spelt like a known one (a Cyrillic А
// in API_KEY): `mfa list` shows it quoted, escaped and marked unknown, and
// approve's MFA warning says no vote meets it, without calling it API_KEY.
func TestMfaUnknownMethodTypeIsMarkedNotShownAsKnown(t *testing.T) {
	e := newVerbEnv(t)
	ctx := context.Background()
	url := e.demo.Rewriting(func(op string, _, reply []byte) []byte {
		if op != "query/"+api.QueryGetMfaPolicies {
			return reply
		}
		return []byte(strings.ReplaceAll(string(reply), `"AUTHENTICATION_TYPE_PASSKEY"`, `"AUTHENTICATION_TYPE_\u0410PI_KEY"`))
	})
	env := map[string]string{"VIGIL_CONFIG": e.configVia(url, filepath.Join(t.TempDir(), "proxy.toml"))}
	_, out, _ := runVigil(t, env, "", "mfa", "list", "--user", e.userID("alice"))
	row := ""
	for _, l := range strings.Split(out, "\n") {
		if strings.Contains(l, "Passkey for policy changes") {
			row = l
		}
	}
	if row == "" || strings.Contains(row, "\u0410PI_KEY") || !strings.Contains(row, "(unknown type: no vote vigil knows of proves it)") {
		t.Errorf("the step of a type no credential proves is not marked unknown, or reads as API_KEY: %q\n%s", row, out)
	}
	acts, err := e.client("alice").ListActivities(ctx, api.ListActivitiesOptions{Types: []string{api.TypeCreatePolicyV3}, Statuses: []string{api.StatusConsensusNeeded}})
	if err != nil || len(acts) == 0 {
		t.Fatalf("no pending create_policy in the demo: %v %v", acts, err)
	}
	_, _, errOut := runVigil(t, env, "n\n", "activity", "approve", acts[0].ID)
	if !strings.Contains(errOut, `MFA policy "Passkey for policy changes" applies to this activity and requires "AUTHENTICATION_TYPE_`) ||
		!strings.Contains(errOut, `(unknown type: no vote vigil knows of proves it); one vote from vigil`) || strings.Contains(errOut, "\u0410PI_KEY") {
		t.Errorf("approve's MFA warning does not name the unknown type as unknown:\n%s", errOut)
	}
}
