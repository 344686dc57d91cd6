package screens

import (
	"bytes"
	"context"
	"log/slog"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/server/servertest"
	"github.com/vigil-console/vigil/ui/theme"
)

// deadURL is the address of a service that has stopped: nothing listens there.
func deadURL(t *testing.T) string {
	t.Helper()
	s := httptest.NewServer(nil)
	url := s.URL
	s.Close()
	return url
}

// A create_mfa_policy that fails (the service went down) leaves the editor
// open with every field and step as typed, and the error in it.
func TestEndToEndMfaEditorKeepsEverythingWhenTheSubmitFails(t *testing.T) {
	d := servertest.StartDemo(t)
	down := d.ClientAt(deadURL(t), "alice")
	h := newHarnessWith(t, d.Client("alice"), down, theme.Options{Dark: true, NoColor: true}, 0)
	h.send(tea.WindowSizeMsg{Width: 160, Height: 48})
	h.gotoScreen("MFA policies")
	h.key("n")
	h.typeText("MFA policy with a long careful name")
	for range 3 {
		h.key("tab")
	}
	h.typeText("Notes I do not want to lose")
	ctrlT := tea.KeyPressMsg{Code: 't', Mod: tea.ModCtrl}
	h.send(ctrlT)
	h.key("a") // step 2
	h.key("t") // PASSKEY -> …
	h.send(ctrlS)
	h.key("y")
	e := h.mfa().editor
	if e == nil {
		t.Fatalf("the failed submit closed the editor:\n%s", h.frame())
	}
	out := h.frame()
	for _, want := range []string{"MFA policy with a long careful name", "Notes I do not want to lose", "step 2: any of", "cannot connect"} {
		if !strings.Contains(out, want) {
			t.Errorf("after the failed submit the editor lacks %q:\n%s", want, out)
		}
	}
	if len(e.steps) != 2 || e.steps[1].Any[0].Type == "PASSKEY" {
		t.Errorf("the steps came back as %+v", e.steps)
	}
}

// policyActivities are the ids of the create_policy activities that propose
// a policy named name.
func policyActivities(t *testing.T, c *api.Client, name string) []string {
	t.Helper()
	return activitiesOf(t, c, api.TypeCreatePolicyV3, func(in api.Intent) bool {
		return in.CreatePolicyIntentV3 != nil && in.CreatePolicyIntentV3.PolicyName == name
	})
}

// After a create_policy whose outcome is unknown (a gateway's 503 after the
// service recorded it), ctrl+s on the unchanged draft, confirmed, sends the
// same request again: the organization gets one activity, not a duplicate
// that both could approve.
func TestEndToEndPolicyEditorResendsAfterAnUnknownOutcome(t *testing.T) {
	h, d, g := gatewayHarness(t)
	h.gotoScreen("Policies")
	h.key("n")
	const name = "Dup check policy 32039"
	h.typeText(name)
	g.FailSubmits.Store(true)
	h.submitAndConfirm()
	if h.policies().editor == nil {
		t.Fatalf("the unknown outcome closed the editor:\n%s", h.frame())
	}
	if out := h.frame(); !strings.Contains(out, "got no clear answer") {
		t.Errorf("the editor does not say the outcome is unknown:\n%s", out)
	}
	if ids := policyActivities(t, d.Client("bob"), name); len(ids) != 1 {
		t.Fatalf("the service recorded %d activities, want 1 (the 503 came after it)", len(ids))
	}
	h.submitAndConfirm() // still no clear answer
	g.FailSubmits.Store(false)
	h.submitAndConfirm()
	if !h.toasted(resendNote) {
		t.Error("the resend does not say it sends the same request again")
	}
	if h.policies().editor != nil {
		t.Fatalf("the editor is still open after the resend was answered:\n%s", h.frame())
	}
	if ids := policyActivities(t, d.Client("bob"), name); len(ids) != 1 {
		t.Errorf("%d create_policy activities for %q after ctrl+s three times, want 1: %v", len(ids), name, ids)
	}
	if det := h.activities().detail; det == nil || !strings.Contains(h.frame(), name) {
		t.Errorf("the activity is not shown after the resend:\n%s", h.frame())
	}
}

// A draft changed after an unknown outcome is a new request: the console
// asks first, No by default, saying the earlier one may have been recorded.
func TestEndToEndPolicyEditorAsksBeforeANewRequestAfterAnUnknownOutcome(t *testing.T) {
	h, d, g := gatewayHarness(t)
	h.gotoScreen("Policies")
	h.key("n")
	h.typeText("First draft")
	submitWithNoClearAnswer(h, g)
	h.typeText(" changed")
	h.send(ctrlS)
	top := h.root.dialogs.Top()
	if top == nil || !strings.Contains(h.frame(), "got no clear answer") {
		t.Fatalf("a changed draft was not confirmed:\n%s", h.frame())
	}
	h.key("enter") // No
	bob := d.Client("bob")
	if ids := policyActivities(t, bob, "First draft changed"); len(ids) != 0 {
		t.Fatalf("No sent the changed draft: %v", ids)
	}
	if h.policies().editor == nil {
		t.Fatal("No closed the editor")
	}
	h.send(ctrlS)
	h.key("y")
	if ids := policyActivities(t, bob, "First draft changed"); len(ids) != 1 {
		t.Errorf("y sent %d activities for the changed draft, want 1", len(ids))
	}
}

// A resend more than five minutes after the request was made is refused as
// stale: the console says to look in the activity list, and a next submit is
// a new request, confirmed first.
func TestEndToEndPolicyEditorStaleResendSaysWhereToLook(t *testing.T) {
	d := servertest.StartDemo(t)
	g := d.Gateway()
	// The request is made ten minutes ago, as if the resend came late.
	late := d.ClientAt(g.URL, "alice", api.WithClock(func() time.Time { return time.Now().Add(-10 * time.Minute) }))
	h := newHarnessWith(t, d.Client("alice"), late, theme.Options{Dark: true, NoColor: true}, 0)
	h.send(tea.WindowSizeMsg{Width: 160, Height: 48})
	h.gotoScreen("Policies")
	h.key("n")
	h.typeText("Late policy")
	submitWithNoClearAnswer(h, g)
	h.submitAndConfirm()
	if !h.toasted("look for it in Activities (v: all)") || h.toasted("set this machine's clock") {
		t.Errorf("the stale resend does not say where to look:\n%s", h.frame())
	}
	if h.policies().editor == nil {
		t.Fatal("the stale resend closed the editor")
	}
	h.send(ctrlS)
	if !strings.Contains(h.frame(), "too old to send again") {
		t.Errorf("after a stale resend a new request is not confirmed:\n%s", h.frame())
	}
}

// policies is the Policies screen, wherever the console is.
func (h *harness) policies() *Policies {
	h.t.Helper()
	for _, s := range h.root.screens {
		if p, ok := s.(*Policies); ok {
			return p
		}
	}
	h.t.Fatal("no Policies screen")
	return nil
}

// activitiesOf are the ids of the activities of type typ whose intent
// matches.
func activitiesOf(t *testing.T, c *api.Client, typ string, match func(api.Intent) bool) []string {
	t.Helper()
	acts, err := c.ListActivities(context.Background(), api.ListActivitiesOptions{Types: []string{typ}})
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, a := range acts {
		if match(a.Intent) {
			ids = append(ids, a.ID)
		}
	}
	return ids
}

// The MFA editor after an unknown outcome: the unchanged policy is sent
// again (the confirm says so), and the service has one activity for it.
func TestEndToEndMfaEditorResendsAfterAnUnknownOutcome(t *testing.T) {
	h, d, g := gatewayHarness(t)
	h.gotoScreen("MFA policies")
	h.key("n")
	const name = "MFA resend probe"
	h.typeText(name)
	g.FailSubmits.Store(true)
	h.submitAndConfirm()
	if h.mfa().editor == nil || !strings.Contains(h.frame(), "got no clear answer") {
		t.Fatalf("after the unknown outcome:\n%s", h.frame())
	}
	g.FailSubmits.Store(false)
	h.send(ctrlS)
	if out := h.frame(); !strings.Contains(out, "Send again: MFA policy") || !strings.Contains(out, "will not create it twice") {
		t.Errorf("the confirm does not say the request is sent again:\n%s", out)
	}
	h.key("y")
	named := func(in api.Intent) bool {
		return in.CreateMfaPolicyIntent != nil && in.CreateMfaPolicyIntent.MfaPolicyName == name
	}
	if ids := activitiesOf(t, d.Client("bob"), api.TypeCreateMfaPolicy, named); len(ids) != 1 {
		t.Errorf("%d create_mfa_policy activities for %q, want 1: %v", len(ids), name, ids)
	}
	if h.mfa().editor != nil {
		t.Errorf("the editor stayed open after the resend was answered:\n%s", h.frame())
	}
}

// An operation form whose submit got no clear answer resends the same
// request while its values are unchanged. A secret is not kept in plaintext
// for that: the form forgets it once sent, as always, and the kept request
// holds it encrypted; left empty, the resend uses the request's.
func TestEndToEndOperationFormResendsWithoutKeepingTheSecret(t *testing.T) {
	d := servertest.StartDemo(t)
	g := d.Gateway()
	alice := d.ClientAt(g.URL, "alice")
	var log bytes.Buffer
	r := NewRoot(Options{Reader: alice, Submitter: alice, Profile: "demo", Theme: theme.Options{Dark: true, NoColor: true},
		Static: true, Tick: func(time.Duration, func(time.Time) tea.Msg) tea.Cmd { return nil },
		Logger:              slog.New(slog.NewTextHandler(&log, nil)),
		TLSFetcherPublicKey: d.Info.TLSFetcherPublicKey})
	h := &harness{t: t, root: r}
	h.send(tea.WindowSizeMsg{Width: 160, Height: 48})
	h.run(r.Init())

	const secret = "s3cr3t-Client-VALUE-7f1e"
	const credential = "cred-resend-probe"
	openOperation(h, "update oauth2 credential")
	h.typeText(credential)
	h.key("tab")
	h.key("tab")
	h.typeText("client-1")
	h.key("tab")
	h.typeText(secret)
	g.FailSubmits.Store(true)
	h.submitAndConfirm()
	form, ok := h.root.dialogs.Top().(*opFormDialog)
	if !ok {
		t.Fatalf("the form did not reopen after the unknown outcome:\n%s", h.frame())
	}
	if out := h.frame(); !strings.Contains(out, "got no clear answer") || !strings.Contains(out, "Leave the secret empty") {
		t.Errorf("the form does not say the request can be sent again:\n%s", out)
	}
	if got := form.form.Values()["clientSecret"]; got != "" {
		t.Errorf("the form kept the secret %q", got)
	}
	if form.earlier == nil || form.earlier.sent == nil {
		t.Fatal("the request was not kept")
	}
	if body := reflect.ValueOf(form.earlier.sent).Elem().FieldByName("body").Bytes(); bytes.Contains(body, []byte(secret)) || !bytes.Contains(body, []byte("encryptedClientSecret")) {
		t.Errorf("the kept request is not the encrypted body: %s", body)
	}
	g.FailSubmits.Store(false)
	h.typeText("again") // the secret typed again: a new request, said so
	h.key("ctrl+s")
	if out := h.frame(); !strings.Contains(out, "The secret was typed again") {
		t.Errorf("the confirm does not say a typed secret makes a new request:\n%s", out)
	}
	h.key("enter") // No: back to the form
	for range len("again") {
		h.key("backspace")
	}
	h.key("ctrl+s") // the secret left empty
	if !h.toasted(resendNote) {
		t.Errorf("the resend does not say it sends the same request again:\n%s", h.frame())
	}
	match := func(in api.Intent) bool {
		return in.UpdateOauth2CredentialIntent != nil && in.UpdateOauth2CredentialIntent.Oauth2CredentialID == credential
	}
	if ids := activitiesOf(t, d.Client("bob"), api.TypeUpdateOauth2Credential, match); len(ids) != 1 {
		t.Errorf("%d update_oauth2_credential activities, want 1: %v", len(ids), ids)
	}
	if strings.Contains(log.String(), secret) {
		t.Error("the secret is in the log")
	}
}

// A changed operation form after an unknown outcome is a new request: the
// secret must be typed again, and the console asks first.
func TestEndToEndOperationFormAsksBeforeANewRequest(t *testing.T) {
	h, d, g := gatewayHarness(t)
	openOperation(h, "update oauth2 credential")
	h.typeText("cred-a")
	h.key("tab")
	h.key("tab")
	h.typeText("client-1")
	h.key("tab")
	h.typeText("secret-one")
	submitWithNoClearAnswer(h, g)
	h.key("shift+tab")
	h.typeText("2") // client-12: a new request
	h.key("ctrl+s")
	if out := h.frame(); !strings.Contains(out, "type it again") {
		t.Fatalf("a changed form sent without its secret:\n%s", out)
	}
	h.typeText("secret-two")
	h.key("ctrl+s")
	if out := h.frame(); !strings.Contains(out, "Submit a new update_oauth2_credential?") || !strings.Contains(out, "got no clear answer") {
		t.Fatalf("no confirm before a new request:\n%s", out)
	}
	h.key("enter") // No: back to the form
	if _, ok := h.root.dialogs.Top().(*opFormDialog); !ok {
		t.Fatalf("No did not return to the form:\n%s", h.frame())
	}
	match := func(in api.Intent) bool {
		return in.UpdateOauth2CredentialIntent != nil && in.UpdateOauth2CredentialIntent.ClientID == "client-12"
	}
	if ids := activitiesOf(t, d.Client("bob"), api.TypeUpdateOauth2Credential, match); len(ids) != 0 {
		t.Errorf("No sent the new request: %v", ids)
	}
}

// An operation form sent again unchanged after an unknown outcome (ctrl+s,
// no confirm), and q typed in the same burst: the resend is in flight when q
// is handled, so q asks instead of quitting with it never sent; it is then
// sent, and one activity is recorded.
func TestEndToEndQuitRightAfterAnOperationResendAsks(t *testing.T) {
	h, d, g := gatewayHarness(t)
	openOperation(h, "create invitations")
	h.typeText("burst <burst@example.com>")
	g.FailSubmits.Store(true)
	h.submitAndConfirm()
	if _, ok := h.root.dialogs.Top().(*opFormDialog); !ok || !strings.Contains(h.frame(), "got no clear answer") {
		t.Fatalf("the form did not reopen after the unknown outcome:\n%s", h.frame())
	}
	g.FailSubmits.Store(false)
	_, resend := h.root.Update(ctrlS)
	_, q := h.root.Update(keyPress("q")) // typed right after ctrl+s
	h.run(q)
	if h.quit() {
		t.Fatal("q right after the resend quit with it never sent")
	}
	if top := h.root.dialogs.Top(); top == nil || top.ID() != quitDialogID {
		t.Fatalf("q right after the resend did not ask:\n%s", h.frame())
	}
	h.run(resend)
	match := func(in api.Intent) bool {
		return in.CreateInvitationsIntent != nil && len(in.CreateInvitationsIntent.Invitations) == 1 &&
			in.CreateInvitationsIntent.Invitations[0].ReceiverUserEmail == "burst@example.com"
	}
	if ids := activitiesOf(t, d.Client("bob"), api.TypeCreateInvitations, match); len(ids) != 1 {
		t.Errorf("%d create_invitations activities, want 1: %v", len(ids), ids)
	}
}

// gatewayHarness drives the console as alice through a gateway that can
// fail submits after the service handled them.
func gatewayHarness(t *testing.T) (*harness, *servertest.Demo, *servertest.Gateway) {
	t.Helper()
	d := servertest.StartDemo(t)
	g := d.Gateway()
	alice := d.ClientAt(g.URL, "alice")
	h := newHarnessFor(t, alice, theme.Options{Dark: true, NoColor: true}, 0)
	h.send(tea.WindowSizeMsg{Width: 160, Height: 48})
	return h, d, g
}

// submitWithNoClearAnswer submits the open draft while the gateway fails
// submits after the service handled them (the console cannot tell whether
// it was recorded), then lets later submits through.
func submitWithNoClearAnswer(h *harness, g *servertest.Gateway) {
	g.FailSubmits.Store(true)
	h.submitAndConfirm()
	g.FailSubmits.Store(false)
}

// The feature form after an unknown outcome: the same feature and value are
// sent again (the confirm says so), one activity in all.
func TestEndToEndFeatureFormResendsAfterAnUnknownOutcome(t *testing.T) {
	h, d, g := gatewayHarness(t)
	const url = "https://hooks.example.com/resend-probe"
	h.gotoScreen("Organization")
	h.key("s")
	h.pickFeature(api.FeatureWebhook)
	h.key("tab")
	h.typeText(url)
	g.FailSubmits.Store(true)
	h.submitAndConfirm()
	if h.organization().form == nil || !strings.Contains(h.frame(), "got no clear answer") {
		t.Fatalf("after the unknown outcome:\n%s", h.frame())
	}
	g.FailSubmits.Store(false)
	h.send(ctrlS)
	if out := h.frame(); !strings.Contains(out, "will not create it twice") {
		t.Errorf("the confirm does not say the request is sent again:\n%s", out)
	}
	h.key("y")
	match := func(in api.Intent) bool {
		return in.SetOrganizationFeatureIntent != nil && in.SetOrganizationFeatureIntent.Value == url
	}
	if ids := activitiesOf(t, d.Client("bob"), api.TypeSetOrganizationFeature, match); len(ids) != 1 {
		t.Errorf("%d set_organization_feature activities for %s, want 1: %v", len(ids), url, ids)
	}
}

// Deleting API keys after an unknown outcome: the same keys of the same user
// are deleted by the same request, sent again.
func TestEndToEndKeyDeletionResendsAfterAnUnknownOutcome(t *testing.T) {
	h, d, g := gatewayHarness(t)
	u := h.selectUser("operator")
	h.key("enter")
	if u.open == nil || len(u.open.APIKeys) == 0 {
		t.Fatalf("operator's keys are not open:\n%s", h.frame())
	}
	keyID := h.cursorToKeyWithoutPendingDeletion(u)
	match := func(in api.Intent) bool {
		return in.DeleteAPIKeysIntent != nil && len(in.DeleteAPIKeysIntent.APIKeyIDs) == 1 && in.DeleteAPIKeysIntent.APIKeyIDs[0] == keyID
	}
	before := len(activitiesOf(t, d.Client("bob"), api.TypeDeleteAPIKeys, match))
	g.FailSubmits.Store(true)
	h.key("d")
	h.key("y")
	g.FailSubmits.Store(false)
	h.key("d")
	if out := h.frame(); !strings.Contains(out, "will not create it twice") {
		t.Errorf("the confirm does not say the request is sent again:\n%s", out)
	}
	h.key("y")
	if ids := activitiesOf(t, d.Client("bob"), api.TypeDeleteAPIKeys, match); len(ids) != before+1 {
		t.Errorf("%d new delete_api_keys activities for key %s, want 1: %v", len(ids)-before, keyID, ids)
	}
}
