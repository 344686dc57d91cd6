package screens

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/server/servertest"
	"github.com/vigil-console/vigil/ui/theme"
)

// bobWithPasskeyPolicy gives bob an MFA policy asking for a PASSKEY on
// every activity, and a pending create_user_tag bob may approve.
func bobWithPasskeyPolicy(t *testing.T) (d *servertest.Demo, tagActivityID string) {
	t.Helper()
	d = servertest.StartDemo(t)
	ctx := context.Background()
	alice, bob := d.Client("alice"), d.Client("bob")
	bobID := ""
	for _, m := range d.Info.Members {
		if m.Name == "bob" {
			bobID = m.UserID
		}
	}
	act, err := alice.CreateMfaPolicy(ctx, api.CreateMfaPolicyParams{UserID: bobID, MfaPolicyName: "passkey always", Condition: "true",
		RequiredAuthenticationMethods: []api.AuthenticationStep{{Any: []api.AuthenticationMethod{{Type: api.AuthPasskey}}}}})
	if err != nil {
		t.Fatal(err)
	}
	if !api.IsTerminal(act.Status) {
		if act, err = bob.ApproveActivity(ctx, act.Fingerprint); err != nil || act.Status != api.StatusCompleted {
			t.Fatalf("approving bob's MFA policy: %+v %v", act, err)
		}
	}
	tag, err := alice.CreateUserTag(ctx, api.CreateUserTagParams{UserTagName: "mfa-needed", UserIDs: []string{bobID}})
	if err != nil || tag.Status != api.StatusConsensusNeeded {
		t.Fatalf("pending tag: %+v %v", tag, err)
	}
	return d, tag.ID
}

// withoutUserMfaPolicies is a list_users reply whose user records leave
// out mfaPolicies, as some services' do.
func withoutUserMfaPolicies(op string, reply []byte) []byte {
	if op != "query/"+api.QueryListUsers {
		return reply
	}
	var r map[string]any
	if json.Unmarshal(reply, &r) != nil {
		return reply
	}
	us, _ := r["users"].([]any)
	for _, u := range us {
		delete(u.(map[string]any), "mfaPolicies")
	}
	b, _ := json.Marshal(r)
	return b
}

// The approve dialog reads the member's MFA policies with get_mfa_policies,
// as the CLI's approve does: user records without mfaPolicies do not hide
// a policy that asks for a PASSKEY on every activity.
func TestVoteDialogWarnsOfOwnMfaPolicyWhenUserRecordsLeaveThemOut(t *testing.T) {
	d, tagID := bobWithPasskeyPolicy(t)
	url := d.Rewriting(func(op string, _, reply []byte) []byte { return withoutUserMfaPolicies(op, reply) })
	via := d.ClientAt(url, "bob")
	h := newHarnessWith(t, via, via, theme.Options{Dark: true, NoColor: true}, 0)
	h.selectActivityID(tagID)
	h.key("a")
	words := dialogWords(h.frame())
	if !strings.Contains(words, `your MFA policy "passkey always" applies and requires step 1: any of PASSKEY`) ||
		!strings.Contains(words, "as far as consensus goes: your MFA policy may hold it") {
		t.Errorf("bob's MFA policy (get_mfa_policies lists it) asks for a PASSKEY on every activity; the approve dialog does not say so:\n%s", h.frame())
	}
}

// When neither get_mfa_policies nor the user record gives the member's MFA
// policies, the approve dialog says they could not be checked, rather than
// nothing (which reads as "none applies").
func TestVoteDialogSaysOwnMfaPoliciesCouldNotBeChecked(t *testing.T) {
	d, tagID := bobWithPasskeyPolicy(t)
	url := d.Rewriting(func(op string, _, reply []byte) []byte {
		if op == "query/"+api.QueryGetMfaPolicies {
			return []byte(`{"mfaPolicies": 7}`)
		}
		return withoutUserMfaPolicies(op, reply)
	})
	via := d.ClientAt(url, "bob")
	h := newHarnessWith(t, via, via, theme.Options{Dark: true, NoColor: true}, 0)
	h.selectActivityID(tagID)
	h.key("a")
	words := dialogWords(h.frame())
	if !strings.Contains(words, "MFA: your MFA policies could not be checked, so whether one of them holds this activity back is not known: get_mfa_policies") ||
		!strings.Contains(words, "as far as consensus goes: whether your MFA policy holds it could not be checked") {
		t.Errorf("bob's MFA policies could be read from nowhere; the approve dialog does not say so:\n%s", h.frame())
	}
}

// A method type vigil does not know, spelt like a known one (a Cyrillic А
// in API_KEY), shows on the MFA policies screen quoted, escaped and marked
// unknown, never as API_KEY.
func TestMfaScreenMarksUnknownMethodType(t *testing.T) {
	d := servertest.StartDemo(t)
	url := d.Rewriting(func(op string, _, reply []byte) []byte {
		if op != "query/"+api.QueryGetMfaPolicies && op != "query/"+api.QueryListUsers {
			return reply
		}
		return []byte(strings.ReplaceAll(string(reply), `"AUTHENTICATION_TYPE_PASSKEY"`, `"AUTHENTICATION_TYPE_\u0410PI_KEY"`))
	})
	via := d.ClientAt(url, "alice")
	h := newHarnessWith(t, via, via, theme.Options{Dark: true, NoColor: true}, 0)
	h.gotoScreen("MFA policies")
	f := h.frame()
	if strings.Contains(f, "\u0410PI_KEY") || !strings.Contains(f, "unknown type") {
		t.Errorf("a step of a type no credential proves reads as API_KEY, or is not marked unknown:\n%s", f)
	}
}
