package cli

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/keys"
)

const fixtureBootProof = proofFixtures + "turnkey_boot_proof_1.json"

// fixtureContent is the production fixture's pivot hash and manifest set as
// 'proof verify --json' prints them, the manifest set saved to a file: the
// way an operator pins them from a proof verified once.
func fixtureContent(t *testing.T) (pivot, setFile string, members []string) {
	t.Helper()
	code, out, errOut := runProof(t, "", "verify", "--json", "--boot-proof", fixtureBootProof)
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, errOut)
	}
	var rep struct {
		Manifest struct {
			Pivot       struct{ Hash string }
			ManifestSet json.RawMessage
		}
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	var set struct {
		Members []struct{ PubKey string }
	}
	if err := json.Unmarshal(rep.Manifest.ManifestSet, &set); err != nil || len(set.Members) != 2 {
		t.Fatalf("manifest set %s: %v", rep.Manifest.ManifestSet, err)
	}
	for _, m := range set.Members {
		members = append(members, m.PubKey)
	}
	setFile = filepath.Join(t.TempDir(), "set.json")
	if err := os.WriteFile(setFile, rep.Manifest.ManifestSet, 0o600); err != nil {
		t.Fatal(err)
	}
	return rep.Manifest.Pivot.Hash, setFile, members
}

// The pivot hash and the manifest set pinned (no manifest hash) satisfy
// --require-pinned, from a file or inline, and --json lists each pin; a wrong
// pivot fails naming it, and the pivot alone keeps a caveat.
func TestProofVerifyContentPins(t *testing.T) {
	pivot, setFile, members := fixtureContent(t)
	verify := func(extra ...string) (int, string, string) {
		return runProof(t, "", append([]string{"verify", "--boot-proof", fixtureBootProof}, extra...)...)
	}
	for _, set := range []string{setFile, "2:" + strings.Join(members, ",")} {
		code, out, errOut := verify("--expect-pivot", pivot, "--expect-manifest-set", set, "--require-pinned")
		if code != 0 || !strings.Contains(out, "✓ pins") || !strings.Contains(out, "pivot-hash, manifest-set match") || strings.Contains(out, "caveat") || strings.Contains(out, "pins only") {
			t.Errorf("--expect-manifest-set %.20s…: exit %d\n%s\n%s", set, code, out, errOut)
		}
	}
	code, out, _ := verify("--json", "--expect-pivot", pivot, "--expect-manifest-set", setFile)
	var rep struct {
		Caveat string
		Pins   []struct{ Pin, Status string }
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil || code != 0 {
		t.Fatalf("--json: exit %d, %v\n%s", code, err, out)
	}
	if len(rep.Pins) != 2 || rep.Pins[0].Pin != "pivot-hash" || rep.Pins[0].Status != "pass" || rep.Pins[1].Pin != "manifest-set" || rep.Caveat != "" {
		t.Errorf("--json pins %+v caveat %q", rep.Pins, rep.Caveat)
	}

	wrong := strings.Repeat("0", 64)
	code, out, errOut := verify("--expect-pivot", wrong, "--expect-manifest-set", setFile)
	if code != 1 || !strings.Contains(out, "✗ pins") || !strings.Contains(out, "pivot hash "+pivot+" (the app binary) is not among the 1 pinned") {
		t.Errorf("wrong pivot: exit %d\n%s\n%s", code, out, errOut)
	}
	code, out, errOut = verify("--expect-pivot", pivot, "--require-pinned")
	if code != 1 || !strings.Contains(out, "partial pins") || !strings.Contains(errOut, "VERIFIED with a caveat (--require-pinned): partial pins") {
		t.Errorf("pivot only, --require-pinned: exit %d\n%s\n%s", code, out, errOut)
	}
}

// Bad pin values are usage errors that say what to give.
func TestProofContentPinFlagsRefused(t *testing.T) {
	key := "04" + strings.Repeat("ab", 129)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--expect-pivot", "abcd"}, "--expect-pivot \"abcd\": must be 64 hex digits"},
		{[]string{"--expect-quorum-key", "zz"}, "--expect-quorum-key: must be 260 hex digits"},
		{[]string{"--expect-manifest-set", "2:" + key}, "--expect-manifest-set: threshold: is 2; give the fewest approvals the manifest set must require, from 1 to the 1 members"},
		{[]string{"--expect-manifest-set", "1:" + key + "," + key}, "--expect-manifest-set: members: entries 1 and 2 are the same key"},
		{[]string{"--expect-manifest-set", "1:04ab"}, "--expect-manifest-set: members: entry 1 must be 260 hex digits"},
		{[]string{"--expect-manifest-set", fixtureBootProof}, "is not a manifest set as --json prints it"},
	} {
		code, _, errOut := runProof(t, "", append([]string{"verify", "--boot-proof", fixtureBootProof}, tc.args...)...)
		if code != 2 || !strings.Contains(errOut, tc.want) {
			t.Errorf("%v: exit %d, %s; want exit 2 saying %q", tc.args, code, errOut, tc.want)
		}
	}
}

// proofService is a stand-in service that serves the production fixture as
// every app's latest boot proof, and a profile for it with extra keys.
func proofService(t *testing.T) func(profileExtra string) string {
	t.Helper()
	fixture, err := os.ReadFile(fixtureBootProof)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/public/v1/query/get_latest_boot_proof" || r.Header.Get("X-Stamp") == "" {
			http.Error(w, `{"code":5,"message":"not found"}`, http.StatusNotFound)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Write(fixture)
	}))
	t.Cleanup(srv.Close)
	dir := t.TempDir()
	keysDir := filepath.Join(dir, "keys")
	if _, err := (keys.Store{Dir: keysDir}).Generate("k", keys.SchemeP256); err != nil {
		t.Fatal(err)
	}
	return func(extra string) string {
		cfg := filepath.Join(dir, "config.toml")
		text := "[profiles.t]\nbase_url = \"" + srv.URL + "\"\norganization_id = \"org-1\"\nkey = \"k\"\nkeys_dir = \"" + keysDir + "\"\n" + extra
		if err := os.WriteFile(cfg, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
		return cfg
	}
}

// The profile's expected_pivot_hashes and expected_manifest_sets pin the app
// as --allow-manifest does: proof fetch --require-pinned exits 0, and a
// wrong pinned pivot fails.
func TestProofFetchProfileContentPins(t *testing.T) {
	pivot, _, members := fixtureContent(t)
	config := proofService(t)
	set := "[profiles.t.expected_manifest_sets.signer]\nthreshold = 2\nmembers = [\"" + strings.Join(members, "\", \"") + "\"]\n"
	cfg := config("[profiles.t.expected_pivot_hashes]\nsigner = [\"" + pivot + "\"]\n" + set)
	code, out, errOut := runProof(t, "", "fetch", "--app", "signer", "--config", cfg, "--require-pinned")
	if code != 0 || !strings.Contains(out, "✓ pins") || !strings.Contains(out, "pivot-hash, manifest-set match") {
		t.Errorf("profile pins: exit %d\n%s\n%s", code, out, errOut)
	}
	cfg = config("[profiles.t.expected_pivot_hashes]\nsigner = [\"" + strings.Repeat("1", 64) + "\"]\n" + set)
	code, out, errOut = runProof(t, "", "fetch", "--app", "signer", "--config", cfg)
	if code != 1 || !strings.Contains(out, "pivot hash "+pivot+" (the app binary) is not among the 1 pinned") {
		t.Errorf("wrong profile pivot: exit %d\n%s\n%s", code, out, errOut)
	}
}
