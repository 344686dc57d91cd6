//go:build linux

package cli

import (
	"encoding/json"
	"fmt"
	"net/http"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/keys"
)

// What a verb's prompt shows is what is then signed and sent: each test
// below runs a prompting verb on a terminal against the local service behind
// a proxy that records the submits, answers y, and compares the prompt with
// the body that went out (as screens/confirm_sent_e2e_test.go does for the
// console's confirms).

// sentSubmits records the body and stamp of every submit that reaches the service.
type sentSubmits struct {
	mu     sync.Mutex
	bodies []string
	stamps []string
}

// recordingConfig is a config whose profiles reach the env's service through
// a proxy recording every submit in sent.
func (e *verbEnv) recordingConfig(sent *sentSubmits) string {
	e.t.Helper()
	url := e.demo.Watching(func(op string, header http.Header, body []byte) {
		if strings.HasPrefix(op, "submit/") {
			sent.mu.Lock()
			sent.bodies = append(sent.bodies, string(body))
			sent.stamps = append(sent.stamps, header.Get(keys.HeaderStamp))
			sent.mu.Unlock()
		}
	})
	return e.configVia(url, filepath.Join(e.t.TempDir(), "recording.toml"))
}

// promptAndSend runs args on a terminal with config, answers y to question
// and returns the prompt (standard error up to the question) and the one
// submit sent, decoded, with the public key that stamped it ("" when sent
// records no stamps).
func promptAndSend(t *testing.T, config, question string, sent *sentSubmits, args ...string) (prompt string, env map[string]any, signer string) {
	t.Helper()
	code, out, errOut, _ := runOnPTY(t, func(k string) string {
		if k == "VIGIL_CONFIG" {
			return config
		}
		return ""
	}, question, "y\n", args...)
	i := strings.Index(errOut, question)
	if i < 0 {
		t.Fatalf("%v: no question %q (exit %d):\n%s\n%s", args, question, code, out, errOut)
	}
	prompt = errOut[:i+len(question)]
	sent.mu.Lock()
	bodies, stamps := append([]string(nil), sent.bodies...), append([]string(nil), sent.stamps...)
	sent.mu.Unlock()
	if len(bodies) != 1 {
		t.Fatalf("%v: %d submits sent after y, want 1 (exit %d):\n%s\n%s", args, len(bodies), code, out, errOut)
	}
	if err := json.Unmarshal([]byte(bodies[0]), &env); err != nil {
		t.Fatalf("the submit's body is not JSON: %v\n%s", err, bodies[0])
	}
	if len(stamps) == 0 {
		return prompt, env, "" // a recording that keeps no stamps
	}
	st, err := keys.Verify(stamps[0], []byte(bodies[0]))
	if err != nil {
		t.Fatalf("the submit's stamp does not verify: %v", err)
	}
	return prompt, env, st.PublicKey
}

// checkPromptShowsAllSent fails for every value of the signed body the
// prompt does not show: each string and number of the parameters at any
// depth, the organization, generateAppProofs and deleteWithoutExport.
func checkPromptShowsAllSent(t *testing.T, prompt string, env map[string]any) {
	t.Helper()
	var walk func(path string, x any)
	walk = func(path string, x any) {
		switch x := x.(type) {
		case map[string]any:
			for k, v := range x {
				walk(path+"."+k, v)
			}
		case []any:
			for i, v := range x {
				walk(fmt.Sprintf("%s[%d]", path, i), v)
			}
		case string:
			// As sent, or escaped when it holds controls (api.SanitizeID).
			if !strings.Contains(prompt, x) && !strings.Contains(prompt, api.SanitizeID(x)) {
				t.Errorf("%s %q is signed and sent but the prompt does not show it:\n%s", path, x, prompt)
			}
		case float64:
			if !strings.Contains(prompt, fmt.Sprint(x)) {
				t.Errorf("%s %v is signed and sent but the prompt does not show it:\n%s", path, x, prompt)
			}
		}
	}
	walk("parameters", env["parameters"])
	if org, _ := env["organizationId"].(string); !strings.Contains(prompt, org) {
		t.Errorf("the body is signed for organization %q, which the prompt does not name:\n%s", org, prompt)
	}
	if env["generateAppProofs"] == true && !strings.Contains(prompt, "app proofs") {
		t.Errorf("generateAppProofs is signed and sent but the prompt does not say app proofs will be generated:\n%s", prompt)
	}
	if p, _ := env["parameters"].(map[string]any); p != nil && p["deleteWithoutExport"] == true && !strings.Contains(prompt, "without export") {
		t.Errorf("deleteWithoutExport is signed and sent but the prompt does not say so:\n%s", prompt)
	}
}

// checkSignedBy fails unless the submit was stamped by member's key.
func checkSignedBy(t *testing.T, e *verbEnv, member, signer string) {
	t.Helper()
	users, err := e.client("alice").ListUsers(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	for _, u := range users {
		for _, k := range u.APIKeys {
			if strings.EqualFold(k.Credential.PublicKey, signer) {
				if u.UserName != member {
					t.Errorf("the submit is stamped by %s's key, the verb ran with profile %s", u.UserName, member)
				}
				return
			}
		}
	}
	t.Errorf("the submit is stamped by key %s, which no user of the organization holds", signer)
}

// proposeOperatorTag runs tag create --name name on the operator and
// returns the activity it proposed, as alice reads it.
func proposeOperatorTag(t *testing.T, e *verbEnv, name string) *api.Activity {
	t.Helper()
	code, out, errOut := e.run("", "tag", "create", "--name", name, e.userID("operator"))
	wantExit(t, "tag create", code, 0, out, errOut)
	a, err := e.client("alice").GetActivity(t.Context(), activityIDFrom(t, out))
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// carolsAPIKeyID is the id of the demo member carol's first API key.
func carolsAPIKeyID(t *testing.T, e *verbEnv) string {
	t.Helper()
	users, err := e.client("alice").ListUsers(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	var carolKey string
	for _, u := range users {
		if u.UserName == "carol" && len(u.APIKeys) > 0 {
			carolKey = u.APIKeys[0].APIKeyID
		}
	}
	if carolKey == "" {
		t.Fatal("the demo member carol has no API key")
	}
	return carolKey
}

// An approval and a rejection sign the fingerprint of the activity the
// prompt shows, which the prompt shows, with the organization.
func TestVotePromptShowsAllItSigns(t *testing.T) {
	for _, verb := range []string{"approve", "reject"} {
		t.Run(verb, func(t *testing.T) {
			e := newVerbEnv(t)
			other, act := proposeOperatorTag(t, e, "other"), proposeOperatorTag(t, e, "voted")
			var sent sentSubmits
			config := e.recordingConfig(&sent)
			question := strings.ToUpper(verb[:1]) + verb[1:] + " this activity? [y/N]"
			prompt, env, signer := promptAndSend(t, config, question, &sent, "activity", verb, "--profile", "bob", act.ID)
			checkPromptShowsAllSent(t, prompt, env)
			checkSignedBy(t, e, "bob", signer)
			if got, _ := env["parameters"].(map[string]any)["fingerprint"].(string); got != act.Fingerprint {
				t.Errorf("the vote signed fingerprint %q, the activity shown (%s) has %q", got, act.ID, act.Fingerprint)
			}
			if strings.Contains(prompt, other.Fingerprint) || strings.Contains(prompt, other.ID) {
				t.Errorf("the prompt shows the other activity:\n%s", prompt)
			}
		})
	}
}

// Every deleting verb's prompt shows every value it signs, the ids given,
// the organization, and the flags that change what the body asks
// (--app-proofs, --without-export).
func TestDeletePromptsShowAllTheySign(t *testing.T) {
	e := newVerbEnv(t)
	carolKey := carolsAPIKeyID(t, e)
	for _, tc := range []struct {
		question string
		args     []string
	}{
		{"Delete these wallet accounts? [y/N]", []string{"wallet-account", "delete", "--app-proofs", "--without-export",
			"0192a6c4-0000-7000-8000-00000000aa01", "0192a6c4-0000-7000-8000-00000000aa02"}},
		{"Delete this TVC deployment? [y/N]", []string{"tvc-deployment", "delete", "--app-proofs", "0192a6c4-0000-7000-8000-00000000bb01"}},
		{"Delete these API keys? [y/N]", []string{"apikey", "delete", "--app-proofs", carolKey}},
	} {
		t.Run(tc.args[0], func(t *testing.T) {
			var sent sentSubmits
			config := e.recordingConfig(&sent)
			prompt, env, signer := promptAndSend(t, config, tc.question, &sent, append(tc.args, "--profile", "bob")...)
			checkPromptShowsAllSent(t, prompt, env)
			checkSignedBy(t, e, "bob", signer)
		})
	}
}

// The vote signs the fingerprint of the record the prompt showed, also when
// the activity changes between the prompt and the answer: another member
// votes on it, and the service answers every later read of it with another
// activity's fingerprint.
func TestVoteSignsTheRecordShownWhenItChangesBeforeTheAnswer(t *testing.T) {
	e := newVerbEnv(t)
	other, act := proposeOperatorTag(t, e, "other"), proposeOperatorTag(t, e, "voted")
	var (
		sent  sentSubmits
		reads int
	)
	url := e.demo.Rewriting(func(op string, request, reply []byte) []byte {
		sent.mu.Lock()
		defer sent.mu.Unlock()
		switch {
		case strings.HasPrefix(op, "submit/"):
			sent.bodies = append(sent.bodies, string(request))
		case op == "query/get_activity" && strings.Contains(string(request), act.ID):
			reads++
			if reads == 1 {
				// Shown as it was; carol's vote lands while the prompt is open.
				if _, err := e.client("carol").RejectActivity(t.Context(), act.Fingerprint); err != nil {
					t.Errorf("carol's rejection: %v", err)
				}
				return reply
			}
			return []byte(strings.ReplaceAll(string(reply), act.Fingerprint, other.Fingerprint))
		}
		return reply
	})
	config := e.configVia(url, filepath.Join(t.TempDir(), "hostile.toml"))
	prompt, env, _ := promptAndSend(t, config, "Approve this activity? [y/N]", &sent, "activity", "approve", "--profile", "bob", act.ID)
	checkPromptShowsAllSent(t, prompt, env)
	if got, _ := env["parameters"].(map[string]any)["fingerprint"].(string); got != act.Fingerprint {
		t.Errorf("the vote signed fingerprint %q, the prompt showed activity %s with %q", got, act.ID, act.Fingerprint)
	}
	if strings.Contains(prompt, other.Fingerprint) {
		t.Errorf("the prompt shows the other activity's fingerprint:\n%s", prompt)
	}
}

// An id given to a deleting verb is shown in its prompt escaped: controls
// pasted with it (an erase-line and carriage return, a right-to-left
// override) cannot redraw the prompt into showing another id than the one
// signed.
func TestDeletePromptsShowGivenIDsEscaped(t *testing.T) {
	e := newVerbEnv(t)
	forged := "0192a6c4-0000-7000-8000-00000000cc01\x1b[2K\rdeployment: 0192a6c4-0000-7000-8000-00000000cc02\u202e"
	for _, tc := range []struct {
		question string
		args     []string
	}{
		{"Delete these wallet accounts? [y/N]", []string{"wallet-account", "delete", forged}},
		{"Delete this TVC deployment? [y/N]", []string{"tvc-deployment", "delete", forged}},
	} {
		t.Run(tc.args[0], func(t *testing.T) {
			var sent sentSubmits
			config := e.recordingConfig(&sent)
			prompt, env, _ := promptAndSend(t, config, tc.question, &sent, append(tc.args, "--profile", "bob")...)
			wantOnlyEscaped(t, "the prompt", prompt)
			checkPromptShowsAllSent(t, prompt, env)
		})
	}
}

// promptLine is the line of prompt that starts with label.
func promptLine(t *testing.T, prompt, label string) string {
	t.Helper()
	for _, l := range strings.Split(prompt, "\n") {
		if strings.HasPrefix(l, label) {
			return l
		}
	}
	t.Fatalf("no %q line in the prompt:\n%s", label, prompt)
	return ""
}

// One id holding ", " (pasted from a list) is one id sent, and its prompt
// must not read as the prompt of the two ids it seems to list.
func TestDeletePromptsTellOneIDFromTwo(t *testing.T) {
	e := newVerbEnv(t)
	const first, second = "0192a6c4-0000-7000-8000-00000000dd01", "0192a6c4-0000-7000-8000-00000000dd02"
	joined := first + ", " + second
	walletAccounts := func(ids ...string) string {
		var sent sentSubmits
		config := e.recordingConfig(&sent)
		prompt, env, _ := promptAndSend(t, config, "Delete these wallet accounts? [y/N]", &sent,
			append([]string{"wallet-account", "delete", "--profile", "bob"}, ids...)...)
		checkPromptShowsAllSent(t, prompt, env)
		if got := len(env["parameters"].(map[string]any)["walletAccountIds"].([]any)); got != len(ids) {
			t.Fatalf("%d ids given, %d sent", len(ids), got)
		}
		return promptLine(t, prompt, "wallet accounts:")
	}
	if one, two := walletAccounts(joined), walletAccounts(first, second); one == two {
		t.Errorf("one wallet account id %q and the two ids %s and %s are shown alike: %s", joined, first, second, one)
	}

	var sent sentSubmits
	config := e.recordingConfig(&sent)
	prompt, env, _ := promptAndSend(t, config, "Delete this TVC deployment? [y/N]", &sent, "tvc-deployment", "delete", "--profile", "bob", joined)
	checkPromptShowsAllSent(t, prompt, env)
	if got, want := promptLine(t, prompt, "deployment:"), "deployment: "+strconv.Quote(joined); got != want {
		t.Errorf("the deployment id %q, which holds \", \", is not shown quoted as one:\n got %s\nwant %s", joined, got, want)
	}
}

// An API key id listed by the service with ", " in it (a hostile or broken
// service) is one key in the apikey delete prompt, not two.
func TestAPIKeyDeletePromptTellsOneIDFromTwo(t *testing.T) {
	e := newVerbEnv(t)
	carolKey := carolsAPIKeyID(t, e)
	forged := carolKey + ", 0192a6c4-0000-7000-8000-00000000ee01"
	var sent sentSubmits
	url := e.demo.Rewriting(func(op string, request, reply []byte) []byte {
		if strings.HasPrefix(op, "submit/") {
			sent.mu.Lock()
			sent.bodies = append(sent.bodies, string(request))
			sent.mu.Unlock()
		}
		if op == "query/"+api.QueryListUsers {
			return []byte(strings.ReplaceAll(string(reply), `"`+carolKey+`"`, strconv.Quote(forged)))
		}
		return reply
	})
	config := e.configVia(url, filepath.Join(t.TempDir(), "hostile.toml"))
	prompt, env, _ := promptAndSend(t, config, "Delete these API keys? [y/N]", &sent, "apikey", "delete", "--profile", "bob", forged)
	checkPromptShowsAllSent(t, prompt, env)
	if line := promptLine(t, prompt, "keys:"); !strings.HasPrefix(line, "keys: "+strconv.Quote(forged)+" ") {
		t.Errorf("the one API key id %q is not shown quoted as one:\n%s", forged, line)
	}
}

// terminalScreen is what a 24-line terminal shows of the prompt: its last
// 24 lines, the question's included.
func terminalScreen(prompt string) string {
	lines := strings.Split(prompt, "\n")
	return strings.Join(lines[max(0, len(lines)-24):], "\n")
}

// A long intent (20 invitations) scrolls the top of the vote prompt off a
// 24-line terminal; what the vote signs (the fingerprint, the organization
// and key) and the warning the prompt starts with are still on the screen
// when the question is asked.
func TestVotePromptShowsWhatItSignsAboveTheQuestionWhenLong(t *testing.T) {
	e := newVerbEnv(t)
	invite := func(prefix string) *api.Activity {
		args := []string{"invitation", "create", "--access", "api"}
		for i := range 20 {
			args = append(args, "--name", fmt.Sprintf("%s%d", prefix, i), "--email", fmt.Sprintf("%s%d@example.com", prefix, i))
		}
		code, out, errOut := e.run("", args...)
		wantExit(t, "invitation create", code, 0, out, errOut)
		a, err := e.client("alice").GetActivity(t.Context(), activityIDFrom(t, out))
		if err != nil {
			t.Fatal(err)
		}
		return a
	}
	act, unbound := invite("invitee"), invite("unbound")
	var sent sentSubmits
	prompt, env, signer := promptAndSend(t, e.recordingConfig(&sent), "Approve this activity? [y/N]", &sent, "activity", "approve", "--profile", "bob", act.ID)
	checkPromptShowsAllSent(t, prompt, env)
	checkSignedBy(t, e, "bob", signer)
	if strings.Count(prompt, "\n") < 24 {
		t.Fatalf("the prompt fits on one screen (precondition: a long intent):\n%s", prompt)
	}
	screen := terminalScreen(prompt)
	for _, want := range []string{"fingerprint " + act.Fingerprint, e.demo.Info.OrganizationID, `profile "bob"`} {
		if !strings.Contains(screen, want) {
			t.Errorf("the last screen of the prompt lacks %q, which the vote signs:\n%s", want, screen)
		}
	}

	// Unbound (a proxy dropped the requester's signed message): the prompt
	// starts with a warning, which the last screen says too.
	via := e.via(rewriteEveryVote(func(v map[string]any) { v["message"] = "" }))
	_, _, errOut, _ := via.runOnTerminal("Approve this activity? [y/N]", "n\n", "activity", "approve", "--profile", "bob", unbound.ID)
	if !strings.Contains(errOut, "intent check: WARNING: NOT checked") {
		t.Fatalf("no intent-check warning (precondition):\n%s", errOut)
	}
	if screen := terminalScreen(errOut); !strings.Contains(screen, "intent check: WARNING: NOT checked") {
		t.Errorf("the warning the prompt starts with is off the last screen of the prompt:\n%s", screen)
	}
}
