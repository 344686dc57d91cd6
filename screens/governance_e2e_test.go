package screens

import (
	"context"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/keys"
	"github.com/vigil-console/vigil/server/servertest"
)

func featureValue(t *testing.T, c *api.Client, name string) (string, bool) {
	t.Helper()
	cfg, err := c.GetOrganizationConfigs(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range cfg.Features {
		if f.Name == name {
			return f.Value, true
		}
	}
	return "", false
}

// alice sets the webhook through the form; it waits for the root quorum and is
// set once bob approves.
func TestEndToEndSetFeatureWaitsForTheRootQuorum(t *testing.T) {
	d := servertest.StartDemo(t)
	h := demoHarness(t, d, nil)
	const url = "https://hooks.example.com/vigil-e2e"
	h.gotoScreen("Organization")
	h.key("s")
	h.pickFeature(api.FeatureWebhook)
	h.key("tab")
	h.typeText(url)
	h.send(ctrlS)
	h.key("y")
	if got := h.root.ActiveTitle(); got != "Activities" {
		t.Fatalf("after submitting the console shows %s:\n%s", got, h.frame())
	}
	det := h.activities().detail
	if det == nil {
		t.Fatalf("the activity is not open:\n%s", h.frame())
	}
	if out := h.frame(); !strings.Contains(out, "CONSENSUS_NEEDED") {
		t.Errorf("the activity does not show it waits for consensus:\n%s", out)
	}
	bob := d.Client("bob")
	if v, _ := featureValue(t, bob, api.FeatureWebhook); v == url {
		t.Fatal("the feature was set before the quorum approved")
	}
	act, err := bob.GetActivity(context.Background(), det.activity.ID)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := bob.ApproveActivity(context.Background(), act.Fingerprint); err != nil {
		t.Fatal(err)
	}
	if v, ok := featureValue(t, bob, api.FeatureWebhook); !ok || v != url {
		t.Errorf("after bob approved the webhook is %q (set %v), want %q", v, ok, url)
	}
}

// alice deletes operator's API key from the Users screen; once the activity
// completes (bob approves if the policy asks), the key no longer authenticates.
func TestEndToEndDeletedAPIKeyNoLongerAuthenticates(t *testing.T) {
	d := servertest.StartDemo(t)
	operator := d.Client("operator")
	if _, err := operator.Whoami(context.Background()); err != nil {
		t.Fatalf("operator's key does not authenticate before the deletion: %v", err)
	}
	h := demoHarness(t, d, nil)
	u := h.selectUser("operator")
	if sel := u.selected(); sel == nil || sel.UserName != "operator" || len(sel.APIKeys) == 0 {
		t.Fatalf("operator with API keys not found:\n%s", h.frame())
	}
	h.key("enter")
	// The key operator's client signs with (operator may hold more than one).
	k, err := keys.Store{Dir: d.KeysDir}.Load("operator")
	if err != nil {
		t.Fatal(err)
	}
	for range u.open.APIKeys {
		if strings.EqualFold(u.open.APIKeys[u.cursor].Credential.PublicKey, k.PublicKeyHex()) {
			break
		}
		h.key("j")
	}
	if !strings.EqualFold(u.open.APIKeys[u.cursor].Credential.PublicKey, k.PublicKeyHex()) {
		t.Fatalf("operator's signing key is not among its API keys:\n%s", h.frame())
	}
	h.key("d")
	if out := h.frame(); !strings.Contains(out, "of operator") {
		t.Fatalf("confirm does not name operator:\n%s", out)
	}
	h.key("y")
	bob := d.Client("bob")
	if h.root.ActiveTitle() == "Activities" { // waiting for votes
		det := h.activities().detail
		if det == nil {
			t.Fatal("the deletion's activity is not open")
		}
		act, err := bob.GetActivity(context.Background(), det.activity.ID)
		if err != nil {
			t.Fatal(err)
		}
		done, err := bob.ApproveActivity(context.Background(), act.Fingerprint)
		if err != nil {
			t.Fatal(err)
		}
		if done.Status != api.StatusCompleted {
			t.Fatalf("after bob's approval the deletion is %s", done.Status)
		}
	}
	if _, err := operator.Whoami(context.Background()); err == nil {
		t.Error("operator's deleted key still authenticates a whoami")
	}
	if _, err := bob.Whoami(context.Background()); err != nil {
		t.Errorf("bob's key stopped working too: %v", err)
	}
}

// alice creates an MFA policy with three steps through the editor; the service
// returns it with the steps in the order built.
func TestEndToEndCreateMfaPolicyKeepsStepOrder(t *testing.T) {
	d := servertest.StartDemo(t)
	h := demoHarness(t, d, nil)
	h.gotoScreen("MFA policies")
	h.key("n")
	if h.mfa().editor == nil {
		t.Fatalf("n did not open the editor:\n%s", h.frame())
	}
	h.typeText("e2e three steps")
	h.send(tea.KeyPressMsg{Code: 't', Mod: tea.ModCtrl})
	h.key("t") // step 1: API_KEY
	h.key("a") // step 2: PASSKEY
	h.key("a") // step 3: PASSKEY -> SESSION
	h.key("t")
	h.key("t")
	h.key("t")
	h.send(ctrlS)
	h.key("y")
	if h.root.ActiveTitle() == "Activities" { // waiting for the quorum: bob approves
		bob := d.Client("bob")
		act, err := bob.GetActivity(context.Background(), h.activities().detail.activity.ID)
		if err != nil {
			t.Fatal(err)
		}
		if done, err := bob.ApproveActivity(context.Background(), act.Fingerprint); err != nil || done.Status != api.StatusCompleted {
			t.Fatalf("bob's approval: %v %v", done, err)
		}
	}
	alice := d.Client("alice")
	who, err := alice.Whoami(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	pols, err := alice.GetMfaPolicies(context.Background(), who.UserID)
	if err != nil {
		t.Fatal(err)
	}
	var got *api.MfaPolicy
	for i := range pols {
		if pols[i].MfaPolicyName == "e2e three steps" {
			got = &pols[i]
		}
	}
	if got == nil {
		t.Fatalf("the policy was not created (status: %q):\n%s", h.mfa().err, h.frame())
	}
	var types []string
	for _, s := range got.RequiredAuthenticationMethods {
		for _, m := range s.Any {
			types = append(types, m.Type)
		}
	}
	want := []string{api.AuthAPIKey, api.AuthPasskey, api.AuthSession}
	if strings.Join(types, ",") != strings.Join(want, ",") {
		t.Errorf("steps came back as %v, want %v", types, want)
	}
}

// The activity detail names each voter's MFA policy (by name, from
// get_mfa_policy) and each step satisfied or missing.
func TestEndToEndActivityDetailShowsMfaStatus(t *testing.T) {
	d := servertest.StartDemo(t)
	h := demoHarness(t, d, nil)
	h.key("enter") // the first pending activity
	out := h.frame()
	i := strings.Index(out, ": policy ")
	if !strings.Contains(out, "MFA status (") || i < 0 {
		t.Fatalf("no MFA status in the detail:\n%s", out)
	}
	// The name the service gives the policy that applies, asked independently.
	alice := d.Client("alice")
	sts, err := alice.GetMfaStatus(context.Background(), h.activities().detail.activity.ID, "")
	if err != nil || len(sts) == 0 || sts[0].MfaPolicyID == "" {
		t.Fatalf("get_mfa_status: %v %v", sts, err)
	}
	pol, err := alice.GetMfaPolicy(context.Background(), sts[0].UserID, sts[0].MfaPolicyID)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, ": policy "+api.Quote(pol.MfaPolicyName)) {
		t.Errorf("the policy is not shown by its name %q:\n%s", pol.MfaPolicyName, out)
	}
	if !strings.Contains(out, "step 1") {
		t.Errorf("no steps in the MFA status:\n%s", out)
	}
}

// cursorToKeyWithoutPendingDeletion moves the cursor of u's open record to a
// key no pending delete_api_keys names (the demo proposes one for operator's
// old CI key; d on that key offers the pending activity instead) and returns
// its id.
func (h *harness) cursorToKeyWithoutPendingDeletion(u *Users) string {
	h.t.Helper()
	for range u.open.APIKeys {
		if _, pending := u.pendingDeletes[u.open.APIKeys[u.cursor].APIKeyID]; !pending {
			break
		}
		h.key("j")
	}
	keyID := u.open.APIKeys[u.cursor].APIKeyID
	if _, pending := u.pendingDeletes[keyID]; pending {
		h.t.Fatalf("every key of %s has a pending deletion:\n%s", u.open.UserName, h.frame())
	}
	return keyID
}

// selectUser goes to the Users screen and moves the cursor to the user named
// name (the caller checks it got there).
func (h *harness) selectUser(name string) *Users {
	h.gotoScreen("Users")
	var u *Users
	for _, s := range h.root.screens {
		if x, ok := s.(*Users); ok {
			u = x
		}
	}
	for range u.items {
		if sel := u.selected(); sel != nil && sel.UserName == name {
			break
		}
		h.key("j")
	}
	return u
}

// openUser opens name's record on the Users screen; the test stops if it
// does not open.
func (h *harness) openUser(name string) *Users {
	h.t.Helper()
	u := h.selectUser(name)
	h.key("enter")
	if u.open == nil || u.open.UserName != name {
		h.t.Fatalf("%s's record did not open:\n%s", name, h.frame())
	}
	return u
}
