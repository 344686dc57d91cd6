package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
)

// completedTag is a CREATE_USER_TAG activity with app proofs, submitted by
// alice and approved by bob (the root quorum is 2 of 3).
func completedTag(t *testing.T, e *verbEnv, name string) *api.Activity {
	t.Helper()
	ctx := context.Background()
	act, err := e.client("alice").CreateUserTag(ctx, api.CreateUserTagParams{UserTagName: name, UserIDs: []string{e.userID("operator")}}, api.WithAppProofs())
	if err == nil && act.Status != api.StatusCompleted {
		act, err = e.client("bob").ApproveActivity(ctx, act.Fingerprint)
	}
	if err != nil || act.Status != api.StatusCompleted {
		t.Fatalf("tag %s: %v %+v", name, err, act)
	}
	return act
}

// A service that serves one activity's genuine app proof as another's (a proxy
// moves the list_app_proofs reply): `activity proofs` says whose it is and
// exits 1, and `proof verify --activity` fails the binding check while the
// signature still verifies.
func TestAppProofOfAnotherActivityIsRefused(t *testing.T) {
	e := newVerbEnv(t)
	ctx := context.Background()
	mine, other := completedTag(t, e, "proofed"), completedTag(t, e, "unproofed")
	mineProofs, err := e.client("alice").QueryRaw(ctx, api.QueryListAppProofs, api.ListAppProofsRequest{OrganizationID: e.demo.Info.OrganizationID, ActivityID: mine.ID})
	if err != nil {
		t.Fatal(err)
	}
	hostile := e.demo.Rewriting(func(op string, request, reply []byte) []byte {
		if op == "query/"+api.QueryListAppProofs && bytes.Contains(request, []byte(other.ID)) {
			return mineProofs
		}
		return reply
	})
	dir := t.TempDir()
	cfg, _ := os.ReadFile(e.config)
	hostileConfig := filepath.Join(dir, "hostile.toml")
	os.WriteFile(hostileConfig, []byte(strings.ReplaceAll(string(cfg), e.demo.URL, hostile)), 0o600)
	viaHostile := func(args ...string) (int, string, string) {
		return runVigil(t, map[string]string{"VIGIL_CONFIG": hostileConfig}, "", args...)
	}

	code, out, errOut := viaHostile("activity", "proofs", other.ID)
	wantExit(t, "activity proofs of the moved proof", code, 1, out, errOut)
	if !strings.Contains(out, "✗ this proof is for activity "+mine.ID+" (CREATE_USER_TAG), not this one") ||
		!strings.Contains(errOut, "app proof #1 is not about this activity") {
		t.Errorf("moved proof:\nstdout:\n%s\nstderr:\n%s", out, errOut)
	}
	code, out, errOut = e.run("", "activity", "proofs", mine.ID)
	wantExit(t, "activity proofs of its own activity", code, 0, out, errOut)
	if !strings.Contains(out, "✓ the payload names this activity; its type, fingerprint, result hash match") {
		t.Errorf("own proof:\n%s", out)
	}

	// Offline: the proofs served for the other activity, its enclave's boot proof.
	code, out, errOut = viaHostile("activity", "proofs", "--json", other.ID)
	wantExit(t, "activity proofs --json", code, 0, out, errOut)
	proofs, boot, root := filepath.Join(dir, "proofs.json"), filepath.Join(dir, "boot.json"), filepath.Join(dir, "demo-root.pem")
	os.WriteFile(proofs, []byte(out), 0o600)
	os.WriteFile(root, e.demo.Info.DemoRootPEM, 0o600)
	code, out, errOut = e.run("", "proof", "fetch", "--app", "signer", "--root", root, "--out", boot)
	wantExit(t, "proof fetch", code, 0, out, errOut)

	verify := func(extra ...string) (int, string, string) {
		return e.run("", append([]string{"proof", "verify", "--boot-proof", boot, "--app-proofs", proofs, "--root", root}, extra...)...)
	}
	code, out, errOut = verify("--activity", other.ID)
	wantExit(t, "verify --activity of the other", code, 1, out, errOut)
	if !strings.Contains(out, "✓ app-proof[0] ") || !strings.Contains(out, "✗ app-proof[0].activity this proof is for activity "+mine.ID) ||
		!strings.Contains(out, "Verdict: FAILED") {
		t.Errorf("verify --activity of the other:\n%s", out)
	}
	code, out, errOut = verify("--activity", mine.ID)
	wantExit(t, "verify --activity of its own", code, 0, out, errOut)
	if !strings.Contains(out, "✓ app-proof[0].activity the payload names this activity") || !strings.Contains(out, "Verdict: VERIFIED") {
		t.Errorf("verify --activity of its own:\n%s", out)
	}
	// Without --activity nothing is bound, and the report says whose it is.
	code, out, errOut = verify()
	wantExit(t, "verify without --activity", code, 0, out, errOut)
	if !strings.Contains(out, "– app-proof[0].activity not compared: no activity given; the payload is about activity "+mine.ID) {
		t.Errorf("verify without --activity:\n%s", out)
	}
	code, _, errOut = runProof(t, "", "verify", "--boot-proof", boot, "--activity", mine.ID)
	if code != 2 || !strings.Contains(errOut, "--app-proofs") {
		t.Errorf("--activity without --app-proofs: exit %d %s", code, errOut)
	}
}

// `proof fetch --app signer` answered with policy-engine's genuine boot proof
// (a proxy swaps the reply) fails the app check; signer's own proof verifies,
// and with no pins the verdict says what it does not prove.
func TestProofFetchOfAnotherAppFails(t *testing.T) {
	e := newVerbEnv(t)
	engine, err := e.client("alice").QueryRaw(context.Background(), api.QueryGetLatestBootProof,
		api.GetLatestBootProofRequest{OrganizationID: e.demo.Info.OrganizationID, AppName: "policy-engine"})
	if err != nil {
		t.Fatal(err)
	}
	hostile := e.demo.Rewriting(func(op string, request, reply []byte) []byte {
		if op == "query/"+api.QueryGetLatestBootProof && bytes.Contains(request, []byte(`"appName":"signer"`)) {
			return engine
		}
		return reply
	})
	dir := t.TempDir()
	cfg, _ := os.ReadFile(e.config)
	hostileConfig, root := filepath.Join(dir, "hostile.toml"), filepath.Join(dir, "demo-root.pem")
	os.WriteFile(hostileConfig, []byte(strings.ReplaceAll(string(cfg), e.demo.URL, hostile)), 0o600)
	os.WriteFile(root, e.demo.Info.DemoRootPEM, 0o600)

	code, out, errOut := runVigil(t, map[string]string{"VIGIL_CONFIG": hostileConfig}, "", "proof", "fetch", "--app", "signer", "--root", root)
	wantExit(t, "fetch signer, served policy-engine's", code, 1, out, errOut)
	if !strings.Contains(out, `✗ app             this proof is for app "policy-engine", not "signer": the attested manifest namespace is "vigil local service/policy-engine"`) {
		t.Errorf("fetch signer, served policy-engine's:\n%s", out)
	}
	code, out, errOut = e.run("", "proof", "fetch", "--app", "signer", "--root", root)
	wantExit(t, "fetch signer", code, 0, out, errOut)
	if !strings.Contains(out, "Verdict: VERIFIED\n         no pins set: any enclave under this root would pass") || !strings.Contains(out, "✓ app ") {
		t.Errorf("fetch signer:\n%s", out)
	}
}
