package cli

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
)

// printedChecks is what vigil adds beside an activity printed with --json.
type printedChecks struct {
	VoteChecks []struct {
		VoteID   string `json:"voteId"`
		UserID   string `json:"userId"`
		State    string `json:"state"`
		Reason   string `json:"reason"`
		KeyOwner string `json:"keyOwner"`
	} `json:"voteChecks"`
	IntentCheck *struct {
		State  string `json:"state"`
		Reason string `json:"reason"`
	} `json:"intentCheck"`
}

// splitChecks cuts vigil's "voteChecks" and "intentCheck", which must end
// the printed object, off out: it returns the reply before them, compact
// (to compare with the reply as sent), and the checks.
func splitChecks(t *testing.T, out string) (asSent []byte, checks printedChecks) {
	t.Helper()
	var compact bytes.Buffer
	if err := json.Compact(&compact, []byte(out)); err != nil {
		t.Fatalf("standard output is not one JSON object (%v):\n%s", err, out)
	}
	b := compact.Bytes()
	at := bytes.LastIndex(b, []byte(`,"voteChecks":`))
	if at < 0 || !bytes.Contains(b[at:], []byte(`,"intentCheck":`)) {
		t.Fatalf("no voteChecks and intentCheck at the end of the output:\n%s", out)
	}
	if err := json.Unmarshal(append([]byte("{"), b[at+1:]...), &checks); err != nil || checks.IntentCheck == nil {
		t.Fatalf("the checks do not read (%v):\n%s", err, b[at:])
	}
	return append(bytes.Clone(b[:at]), '}'), checks
}

// wantChecks fails unless checks hold one check per vote of the activity
// in asSent, in order, each as want says for its voter (userID → state),
// and an intent check in state intent.
func wantChecks(t *testing.T, what string, asSent []byte, checks printedChecks, want map[string]string, intent string) {
	t.Helper()
	var reply struct {
		Activity struct {
			Votes []struct {
				ID     string `json:"id"`
				UserID string `json:"userId"`
			} `json:"votes"`
		} `json:"activity"`
	}
	if err := json.Unmarshal(asSent, &reply); err != nil {
		t.Fatalf("%s: the reply printed does not read: %v\n%s", what, err, asSent)
	}
	votes := reply.Activity.Votes
	if len(checks.VoteChecks) != len(votes) || len(votes) != len(want) {
		t.Fatalf("%s: %d checks for %d votes, want %d:\n%+v", what, len(checks.VoteChecks), len(votes), len(want), checks)
	}
	for i, c := range checks.VoteChecks {
		if c.VoteID != votes[i].ID || c.UserID != votes[i].UserID {
			t.Errorf("%s: check %d is of vote %s by %s, want vote %s by %s", what, i, c.VoteID, c.UserID, votes[i].ID, votes[i].UserID)
		}
		if c.State != want[c.UserID] {
			t.Errorf("%s: the check of %s's vote is %q (%s), want %q", what, c.UserID, c.State, c.Reason, want[c.UserID])
		}
		if c.State == api.VoteVerified && c.KeyOwner != api.KeyListed {
			t.Errorf("%s: a verified vote of %s's has keyOwner %q, want %q", what, c.UserID, c.KeyOwner, api.KeyListed)
		}
	}
	if checks.IntentCheck.State != intent {
		t.Errorf("%s: intentCheck is %q (%s), want %q", what, checks.IntentCheck.State, checks.IntentCheck.Reason, intent)
	}
}

// forgingAlicesSignature is a config whose proxy answers every read and
// submit of the service with alice's votes' signatures changed (one hex
// digit): a vote she did not sign as shown, which must read FAILED.
func forgingAlicesSignature(t *testing.T, e *verbEnv) map[string]string {
	t.Helper()
	alice := e.userID("alice")
	url := e.demo.Rewriting(func(op string, request, reply []byte) []byte {
		if op != "query/"+api.QueryGetActivity && !strings.HasPrefix(op, "submit/") {
			return reply
		}
		var m map[string]any
		if json.Unmarshal(reply, &m) != nil {
			return reply
		}
		act, _ := m["activity"].(map[string]any)
		votes, _ := act["votes"].([]any)
		for _, v := range votes {
			vote, _ := v.(map[string]any)
			sig, _ := vote["signature"].(string)
			if vote["userId"] != alice || sig == "" {
				continue
			}
			last := "0"
			if strings.HasSuffix(sig, "0") {
				last = "1"
			}
			vote["signature"] = sig[:len(sig)-1] + last
		}
		out, err := json.Marshal(m)
		if err != nil {
			t.Errorf("proxy: %v", err)
			return reply
		}
		return out
	})
	return map[string]string{"VIGIL_CONFIG": e.configVia(url, filepath.Join(t.TempDir(), "forged.toml"))}
}

// The verbs that print an activity after a vote, a submit or a wait carry
// the checks 'activity get --json' adds: every vote verified as sent, and
// alice's FAILED when a proxy changes her signature, as the text says.
func TestJSONAfterVoteSubmitAndWaitCarriesVoteChecks(t *testing.T) {
	e := newVerbEnv(t)
	alice, bob := e.userID("alice"), e.userID("bob")
	honest := map[string]string{"VIGIL_CONFIG": e.config}
	doneID, _, _ := completedAndOpen(t, e, "json-checks-wait-open")
	for _, c := range []struct {
		name   string
		args   func(t *testing.T, tag string) []string
		voters []string
	}{
		{"approve", func(t *testing.T, tag string) []string {
			return []string{"activity", "approve", "--yes", "--json", "--profile", "bob", openTag(t, e, tag)}
		}, []string{alice, bob}},
		{"reject", func(t *testing.T, tag string) []string {
			return []string{"activity", "reject", "--yes", "--json", "--profile", "bob", openTag(t, e, tag)}
		}, []string{alice, bob}},
		{"wait", func(*testing.T, string) []string { return []string{"activity", "wait", "--json", doneID} }, []string{alice}},
		{"tag create", func(t *testing.T, tag string) []string { return []string{"tag", "create", "--json", "--name", tag} }, []string{alice}},
	} {
		for _, forged := range []bool{false, true} {
			env, wantState, wantIntent, what := honest, api.VoteVerified, api.IntentChecked, c.name+" as sent"
			if forged {
				env, wantState, wantIntent, what = forgingAlicesSignature(t, e), api.VoteFailed, api.IntentNotChecked, c.name+" with alice's signature forged"
			}
			t.Run(what, func(t *testing.T) {
				code, out, errOut := runVigil(t, env, "", c.args(t, strings.ReplaceAll(what, " ", "-"))...)
				wantExit(t, what, code, exitOK, out, errOut)
				asSent, checks := splitChecks(t, out)
				want := map[string]string{}
				for _, v := range c.voters {
					want[v] = api.VoteVerified
				}
				want[alice] = wantState
				wantChecks(t, what, asSent, checks, want, wantIntent)
			})
		}
	}
}

// A vote's reply carrying a "voteChecks" of its own (all verified) is
// refused as 'activity get --json' refuses it: the vote was recorded, so
// exit 4 naming it, and the service's checks never printed as vigil's.
func TestApproveJSONRefusesAReplyWithItsOwnVoteChecks(t *testing.T) {
	e := newVerbEnv(t)
	id := openTag(t, e, "json-checks-own")
	url := e.demo.Rewriting(func(op string, request, reply []byte) []byte {
		if op != "submit/approve_activity" {
			return reply
		}
		return bytes.Replace(reply, []byte(`{"activity":`), []byte(`{"voteChecks":[{"state":"verified"}],"activity":`), 1)
	})
	env := map[string]string{"VIGIL_CONFIG": e.configVia(url, filepath.Join(t.TempDir(), "own.toml"))}
	code, out, errOut := runVigil(t, env, "", "activity", "approve", "--yes", "--json", "--profile", "bob", id)
	wantExit(t, "a vote replied with its own voteChecks", code, exitOutcomeUnknown, out, errOut)
	if out != "" {
		t.Errorf("standard output holds the reply with the service's own checks:\n%s", out)
	}
	if !strings.Contains(errOut, "was recorded") || !strings.Contains(errOut, "voteChecks field of its own") {
		t.Errorf("standard error does not say the vote was recorded and why its reply is not printed:\n%s", errOut)
	}
}
