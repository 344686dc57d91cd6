package screens

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/keys"
	"github.com/vigil-console/vigil/server/servertest"
)

// What a confirm shows is what is then signed and sent: each test below
// drives a submit against the local service behind a proxy that records the
// request bodies, reads the confirm, answers y, and compares the two.

// sentBodies records the body and stamp of every submit that reaches the
// service, and, read when the recording starts, the organization and who
// holds each API key, by the service's word: whom a stamp speaks for.
type sentBodies struct {
	mu      sync.Mutex
	bodies  []string
	stamps  []string
	org     api.WhoamiResponse
	keyUser map[string]string // API key public key (hex) → user name
}

func (s *sentBodies) all() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.bodies...)
}

// recordingClientURL is the base URL of a proxy in front of d that records
// every submit's request body and stamp in sent.
func recordingClientURL(t *testing.T, d *servertest.Demo, sent *sentBodies) string {
	t.Helper()
	reader := d.Client("bob") // no test here deletes bob's key
	who, err := reader.Whoami(t.Context())
	if err != nil {
		t.Fatalf("whoami of the demo organization: %v", err)
	}
	users, err := reader.ListUsers(t.Context())
	if err != nil {
		t.Fatalf("list the demo organization's users: %v", err)
	}
	sent.org, sent.keyUser = *who, map[string]string{}
	for _, u := range users {
		for _, k := range u.APIKeys {
			sent.keyUser[strings.ToLower(k.Credential.PublicKey)] = u.UserName
		}
	}
	return d.Watching(func(op string, header http.Header, body []byte) {
		if strings.HasPrefix(op, "submit/") {
			sent.mu.Lock()
			sent.bodies = append(sent.bodies, string(body))
			sent.stamps = append(sent.stamps, header.Get(keys.HeaderStamp))
			sent.mu.Unlock()
		}
	})
}

// checkEnvelope fails unless every submit recorded went to the organization
// the status bar names, stamped by a key of the user it names.
func checkEnvelope(t *testing.T, h *harness, sent *sentBodies) {
	t.Helper()
	sent.mu.Lock()
	bodies, stamps := append([]string(nil), sent.bodies...), append([]string(nil), sent.stamps...)
	sent.mu.Unlock()
	frame := h.frame()
	lines := strings.Split(strings.TrimRight(frame, "\n"), "\n")
	bar := lines[len(lines)-1]
	for i, body := range bodies {
		var env struct {
			OrganizationID string `json:"organizationId"`
		}
		if err := json.Unmarshal([]byte(body), &env); err != nil {
			t.Fatalf("submit %d's body is not JSON: %v\n%s", i, err, body)
		}
		if env.OrganizationID != sent.org.OrganizationID {
			t.Errorf("submit %d went to organization %q, the status bar shows %q (%s):\n%s", i, env.OrganizationID, sent.org.OrganizationName, sent.org.OrganizationID, bar)
		}
		st, err := keys.Verify(stamps[i], []byte(body))
		if err != nil {
			t.Fatalf("submit %d's stamp does not verify: %v", i, err)
		}
		user, ok := sent.keyUser[strings.ToLower(st.PublicKey)]
		if !ok {
			t.Fatalf("submit %d is stamped by key %s, which no user of the organization holds", i, st.PublicKey)
		}
		if want := sent.org.OrganizationName + " · " + user; !strings.Contains(bar, want) {
			t.Errorf("submit %d is stamped by %s of %s, but the status bar does not say %q:\n%s", i, user, sent.org.OrganizationName, want, bar)
		}
	}
}

// confirmText is the text of the dialog on top, its box's borders taken off
// and every run of spaces (a wrap included) made one; a row broken inside a
// word (marked ↩) is joined to the next with no space, as the mark says.
func confirmText(frame string) string {
	var b strings.Builder
	inWord := false // the row before ended inside a word
	for _, l := range strings.Split(frame, "\n") {
		i, j := strings.Index(l, "│"), strings.LastIndex(l, "│")
		if i < 0 || j <= i {
			continue
		}
		row := strings.TrimRight(l[i+len("│"):j], " ")
		if inWord {
			row = strings.TrimLeft(row, " ") // the continuation's indent
		}
		row, inWord = strings.CutSuffix(strings.ReplaceAll(row, "␣", " "), "↩")
		b.WriteString(row)
		if !inWord {
			b.WriteByte(' ')
		}
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
	for _, prefix := range []string{"ACCESS_TYPE_", "SMART_CONTRACT_INTERFACE_TYPE_", "AUTHENTICATION_TYPE_", "FEATURE_NAME_"} {
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
			h := memberConsole(t, d.ClientAt(recordingClientURL(t, d, &sent), "alice"))
			openOperation(h, tc.name)
			tc.input(h)
			h.key("ctrl+s")
			confirm, env := confirmAndSend(t, h, &sent)
			if env["generateAppProofs"] != true {
				t.Fatalf("the form sent no generateAppProofs though yes was picked: %v", env)
			}
			checkSentAsShown(t, h, &sent, confirm, env, tc.hidden...)
		})
	}
}

// The policy editor's confirm shows the whole name (a long one is cut in
// the title) and the notes the create_policy carries.
func TestPolicyEditorConfirmShowsAllItSends(t *testing.T) {
	d := servertest.StartDemo(t)
	var sent sentBodies
	h := memberConsole(t, d.ClientAt(recordingClientURL(t, d, &sent), "alice"))
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
	confirm, env := confirmAndSend(t, h, &sent)
	checkSentAsShown(t, h, &sent, confirm, env)
}

// The MFA policy editor's confirm shows the whole name, the user the policy
// is for by id as well as by name, and the notes.
func TestMfaEditorConfirmShowsAllItSends(t *testing.T) {
	d := servertest.StartDemo(t)
	var sent sentBodies
	h := demoHarnessVia(t, d.ClientAt(recordingClientURL(t, d, &sent), "alice"), ProofSettings{Apps: d.Info.EnclaveApps})
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
	confirm, env := confirmAndSend(t, h, &sent)
	checkSentAsShown(t, h, &sent, confirm, env)
}

// A confirm answered No reopens the form; the value changed and confirmed
// again is the one sent, once, however often y is pressed; keys typed while
// the confirm is open change nothing sent.
func TestOperationFormReconfirmSendsTheNewValueOnce(t *testing.T) {
	d := servertest.StartDemo(t)
	var sent sentBodies
	h := memberConsole(t, d.ClientAt(recordingClientURL(t, d, &sent), "alice"))
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
	checkSentAsShown(t, h, &sent, confirm, env)
}

// checkSentAsShown checks the one request sent: every value in it shown in
// confirm (checkShown), and its organization and signer those of the
// status bar (checkEnvelope).
func checkSentAsShown(t *testing.T, h *harness, sent *sentBodies, confirm string, env map[string]any, hidden ...string) {
	t.Helper()
	checkShown(t, confirm, env, hidden...)
	checkEnvelope(t, h, sent)
}

// confirmAndSend reads the confirm on top (it must be one), answers y, and
// returns what it showed and the one submit sent.
func confirmAndSend(t *testing.T, h *harness, sent *sentBodies) (string, map[string]any) {
	t.Helper()
	confirm := confirmText(h.frame())
	if !strings.Contains(confirm, "(y)") {
		t.Fatalf("no confirm:\n%s", h.frame())
	}
	h.key("y")
	return confirm, oneSent(t, sent)
}

// The Organization screen's feature confirm shows the feature and the value
// it sends, a long value whole or marked as cut.
func TestSetFeatureConfirmShowsAllItSends(t *testing.T) {
	for _, value := range []string{
		"https://hooks.example.com/vigil",
		"https://hooks.example.com/" + strings.Repeat("a-very-long-path-segment/", 12) + "end",
	} {
		t.Run(fmt.Sprint(len(value)), func(t *testing.T) {
			d := servertest.StartDemo(t)
			var sent sentBodies
			h := memberConsole(t, d.ClientAt(recordingClientURL(t, d, &sent), "alice"))
			h.gotoScreen("Organization")
			h.key("s")
			h.pickFeature(api.FeatureWebhook)
			h.key("tab")
			h.typeText(value)
			h.key("ctrl+s")
			confirm, env := confirmAndSend(t, h, &sent)
			checkSentAsShown(t, h, &sent, confirm, env)
		})
	}
}

// The Users screen's deletion confirm shows the user and every key it
// deletes by id: one key, several, the console's own.
func TestDeleteAPIKeysConfirmShowsAllItSends(t *testing.T) {
	t.Run("one key", func(t *testing.T) {
		d := servertest.StartDemo(t)
		var sent sentBodies
		h := memberConsole(t, d.ClientAt(recordingClientURL(t, d, &sent), "alice"))
		u := h.openUser("operator")
		h.cursorToKeyWithoutPendingDeletion(u)
		h.key("d")
		confirm, env := confirmAndSend(t, h, &sent)
		if ids := env["parameters"].(map[string]any)["apiKeyIds"].([]any); len(ids) != 1 {
			t.Errorf("sent %v, want one key", ids)
		}
		checkSentAsShown(t, h, &sent, confirm, env)
	})
	t.Run("several keys", func(t *testing.T) {
		d := servertest.StartDemo(t)
		d.AddUserWithKeys("erin", 3, 0)
		var sent sentBodies
		h := memberConsole(t, d.ClientAt(recordingClientURL(t, d, &sent), "alice"))
		u := h.openUser("erin")
		for range u.open.APIKeys {
			h.key("space")
			h.key("j")
		}
		h.key("d")
		confirm, env := confirmAndSend(t, h, &sent)
		if ids := env["parameters"].(map[string]any)["apiKeyIds"].([]any); len(ids) != 3 {
			t.Errorf("sent %v, want erin's 3 keys", ids)
		}
		checkSentAsShown(t, h, &sent, confirm, env)
	})
	t.Run("own key", func(t *testing.T) {
		d := servertest.StartDemo(t)
		var sent sentBodies
		c := d.ClientAt(recordingClientURL(t, d, &sent), "operator")
		h := memberConsole(t, c)
		own := c.Stamper().(interface{ PublicKeyHex() string }).PublicKeyHex()
		h.root.common.OwnPublicKey = own
		u := h.openUser("operator")
		for range u.open.APIKeys {
			if u.open.APIKeys[u.cursor].HasPublicKey("", own) {
				break
			}
			h.key("j")
		}
		h.key("d")
		confirm, env := confirmAndSend(t, h, &sent)
		checkSentAsShown(t, h, &sent, confirm, env)
	})
}

// The vote dialog's y sends the fingerprint of the activity it was opened
// on, which it shows; an approval and a rejection alike.
func TestVoteDialogSendsTheActivityItShows(t *testing.T) {
	for _, approve := range []bool{true, false} {
		t.Run(fmt.Sprint("approve=", approve), func(t *testing.T) {
			d := servertest.StartDemo(t)
			other := proposeWatchedTag(t, d) // listed too: the vote must not go to it
			tag := proposeWatchedTag(t, d)
			var sent sentBodies
			h := memberConsole(t, d.ClientAt(recordingClientURL(t, d, &sent), "carol"))
			h.selectActivityID(tag.ID)
			h.key(map[bool]string{true: "a", false: "x"}[approve])
			if !h.voteDialogOpen() {
				t.Fatalf("no vote dialog:\n%s", h.frame())
			}
			confirm, env := confirmAndSend(t, h, &sent)
			checkVoteSent(t, confirm, env, tag, other)
			checkEnvelope(t, h, &sent)
		})
	}
}

// A vote dialog whose activity's record changes while it is open (another
// member votes) shows the record as it is now; the y that sends is answered
// on that text, and sends the same activity's fingerprint.
func TestVoteDialogOnARecordChangedWhileOpenSendsTheActivityItShows(t *testing.T) {
	d := servertest.StartDemo(t)
	tag := proposeWatchedTag(t, d)
	var sent sentBodies
	h := memberConsole(t, d.ClientAt(recordingClientURL(t, d, &sent), "carol"))
	h.selectActivityID(tag.ID)
	h.key("a")
	if !h.voteDialogOpen() {
		t.Fatalf("no vote dialog:\n%s", h.frame())
	}
	if _, err := d.Client("alice").RejectActivity(t.Context(), tag.Fingerprint); err != nil {
		t.Fatal(err)
	}
	h.run(h.activities().load())
	if !strings.Contains(confirmText(h.frame()), "alice") {
		t.Fatalf("the dialog does not show alice's new vote:\n%s", h.frame())
	}
	h.key("y") // acknowledges the change
	if n := len(sent.all()); n != 0 {
		t.Fatalf("a y typed for the text before the change voted (%d submits)", n)
	}
	confirm, env := confirmAndSend(t, h, &sent)
	checkVoteSent(t, confirm, env, tag, nil)
	checkEnvelope(t, h, &sent)
}

// checkVoteSent fails unless the vote sent is on act by its fingerprint,
// as the dialog shows it, and not on other.
func checkVoteSent(t *testing.T, confirm string, env map[string]any, act, other *api.Activity) {
	t.Helper()
	checkShown(t, confirm, env)
	got, _ := env["parameters"].(map[string]any)["fingerprint"].(string)
	if got != act.Fingerprint {
		t.Errorf("the vote sent fingerprint %q, the activity the dialog was opened on has %q", got, act.Fingerprint)
	}
	if other != nil && strings.Contains(confirm, other.Fingerprint) {
		t.Errorf("the dialog shows the other activity's fingerprint %s:\n%s", other.Fingerprint, confirm)
	}
}

// After a create_policy got no clear answer, the confirm of a changed draft
// (a new request) still shows everything the ordinary confirm shows: the
// draft, the CANNOT BE UNDONE and lock-out warnings, who must approve. The
// earlier request's warnings come on top of them, not instead.
func TestPolicyEditorConfirmAfterNoClearAnswerShowsAllItSends(t *testing.T) {
	for _, tc := range []struct {
		name, condition, notes string
		want                   []string
	}{
		{"Deny everything", "true", "notes the member must see",
			[]string{"EFFECT_DENY", "condition: true", "CANNOT BE UNDONE", "notes the member must see", "Once submitted"}},
		{"No policy changes", "activity.resource == 'POLICY'", "",
			[]string{"EFFECT_DENY", "locks the organization out of", "Once submitted"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h, d, g := gatewayHarness(t)
			addWalletsPolicy(t, d)
			h.gotoScreen("Policies")
			h.key("n")
			h.typeText("Harmless draft")
			submitWithNoClearAnswer(h, g)
			if h.policies().editor == nil || h.policies().editor.earlier == nil {
				t.Fatalf("the submit got a clear answer:\n%s", h.frame())
			}
			// The draft changed into a deny, with its name and notes.
			for range len("Harmless draft") {
				h.key("backspace")
			}
			h.typeText(tc.name)
			h.key("tab")
			h.key("right") // EFFECT_DENY
			h.key("tab")
			h.typeText(tc.condition)
			h.key("tab") // consensus
			h.key("tab") // time
			h.key("tab")
			h.typeText(tc.notes)
			h.key("ctrl+r")
			h.key("ctrl+s")
			c := openConfirm(h)
			if c == nil {
				t.Fatalf("ctrl+s did not ask:\n%s", h.frame())
			}
			confirm := confirmText(h.frame())
			for _, want := range append(tc.want, tc.name, "Look in Activities (v: all) first", "so this is a new request") {
				if !strings.Contains(confirm, want) {
					t.Errorf("the confirm of the changed draft lacks %q:\n%s", want, confirm)
				}
			}
			// Every line of the ordinary confirm of this draft, and its
			// warnings drawn as warnings.
			ordinary := h.policies().createQuestion(c.yesMsg.(policyNewConfirmedMsg).params)
			for i, l := range ordinary.Lines {
				j := slices.Index(c.confirm.Lines, l)
				if j < 0 {
					t.Errorf("the ordinary confirm's line %q is missing", l)
				} else if ordinary.Warn[i] && !c.confirm.Warn[j] {
					t.Errorf("the ordinary confirm's warning %q is not drawn as one", l)
				}
			}
			h.key("y")
			ids := policyActivities(t, d.Client("bob"), tc.name)
			if len(ids) != 1 {
				t.Fatalf("%d create_policy activities named %q, want 1", len(ids), tc.name)
			}
			checkShown(t, confirm, sentPolicy(t, d, tc.name))
		})
	}
}

// After a create_policy got no clear answer, ctrl+s on the unchanged draft
// asks before sending it again, as the MFA editor and the forms ask: it was
// sent at once with only a notice. The confirm says it is the same request,
// and still shows the draft and its warnings (a lock-out); No sends nothing
// and keeps the editor, y sends the same request: one activity in all.
func TestPolicyEditorAsksBeforeSendingAnUnchangedDraftAgain(t *testing.T) {
	const name = "No policy changes"
	h, d, g := gatewayHarness(t)
	addWalletsPolicy(t, d)
	h.gotoScreen("Policies")
	h.key("n")
	h.typeText(name)
	h.key("tab")
	h.key("right") // EFFECT_DENY
	h.key("tab")
	h.typeText("activity.resource == 'POLICY'")
	h.key("ctrl+r")
	submitWithNoClearAnswer(h, g)
	if h.policies().editor == nil || h.policies().editor.earlier == nil {
		t.Fatalf("the submit got a clear answer:\n%s", h.frame())
	}
	bob := d.Client("bob")
	if ids := policyActivities(t, bob, name); len(ids) != 1 {
		t.Fatalf("the service recorded %d activities, want 1 (the 503 came after it)", len(ids))
	}

	h.key("ctrl+s")
	c := openConfirm(h)
	if c == nil {
		t.Fatalf("ctrl+s on the unchanged draft sent it again without asking:\n%s", h.frame())
	}
	confirm := confirmText(h.frame())
	for _, want := range []string{"Send again: policy", name, "EFFECT_DENY", "activity.resource == 'POLICY'",
		"locks the organization out of", "The earlier create_policy got no clear answer: " + resendNote, "Once submitted"} {
		if !strings.Contains(confirm, want) {
			t.Errorf("the confirm of the resend lacks %q:\n%s", want, confirm)
		}
	}
	h.key("enter") // No
	if h.policies().editor == nil || h.policies().editor.sending != "" {
		t.Fatalf("No closed the editor or sent the request:\n%s", h.frame())
	}

	h.submitAndConfirm()
	if !h.toasted(resendNote) {
		t.Error("the resend does not say it sends the same request again")
	}
	if h.policies().editor != nil {
		t.Fatalf("the editor is still open after the resend was answered:\n%s", h.frame())
	}
	if ids := policyActivities(t, bob, name); len(ids) != 1 {
		t.Errorf("%d create_policy activities for %q after the resend, want 1: %v", len(ids), name, ids)
	}
}

// sentPolicy is the create_policy named name as the service recorded it, in
// the shape of a submit's body: what a submit through the gateway sent.
func sentPolicy(t *testing.T, d *servertest.Demo, name string) map[string]any {
	t.Helper()
	acts, err := d.Client("bob").ListActivities(context.Background(), api.ListActivitiesOptions{Types: []string{api.TypeCreatePolicyV3}})
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range acts {
		if in := a.Intent.CreatePolicyIntentV3; in != nil && in.PolicyName == name {
			b, err := json.Marshal(in)
			if err != nil {
				t.Fatal(err)
			}
			var params map[string]any
			if err := json.Unmarshal(b, &params); err != nil {
				t.Fatal(err)
			}
			return map[string]any{"parameters": params}
		}
	}
	t.Fatalf("the service recorded no create_policy named %q", name)
	return nil
}
