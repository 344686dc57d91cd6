package screens

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/server/servertest"
)

// What a confirm shows is what is then signed and sent: each test below
// drives a submit against the local service behind a proxy that records the
// request bodies, reads the confirm, answers y, and compares the two.

// sentBodies records the body of every submit that reaches the service.
type sentBodies struct {
	mu     sync.Mutex
	bodies []string
}

func (s *sentBodies) all() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.bodies...)
}

// recordingClientURL is the base URL of a proxy in front of d that records
// every submit's request body in sent.
func recordingClientURL(d *servertest.Demo, sent *sentBodies) string {
	return d.Rewriting(func(op string, request, reply []byte) []byte {
		if strings.HasPrefix(op, "submit/") {
			sent.mu.Lock()
			sent.bodies = append(sent.bodies, string(request))
			sent.mu.Unlock()
		}
		return reply
	})
}

// confirmText is the text of the dialog on top, its box's borders taken off
// and every run of spaces (a wrap included) made one.
func confirmText(frame string) string {
	var b strings.Builder
	for _, l := range strings.Split(frame, "\n") {
		i, j := strings.Index(l, "│"), strings.LastIndex(l, "│")
		if i < 0 || j <= i {
			continue
		}
		b.WriteString(l[i+len("│") : j])
		b.WriteByte(' ')
	}
	return strings.Join(strings.Fields(b.String()), " ")
}

// oneSent is the one submit recorded, decoded.
func oneSent(t *testing.T, sent *sentBodies) map[string]any {
	t.Helper()
	bodies := sent.all()
	if len(bodies) != 1 {
		t.Fatalf("%d submits sent, want 1: %q", len(bodies), bodies)
	}
	var env map[string]any
	if err := json.Unmarshal([]byte(bodies[0]), &env); err != nil {
		t.Fatalf("the submit's body is not JSON: %v\n%s", err, bodies[0])
	}
	return env
}

// shownValue reports whether the confirm shows v, as typed or quoted; an
// enum may be shown without its type's prefix (ACCESS_TYPE_API as API).
func shownValue(confirm, v string) bool {
	norm := func(s string) string { return strings.Join(strings.Fields(s), " ") }
	for _, form := range []string{v, api.Quote(v)} {
		if strings.Contains(confirm, norm(form)) {
			return true
		}
	}
	for _, prefix := range []string{"ACCESS_TYPE_", "SMART_CONTRACT_INTERFACE_TYPE_", "AUTHENTICATION_TYPE_"} {
		if short, ok := strings.CutPrefix(v, prefix); ok && strings.Contains(confirm, short) {
			return true
		}
	}
	return false
}

// checkShown fails for every parameter sent that the confirm does not show:
// each string, each number and each true flag, at any depth. hidden are the
// parameters the confirm may not show (an encrypted secret).
func checkShown(t *testing.T, confirm string, env map[string]any, hidden ...string) {
	t.Helper()
	var walk func(path string, x any)
	walk = func(path string, x any) {
		key := path[strings.LastIndex(path, ".")+1:]
		if i := strings.Index(key, "["); i >= 0 {
			key = key[:i]
		}
		for _, h := range hidden {
			if key == h {
				return
			}
		}
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
			if !shownValue(confirm, x) {
				t.Errorf("%s %q is sent but not shown in the confirm:\n%s", path, x, confirm)
			}
		case float64:
			if !strings.Contains(confirm, fmt.Sprint(x)) {
				t.Errorf("%s %v is sent but not shown in the confirm:\n%s", path, x, confirm)
			}
		}
	}
	walk("parameters", env["parameters"])
	if env["generateAppProofs"] == true && !strings.Contains(confirm, "app proofs") {
		t.Errorf("generateAppProofs is sent but the confirm does not say app proofs will be generated:\n%s", confirm)
	}
	if p, _ := env["parameters"].(map[string]any); p != nil && p["deleteWithoutExport"] == true && !strings.Contains(confirm, "WITHOUT EXPORT") {
		t.Errorf("deleteWithoutExport is sent but the confirm does not say so:\n%s", confirm)
	}
}

// Every operation form's confirm shows every parameter its submit sends,
// the envelope's generateAppProofs too.
func TestOperationFormConfirmShowsAllItSends(t *testing.T) {
	d := servertest.StartDemo(t)
	abi := filepath.Join(t.TempDir(), "abi.json")
	if err := os.WriteFile(abi, []byte(`[{"type":"function","name":"x"}]`), 0o600); err != nil {
		t.Fatal(err)
	}
	appProofs := func(h *harness, tabs int) { // the last field of every form
		for range tabs {
			h.key("tab")
		}
		h.key("right")
	}
	for _, tc := range []struct {
		name   string
		input  func(h *harness)
		hidden []string
	}{
		{"create invitations", func(h *harness) {
			h.typeText("dave <dave@example.com>")
			h.key("tab")
			h.key("right")
			h.key("tab")
			h.typeText("ops")
			appProofs(h, 3)
		}, nil},
		{"create user tag", func(h *harness) {
			h.typeText("  grant  ")
			h.key("tab")
			h.key("space")
			appProofs(h, 1)
		}, nil},
		{"create smart contract interface", func(h *harness) {
			h.typeText("0xabc")
			h.key("tab")
			h.key("tab")
			h.typeText(" my label ")
			h.key("tab")
			h.typeText(abi)
			h.key("tab")
			h.typeText("some notes")
			appProofs(h, 1)
		}, nil},
		{"delete wallet accounts", func(h *harness) {
			h.typeText("wa-1, wa-2")
			h.key("tab")
			h.key("right")
			appProofs(h, 1)
		}, nil},
		{"update oauth2 credential", func(h *harness) {
			h.typeText("oc-1")
			h.key("tab")
			h.key("tab")
			h.typeText("cid")
			h.key("tab")
			h.typeText("sec")
			appProofs(h, 1)
		}, []string{"encryptedClientSecret"}},
		{"delete tvc deployment", func(h *harness) { h.typeText("dep-1"); appProofs(h, 1) }, nil},
		{"create read only session", func(h *harness) { h.key("right") }, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var sent sentBodies
			h := memberConsole(t, d.ClientAt(recordingClientURL(d, &sent), "alice"))
			openOperation(h, tc.name)
			tc.input(h)
			h.key("ctrl+s")
			confirm := confirmText(h.frame())
			if !strings.Contains(confirm, "(y)") {
				t.Fatalf("no confirm:\n%s", h.frame())
			}
			h.key("y")
			env := oneSent(t, &sent)
			if env["generateAppProofs"] != true {
				t.Fatalf("the form sent no generateAppProofs though yes was picked: %v", env)
			}
			checkShown(t, confirm, env, tc.hidden...)
		})
	}
}

// The policy editor's confirm shows the whole name (a long one is cut in
// the title) and the notes the create_policy carries.
func TestPolicyEditorConfirmShowsAllItSends(t *testing.T) {
	d := servertest.StartDemo(t)
	var sent sentBodies
	h := memberConsole(t, d.ClientAt(recordingClientURL(d, &sent), "alice"))
	h.gotoScreen("Policies")
	h.key("n")
	if h.policies().editor == nil {
		t.Fatal("n did not open the editor")
	}
	fillPolicyDraft(h, "Ops may open read-only sessions in office hours only", false,
		"activity.type == 'ACTIVITY_TYPE_CREATE_READ_ONLY_SESSION'", "CronSpan('0 9 * * 1-5', '8h', 'Europe/Paris')")
	h.key("tab")
	h.typeText("approved by the board on 2026-01-05")
	h.key("ctrl+s")
	confirm := confirmText(h.frame())
	if !strings.Contains(confirm, "(y)") {
		t.Fatalf("no confirm:\n%s", h.frame())
	}
	h.key("y")
	checkShown(t, confirm, oneSent(t, &sent))
}

// The MFA policy editor's confirm shows the whole name, the user the policy
// is for by id as well as by name, and the notes.
func TestMfaEditorConfirmShowsAllItSends(t *testing.T) {
	d := servertest.StartDemo(t)
	var sent sentBodies
	h := demoHarnessVia(t, d.ClientAt(recordingClientURL(d, &sent), "alice"), ProofSettings{Apps: d.Info.EnclaveApps})
	h.gotoScreen("MFA policies")
	h.key("n")
	if h.mfa().editor == nil {
		t.Fatalf("n opened no editor:\n%s", h.frame())
	}
	h.typeText("Passkey for every policy change, always")
	h.key("tab") // condition
	h.key("tab") // order
	h.key("tab")
	h.typeText("asked for by the auditors")
	h.key("ctrl+s")
	confirm := confirmText(h.frame())
	if !strings.Contains(confirm, "(y)") {
		t.Fatalf("no confirm:\n%s", h.frame())
	}
	h.key("y")
	checkShown(t, confirm, oneSent(t, &sent))
}

// A confirm answered No reopens the form; the value changed and confirmed
// again is the one sent, once, however often y is pressed; keys typed while
// the confirm is open change nothing sent.
func TestOperationFormReconfirmSendsTheNewValueOnce(t *testing.T) {
	d := servertest.StartDemo(t)
	var sent sentBodies
	h := memberConsole(t, d.ClientAt(recordingClientURL(d, &sent), "alice"))
	openOperation(h, "delete tvc deployment")
	h.typeText("dep-first")
	h.key("ctrl+s")
	h.key("n")
	for range len("first") {
		h.key("backspace")
	}
	h.typeText("second")
	h.key("ctrl+s")
	confirm := confirmText(h.frame())
	h.typeText("zz")
	h.key("y")
	h.key("y")
	env := oneSent(t, &sent)
	if got := env["parameters"].(map[string]any)["deploymentId"]; got != "dep-second" {
		t.Errorf("sent deploymentId %q, want dep-second:\n%s", got, confirm)
	}
	checkShown(t, confirm, env)
}
