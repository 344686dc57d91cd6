package cli

import (
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/vigil-console/vigil/api"
)

// proof fetch --out DIR, a directory, is a usage mistake said before the
// fetch (exit 2, nothing asked of the service): it was refused only after
// the proof was fetched and verified (exit 1). A directory that appears at
// --out while the fetch is under way is still refused by the write, and
// left as it was.
func TestProofFetchOutDirectoryIsRefusedBeforeFetching(t *testing.T) {
	e := newVerbEnv(t)
	var fetches atomic.Int32
	dir := t.TempDir()
	appears := filepath.Join(dir, "appears")
	counting := e.demo.Rewriting(func(op string, request, reply []byte) []byte {
		if op == "query/"+api.QueryGetLatestBootProof {
			if fetches.Add(1) == 2 {
				if err := os.Mkdir(appears, 0o700); err != nil {
					t.Error(err)
				}
			}
		}
		return reply
	})
	cfg, err := os.ReadFile(e.config)
	if err != nil {
		t.Fatal(err)
	}
	config, root := filepath.Join(dir, "counting.toml"), filepath.Join(dir, "demo-root.pem")
	if err := os.WriteFile(config, []byte(strings.ReplaceAll(string(cfg), e.demo.URL, counting)), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(root, e.demo.Info.DemoRootPEM, 0o600); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"VIGIL_CONFIG": config}

	outDir := filepath.Join(dir, "proofs")
	if err := os.Mkdir(outDir, 0o700); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runVigil(t, env, "", "proof", "fetch", "--app", "signer", "--root", root, "--out", outDir)
	wantExit(t, "proof fetch --out DIR", code, exitUsage, out, errOut)
	if !strings.Contains(errOut, "--out "+outDir+" is a directory") || !strings.Contains(errOut, "give a file name in it") {
		t.Errorf("the refusal does not name --out and what to do: %q", errOut)
	}
	if n := fetches.Load(); n != 0 {
		t.Errorf("--out DIR: the proof was fetched %d times before the refusal", n)
	}

	// The second fetch makes a directory at --out before its reply returns.
	fetches.Store(1)
	code, out, errOut = runVigil(t, env, "", "proof", "fetch", "--app", "signer", "--root", root, "--out", appears)
	wantExit(t, "proof fetch --out, a directory appearing during the fetch", code, 1, out, errOut)
	if !strings.Contains(errOut, "is a directory") {
		t.Errorf("a directory appearing at --out during the fetch: %q", errOut)
	}
	if entries, err := os.ReadDir(appears); err != nil || len(entries) != 0 {
		t.Errorf("the directory that appeared was written into or replaced: %v, %v", entries, err)
	}
}
