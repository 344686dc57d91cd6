package screens

import (
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/keys"
	"github.com/vigil-console/vigil/ui/theme"
)

// hostile strings as a malicious or compromised server would send them: each
// carries a marker ("pwned") inside a 7-bit escape sequence, or a lone control or
// bidi character between two words. Sequences show as inert text after their
// escaped introducer (\u001b]0;pwned…); the C1 (8-bit) introducers carry no
// marker: what matters is that no C1 character reaches the terminal.
var hostile = []string{
	"\x1b]52;c;cHduZWQ=\x07",                                 // OSC 52: write the clipboard
	"\x1b]0;pwned title\x07",                                 // OSC 0: set the window title
	"\x1b]8;;https://pwned.example/\x1b\\link\x1b]8;;\x1b\\", // OSC 8 hyperlink
	"\x1b[2J\x1b[Hcleared",                                   // CSI: clear screen, home
	"\x1b[31;1mred\x1b[0m",                                   // SGR
	"\x1bP+q544e\x1b\\",                                      // DCS
	"\u009b31mC1-CSI",                                        // C1 CSI
	"\u009d0;c1-osc\u009c",                                   // C1 OSC
	"over\rwrite",                                            // carriage return
	"left\u202eright",                                        // RLO bidi override
	"iso\u2066late\u2069",                                    // bidi isolate
	"bell\x07back\x08del\x7f",                                // C0 and DEL
}

func hostileText(i int) string { return "H" + hostile[i%len(hostile)] + "H" }

// hostileServer is a raw handler standing in for a malicious service: the real one
// would never produce these strings, so a hand-rolled server is right here.
func hostileServer(t *testing.T) *httptest.Server {
	t.Helper()
	join := strings.Join(hostile, " ")
	act := func(i int) map[string]any {
		return map[string]any{
			"id": "act-" + hostileText(i), "organizationId": "org-" + hostileText(i+1),
			"status": api.StatusConsensusNeeded, "type": "ACTIVITY_TYPE_CREATE_POLICY_V3" + hostileText(i+2),
			"intent": map[string]any{"createPolicyIntentV3": map[string]any{
				"policyName": "policy " + join, "effect": "EFFECT_ALLOW" + hostileText(i+3),
				"condition": join, "consensus": join, "notes": join}},
			"result":      map[string]any{},
			"fingerprint": "sha256:" + hostileText(i+4),
			"canApprove":  true, "canReject": true,
			"createdAt": map[string]string{"seconds": "1795000000", "nanos": "0"},
			"updatedAt": map[string]string{"seconds": "1795000000", "nanos": "0"},
			"failure":   map[string]any{"code": 3, "message": join},
			"votes": []any{map[string]any{"id": "v" + hostileText(i), "userId": "u-" + hostileText(i+5),
				"user":      map[string]any{"userId": "u-" + hostileText(i+5), "userName": "bob" + hostileText(i+6)},
				"selection": api.VoteApproved, "message": join,
				"createdAt": map[string]string{"seconds": "1795000000", "nanos": "0"}}},
		}
	}
	replies := map[string]any{
		"list_activities": map[string]any{"activities": []any{act(0), act(1), act(2)}},
		"get_activity":    map[string]any{"activity": act(0)},
		"whoami": map[string]any{"organizationId": "org-" + hostileText(7), "organizationName": "Evil " + join,
			"userId": "u-" + hostileText(8), "username": "alice " + join},
		"get_organization_configs": map[string]any{"configs": map[string]any{
			"features": []any{map[string]any{"name": "FEATURE_NAME_WEBHOOK" + hostileText(9), "value": join}},
			"quorum":   map[string]any{"threshold": 2, "userIds": []string{"u-" + hostileText(10)}}}},
		"list_users": map[string]any{"users": []any{map[string]any{"userId": "u-" + hostileText(5), "userName": "bob " + join}}},
		"list_policies": map[string]any{"policies": []any{map[string]any{"policyId": "p" + hostileText(3), "policyName": "allow " + join,
			"effect": api.EffectAllow, "condition": join, "consensus": join, "notes": join}}},
		"get_policy_evaluations": map[string]any{"policyEvaluations": []any{map[string]any{
			"id": "e" + hostileText(1), "activityId": "a", "organizationId": "o", "voteId": "v" + hostileText(2),
			"policyEvaluations": []any{map[string]any{"policyId": "p" + hostileText(3), "outcome": "OUTCOME_ALLOW" + hostileText(4)}},
			"createdAt":         map[string]string{"seconds": "1795000000", "nanos": "0"}}}},
		"list_app_proofs": map[string]any{"appProofs": []any{map[string]any{"scheme": "S" + hostileText(5),
			"publicKey": "k" + hostileText(6), "proofPayload": join, "signature": "s" + hostileText(7)}}},
	}
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		op := r.URL.Path[strings.LastIndexByte(r.URL.Path, '/')+1:]
		reply, ok := replies[op]
		if !ok {
			// Votes get an error whose message is hostile too.
			w.WriteHeader(http.StatusForbidden)
			json.NewEncoder(w).Encode(map[string]any{"code": 7, "message": "denied " + join})
			return
		}
		json.NewEncoder(w).Encode(reply)
	}))
}

func hostileClient(t *testing.T) *api.Client {
	t.Helper()
	ts := hostileServer(t)
	t.Cleanup(ts.Close)
	k, err := keys.Generate(keys.SchemeP256)
	if err != nil {
		t.Fatal(err)
	}
	// Exact strings, as the console runs: the screens alone escape what they show.
	c, err := api.NewClient(ts.URL, "org-1", k, api.WithRetryPolicy(0, time.Millisecond, time.Millisecond), api.WithExactStrings())
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// onlySGR matches any escape sequence that is not a plain SGR (colour, bold…),
// which is all the theme itself emits in a frame.
var notSGR = regexp.MustCompile("\x1b(\\[[0-9;:]*[^0-9;:m]|[^\\[])")

// leakedMarker finds a marker not right after a visibly escaped ESC. Every
// server string shows its escape sequences as text ("\u001b]0;pwned…"), which
// is harmless; a marker anywhere else means a sequence reached the terminal.
func leakedMarker(out string) (string, bool) {
	for off := 0; ; {
		i := strings.Index(out[off:], "pwned")
		if i < 0 {
			return "", false
		}
		i += off
		before := out[max(i-24, 0):i]
		if !strings.Contains(before, `\x1b`) && !strings.Contains(before, `\u001b`) {
			return out[max(i-24, 0) : i+5], true
		}
		off = i + 5
	}
}

// checkClean fails if out carries anything from the hostile strings.
func checkClean(t *testing.T, where, out string) {
	t.Helper()
	if ctx, ok := leakedMarker(out); ok {
		t.Errorf("%s: text from inside an escape sequence reached the screen: %q", where, ctx)
	}
	if m := notSGR.FindString(out); m != "" {
		t.Errorf("%s: escape sequence %q reached the screen", where, m)
	}
	for _, r := range out {
		switch {
		case r == '\r', r == 0x07, r == 0x08, r == 0x7f, r >= 0x80 && r <= 0x9f,
			r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069, r == 0x200e, r == 0x200f:
			t.Errorf("%s: control or bidi character %U reached the screen", where, r)
			return
		}
	}
}

func TestHostileServerStringsNeverReachTheScreen(t *testing.T) {
	for _, th := range []theme.Options{{Dark: true, NoColor: true}, {Dark: true}, {Dark: false, Accent: "red"}} {
		h := newHarnessFor(t, hostileClient(t), th, 0)
		h.send(tea.WindowSizeMsg{Width: 160, Height: 200})
		if len(h.activities().items) != 3 {
			t.Fatalf("hostile list not shown (%d items); status %+v", len(h.activities().items), h.activities().Status())
		}
		checkClean(t, "list", h.root.Render())
		checkClean(t, "title", h.root.View().WindowTitle)
		h.key("/")
		h.key("H")
		checkClean(t, "filter", h.root.Render())
		h.key("esc")
		h.key("y")
		h.key("Y")
		for _, c := range h.clipboard() {
			checkClean(t, "clipboard", c)
		}
		h.key("enter")
		checkClean(t, "detail", h.root.Render())
		h.key("a")
		checkClean(t, "confirm", h.root.Render())
		h.key("y") // the server answers with a hostile error
		checkClean(t, "vote error", h.root.Render())
		h.key("esc")
		h.key("?")
		checkClean(t, "help", h.root.Render())
		h.key("?")
		h.key("2")
		checkClean(t, "boot proofs", h.root.Render())
		h.key("3")
		checkClean(t, "organization", h.root.Render())
		h.toPolicies()
		checkClean(t, "policies", h.root.Render())
		h.key("enter")
		checkClean(t, "policy detail", h.root.Render())
		h.key("esc")
		h.key("e")
		checkClean(t, "evaluations", h.root.Render())
		h.key("enter")
		checkClean(t, "evaluation detail", h.root.Render())
		h.key("esc")
		h.key("e")
		h.key("n")
		h.key("ctrl+r")
		checkClean(t, "simulation", h.root.Render())
		h.key("esc")
	}
}

// The same through the real program: what goes to the terminal.
func TestHostileServerStringsNeverReachTheTerminal(t *testing.T) {
	hc := hostileClient(t)
	root := NewRoot(Options{Reader: hc, Submitter: hc, Profile: "evil\x1b]0;pwned\x07", Theme: theme.Options{Dark: true}})
	tm := teatest.NewTestModel(t, root, teatest.WithInitialTermSize(160, 70))
	var out []byte
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool {
		out = append(out, b...)
		// The hostile effect is no known one: shown quoted, never as ALLOW.
		return strings.Contains(string(out), `create "EFFECT_ALLOW`)
	}, teatest.WithDuration(10*time.Second))
	tm.Send(tea.KeyPressMsg{Code: tea.KeyEnter})
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool {
		out = append(out, b...)
		// The record's last section in sight at 160x70 (its type and intent
		// disagree and no signed submission binds its intent, which warning
		// lines say, so App proofs is below).
		return strings.Contains(string(out), "Policy evaluations (")
	}, teatest.WithDuration(10*time.Second))
	tm.Type("q")
	tm.WaitFinished(t, teatest.WithFinalTimeout(5*time.Second))
	s := string(out)
	if ctx, ok := leakedMarker(s); ok {
		t.Errorf("text from inside a hostile escape sequence reached the terminal: %q", ctx)
	}
	for _, r := range s {
		if r >= 0x80 && r <= 0x9f || r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069 {
			t.Fatalf("character %U reached the terminal", r)
		}
	}
	if strings.Contains(s, "\x1b]52") {
		t.Error("an OSC 52 clipboard write reached the terminal")
	}
}

// Defence in depth: even when a client hands over raw strings (the fake does not
// sanitise), the screens clean them at render time.
func TestRawHostileStringsAreCleanedAtRenderTime(t *testing.T) {
	var acts []api.Activity
	for i := range 3 {
		a := pendingActivity("act-"+hostileText(i), "bob"+hostileText(i+1), time.Minute,
			api.Intent{CreatePolicyIntentV3: &api.CreatePolicyParams{PolicyName: strings.Join(hostile, " "), Effect: "EFFECT_ALLOW" + hostileText(i)}},
			api.TypeCreatePolicyV3+hostileText(i+2))
		a.Fingerprint = "sha256:" + hostileText(i+3)
		a.Status += hostileText(i + 4)
		a.Failure = &api.Failure{Code: 3, Message: strings.Join(hostile, " ")}
		acts = append(acts, a)
	}
	h := newHarness(t, &fakeClient{activities: acts, voteErr: errors.New("denied " + strings.Join(hostile, " "))}, false, 0)
	// The fake filters on the exact status; show everything.
	h.key("v")
	h.send(tea.WindowSizeMsg{Width: 160, Height: 200})
	if len(h.activities().items) != 3 {
		t.Fatalf("%d items", len(h.activities().items))
	}
	checkClean(t, "list", h.root.Render())
	h.key("y")
	h.key("Y")
	for _, c := range h.clipboard() {
		checkClean(t, "clipboard", c)
	}
	h.key("enter")
	checkClean(t, "detail", h.root.Render())
	h.key("a")
	checkClean(t, "confirm", h.root.Render())
	h.key("y")
	checkClean(t, "vote error", h.root.Render())
}
