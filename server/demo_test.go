package server

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/keys"
	"github.com/vigil-console/vigil/proof"
)

func TestSeedDemo(t *testing.T) {
	srv, err := Open(Config{})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	hs := httptest.NewServer(srv.Handler())
	defer hs.Close()
	ctx := context.Background()
	keysDir := t.TempDir()
	info, err := SeedDemo(ctx, srv, keysDir)
	if err != nil {
		t.Fatal(err)
	}
	again, err := SeedDemo(ctx, srv, t.TempDir())
	if err != nil || again.OrganizationID != info.OrganizationID || len(again.Members) != 4 {
		t.Fatalf("second seed: %v %+v", err, again)
	}
	clients := map[string]*api.Client{}
	for _, m := range info.Members {
		k, err := keys.Store{Dir: keysDir}.Load(m.KeyName)
		if err != nil {
			t.Fatal(err)
		}
		clients[m.Name], _ = api.NewClient(hs.URL, info.OrganizationID, k)
		who, err := clients[m.Name].Whoami(ctx)
		if err != nil || who.UserID != m.UserID {
			t.Fatalf("%s: %v %+v", m.Name, err, who)
		}
	}
	acts, err := clients["alice"].ListActivities(ctx, api.ListActivitiesOptions{Limit: 100})
	if err != nil {
		t.Fatal(err)
	}
	byStatus := map[string]int{}
	startedBy := map[string]bool{}
	for _, a := range acts {
		byStatus[a.Status]++
		if a.Status == api.StatusConsensusNeeded {
			startedBy[a.Votes[0].UserID] = true
		}
	}
	if byStatus[api.StatusConsensusNeeded] < 3 || byStatus[api.StatusCompleted] < 2 || byStatus[api.StatusFailed] < 2 || byStatus[api.StatusRejected] < 1 {
		t.Fatalf("activities by status: %v", byStatus)
	}
	// docs/local-service.md promises a completed activity with app proofs.
	withProofs := 0
	for _, a := range acts {
		if a.Status == api.StatusCompleted && len(a.AppProofs) > 0 {
			withProofs++
			listed, err := clients["alice"].ListAppProofs(ctx, a.ID)
			if err != nil || len(listed) != len(a.AppProofs) || listed[0] != a.AppProofs[0] {
				t.Fatalf("app proofs of %s: record %+v, listed %+v, %v", a.ID, a.AppProofs, listed, err)
			}
		}
	}
	if withProofs == 0 {
		t.Fatal("no completed demo activity carries app proofs")
	}
	if !startedBy[info.Members[1].UserID] || !startedBy[info.Members[2].UserID] {
		t.Fatal("pending activities are not started by bob and carol")
	}
	// alice can vote on some of them: the console has something to do.
	canVote := 0
	for _, a := range acts {
		if a.CanApprove {
			canVote++
		}
	}
	if canVote < 3 {
		t.Fatalf("alice can vote on %d activities", canVote)
	}
	for _, app := range info.EnclaveApps {
		bp, err := clients["bob"].GetLatestBootProof(ctx, app)
		if err != nil || bp.EnclaveApp != app {
			t.Fatalf("boot proof of %s: %v", app, err)
		}
	}
	if pols, _ := clients["carol"].ListPolicies(ctx); len(pols) < 3 {
		t.Fatalf("%d policies", len(pols))
	}
	if mfa := allMfaPolicies(t, clients["carol"]); len(mfa) < 3 {
		t.Fatalf("%d MFA policies", len(mfa))
	}
	if st, err := clients["operator"].GetOnrampTransactionStatus(ctx, "onramp-demo-1", false); err != nil || st != "PENDING" {
		t.Fatalf("on-ramp: %q %v", st, err)
	}
	roots, err := proof.ParseRootsPEM("demo", info.DemoRootPEM)
	if err != nil || len(roots) != 1 {
		t.Fatalf("demo root PEM: %v", err)
	}
	for _, app := range info.EnclaveApps {
		bp, _ := clients["alice"].GetLatestBootProof(ctx, app)
		if rep := proof.VerifyBootProof(*bp, proof.Options{Roots: roots}); len(rep.FailedChecks()) > 0 {
			t.Fatalf("boot proof of %s fails %v", app, rep.FailedChecks())
		}
	}
}

// TestDemoRequestsPredateTheSeeding: every request the demo seeds is
// timestamped before the seeding began. Timestamped after it, a user's own
// request sent in the same millisecond with the same parameters (deleting the
// operator's old key, as the demo's bob proposes) had the same body, hence the
// same fingerprint, and counted as a vote on the demo's activity instead of a
// new one.
func TestDemoRequestsPredateTheSeeding(t *testing.T) {
	srv, err := Open(Config{})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	start := srv.now().UnixMilli()
	ctx := context.Background()
	if _, err := SeedDemo(ctx, srv, t.TempDir()); err != nil {
		t.Fatal(err)
	}
	rows, err := srv.db.read.QueryContext(ctx, `SELECT body FROM activities`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	n := 0
	for rows.Next() {
		var body []byte
		var req struct {
			TimestampMs string `json:"timestampMs"`
		}
		if err := rows.Scan(&body); err != nil || json.Unmarshal(body, &req) != nil {
			t.Fatalf("body %s: %v", body, err)
		}
		if ts, err := strconv.ParseInt(req.TimestampMs, 10, 64); err != nil || ts >= start {
			t.Errorf("a demo request timestamped %s, not before the seeding began (%d): %s", req.TimestampMs, start, body)
		}
		n++
	}
	if n < 10 {
		t.Fatalf("only %d demo activities", n)
	}
}

// A key file of a demo member's name that the demo did not write is kept,
// and the error says so and what to do: another name will not do for alice.
func TestSeedDemoKeepsAKeyItDidNotWrite(t *testing.T) {
	srv, err := Open(Config{})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	ctx := context.Background()
	keysDir := t.TempDir()
	if _, err := SeedDemo(ctx, srv, keysDir); err != nil {
		t.Fatal(err)
	}
	store := keys.Store{Dir: keysDir}
	demoKey, err := store.Load("alice")
	if err != nil {
		t.Fatal(err)
	}
	priv, pub, _ := store.Paths("alice")
	other, err := keys.Generate(keys.SchemeP256)
	if err != nil {
		t.Fatal(err)
	}
	// The audit's repro: alice.private replaced by another key.
	if err := os.WriteFile(priv, []byte(other.PrivateKeyHex()+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err = SeedDemo(ctx, srv, keysDir)
	want := "seed demo: " + priv + " is not the demo's key for alice; move it away (it is kept) or use another --data"
	if err == nil || err.Error() != want {
		t.Fatalf("seed over another key:\n got %v\nwant %s", err, want)
	}
	if b, _ := os.ReadFile(priv); string(b) != other.PrivateKeyHex()+"\n" {
		t.Fatalf("%s was changed", priv)
	}
	// Moving that file away is enough: the demo's own .public and .scheme
	// left beside it do not stand in the way.
	if err := os.Rename(priv, filepath.Join(t.TempDir(), "mine.private")); err != nil {
		t.Fatal(err)
	}
	if _, err := SeedDemo(ctx, srv, keysDir); err != nil {
		t.Fatalf("seed once the other key is moved away: %v", err)
	}
	if k, err := store.Load("alice"); err != nil || k.PrivateKeyHex() != demoKey.PrivateKeyHex() {
		t.Fatalf("alice's key after the reseed: %v", err)
	}

	// The demo's own key with a .public file that does not match it: the
	// error says what is wrong with it.
	os.Remove(pub)
	os.WriteFile(pub, []byte(other.PublicKeyHex()+"\n"), 0o644)
	_, err = SeedDemo(ctx, srv, keysDir)
	if err == nil || !strings.Contains(err.Error(), "the demo's key for alice does not load: ") ||
		!strings.Contains(err.Error(), pub+" does not match its private key") {
		t.Fatalf("seed over a mismatched .public: %v", err)
	}
	// Another key's .public without a .private file is in the way.
	os.Remove(priv)
	_, err = SeedDemo(ctx, srv, keysDir)
	if want := "seed demo: " + pub + " is in the way of the demo's key for alice; move it away (it is kept) or use another --data"; err == nil || err.Error() != want {
		t.Fatalf("seed over a stray .public:\n got %v\nwant %s", err, want)
	}
	if b, _ := os.ReadFile(pub); string(b) != other.PublicKeyHex()+"\n" {
		t.Fatalf("%s was changed", pub)
	}
}
