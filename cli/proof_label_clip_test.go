package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/proof"
)

// The boot proof's labels are the service's alone (not attested): `proof
// fetch` prints each for people clipped and sanitized, so a long one does not
// bury the report, and keeps them whole and exact in --json. The proof itself
// is genuine and still verifies.
func TestProofFetchClipsTheServiceLabelsForPeople(t *testing.T) {
	e := newVerbEnv(t)
	label := "\u202e\x1b[2J" + strings.Repeat("Lxxxxxx ", 128<<10)
	hostile := e.demo.Rewriting(func(op string, request, reply []byte) []byte {
		if op != "query/"+api.QueryGetLatestBootProof || !bytes.Contains(request, []byte(`"appName":"signer"`)) {
			return reply
		}
		var r map[string]map[string]any
		if err := json.Unmarshal(reply, &r); err != nil || r["bootProof"] == nil {
			return reply
		}
		r["bootProof"]["deploymentLabel"] = label
		r["bootProof"]["owner"] = label
		out, err := json.Marshal(r)
		if err != nil {
			return reply
		}
		return out
	})
	dir := t.TempDir()
	cfg, _ := os.ReadFile(e.config)
	hostileConfig, root := filepath.Join(dir, "hostile.toml"), filepath.Join(dir, "demo-root.pem")
	os.WriteFile(hostileConfig, []byte(strings.ReplaceAll(string(cfg), e.demo.URL, hostile)), 0o600)
	os.WriteFile(root, e.demo.Info.DemoRootPEM, 0o600)
	env := map[string]string{"VIGIL_CONFIG": hostileConfig}

	code, out, errOut := runVigil(t, env, "", "proof", "fetch", "--app", "signer", "--root", root)
	wantExit(t, "fetch signer with long labels", code, 0, out, errOut)
	if !strings.Contains(out, "Verdict: VERIFIED") {
		t.Fatalf("a genuine proof with long unattested labels:\n%.2000s", out)
	}
	for _, field := range []string{"  owner:            ", "  deployment label: "} {
		i := strings.Index(out, "\n"+field)
		if i < 0 {
			t.Fatalf("no %q line:\n%.2000s", field, out)
		}
		line, _, _ := strings.Cut(out[i+1:], "\n")
		value := strings.TrimPrefix(line, field)
		if !strings.HasPrefix(value, `\u202e\u001b[2JLxxxxxx `) || !strings.HasSuffix(value, "…") || len(value) > proof.MaxShownConfig+32 {
			t.Errorf("the label is printed %d bytes long (%.80q…); want it sanitized and clipped to about %d bytes", len(value), value, proof.MaxShownConfig)
		}
	}

	code, out, errOut = runVigil(t, env, "", "proof", "fetch", "--app", "signer", "--root", root, "--json")
	wantExit(t, "fetch signer --json with long labels", code, 0, out, errOut)
	var got struct {
		BootProof struct{ Owner, DeploymentLabel string }
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("--json: %v", err)
	}
	if got.BootProof.Owner != label || got.BootProof.DeploymentLabel != label {
		t.Errorf("--json does not keep the labels whole: %d and %d bytes, want %d", len(got.BootProof.Owner), len(got.BootProof.DeploymentLabel), len(label))
	}
}
