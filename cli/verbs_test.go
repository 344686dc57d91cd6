package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/server"
	"github.com/vigil-console/vigil/server/servertest"
)

// verbEnv is a seeded local service and a config with one profile per demo
// member (alice, bob, carol: root; operator), for running verbs in-process.
type verbEnv struct {
	demo   *servertest.Demo
	config string
	t      *testing.T
}

func newVerbEnv(t *testing.T) *verbEnv {
	t.Helper()
	return newVerbEnvOn(t, nil)
}

// newVerbEnvOn is newVerbEnv on a service whose clock is now (nil: time.Now).
func newVerbEnvOn(t *testing.T, now func() time.Time) *verbEnv {
	t.Helper()
	return newVerbEnvWith(t, server.Config{Now: now})
}

// newVerbEnvWith is newVerbEnv on a service opened with cfg.
func newVerbEnvWith(t *testing.T, cfg server.Config) *verbEnv {
	t.Helper()
	demo := servertest.StartDemoWith(t, cfg)
	var b strings.Builder
	b.WriteString("default_profile = \"alice\"\n")
	for _, m := range demo.Info.Members {
		fmt.Fprintf(&b, "[profiles.%s]\nbase_url = %q\norganization_id = %q\nkey = %q\nkeys_dir = %q\ntls_fetcher_public_key = %q\n",
			m.Name, demo.URL, demo.Info.OrganizationID, m.KeyName, demo.KeysDir, demo.Info.TLSFetcherPublicKey)
	}
	b.WriteString("[profiles.readonly]\nread_only = true\n")
	fmt.Fprintf(&b, "base_url = %q\norganization_id = %q\nkey = \"alice\"\nkeys_dir = %q\n", demo.URL, demo.Info.OrganizationID, demo.KeysDir)
	path := filepath.Join(t.TempDir(), "config.toml")
	if err := os.WriteFile(path, []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	return &verbEnv{demo: demo, config: path, t: t}
}

// configVia writes the env's config with every profile's base_url turned from
// the service to url (a gateway in front of it) into path, which may be the
// env's config itself; it returns path.
func (e *verbEnv) configVia(url, path string) string {
	e.t.Helper()
	cfg, err := os.ReadFile(e.config)
	if err != nil {
		e.t.Fatal(err)
	}
	if err := os.WriteFile(path, bytes.ReplaceAll(cfg, []byte(e.demo.URL), []byte(url)), 0o600); err != nil {
		e.t.Fatal(err)
	}
	return path
}

// run runs vigil with VIGIL_CONFIG pointing at the env's config.
func (e *verbEnv) run(stdin string, args ...string) (int, string, string) {
	e.t.Helper()
	return runVigil(e.t, map[string]string{"VIGIL_CONFIG": e.config}, stdin, args...)
}

// runVigil runs the CLI in-process with the given environment.
func runVigil(t *testing.T, env map[string]string, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	c := proc{stdin: strings.NewReader(stdin), stdout: &out, stderr: &errOut, getenv: func(k string) string { return env[k] }}
	code := run(context.Background(), c, args)
	return code, out.String(), errOut.String()
}

// client is a typed client of the demo org as member, for checking effects.
func (e *verbEnv) client(member string) *api.Client { return e.demo.Client(member) }

func (e *verbEnv) userID(name string) string {
	for _, m := range e.demo.Info.Members {
		if m.Name == name {
			return m.UserID
		}
	}
	e.t.Fatalf("no demo member %s", name)
	return ""
}

// wantExit fails unless code is want, showing the output.
func wantExit(t *testing.T, what string, code, want int, out, errOut string) {
	t.Helper()
	if code != want {
		t.Fatalf("%s: exit %d, want %d\nstdout:\n%s\nstderr:\n%s", what, code, want, out, errOut)
	}
}

// activityIDFrom returns the id line of printActivity's output.
func activityIDFrom(t *testing.T, out string) string {
	t.Helper()
	for _, line := range strings.Split(out, "\n") {
		if rest, ok := strings.CutPrefix(line, "id:"); ok {
			return strings.TrimSpace(rest)
		}
	}
	t.Fatalf("no id line in:\n%s", out)
	return ""
}

func TestVerbsTakeProfileAndConfigFromFlagsOrEnvironment(t *testing.T) {
	e := newVerbEnv(t)
	whoami := func(env map[string]string, args ...string) string {
		t.Helper()
		body := `{"organizationId":"` + e.demo.Info.OrganizationID + `"}`
		code, out, errOut := runVigil(t, env, "", append(append([]string{"request"}, args...), "--path", "/public/v1/query/whoami", "--body", body)...)
		wantExit(t, "whoami", code, 0, out, errOut)
		var who api.WhoamiResponse
		if err := json.Unmarshal([]byte(out), &who); err != nil {
			t.Fatal(err)
		}
		return who.Username
	}
	if got := whoami(map[string]string{"VIGIL_CONFIG": e.config}); got != "alice" {
		t.Errorf("default_profile: %s", got)
	}
	if got := whoami(map[string]string{"VIGIL_CONFIG": e.config, "VIGIL_PROFILE": "bob"}); got != "bob" {
		t.Errorf("VIGIL_PROFILE=bob: %s", got)
	}
	if got := whoami(map[string]string{"VIGIL_CONFIG": e.config, "VIGIL_PROFILE": "bob"}, "--profile", "carol"); got != "carol" {
		t.Errorf("--profile wins over VIGIL_PROFILE: %s", got)
	}
	if got := whoami(map[string]string{"VIGIL_CONFIG": "/nonexistent/config.toml"}, "--config", e.config); got != "alice" {
		t.Errorf("--config wins over VIGIL_CONFIG: %s", got)
	}
	code, _, errOut := runVigil(t, map[string]string{"VIGIL_CONFIG": e.config}, "", "user", "list", "--profile", "mallory")
	if code != 1 || !strings.Contains(errOut, `no profile "mallory" (from --profile)`) {
		t.Errorf("unknown profile: exit %d %s", code, errOut)
	}
}

func TestEveryVerbHasHelpWithExamples(t *testing.T) {
	verbs := [][]string{
		{"request"}, {"activity", "list"}, {"activity", "get"}, {"activity", "approve"}, {"activity", "reject"},
		{"activity", "wait"}, {"activity", "evaluations"}, {"activity", "proofs"},
		{"policy", "list"}, {"policy", "get"}, {"policy", "create"}, {"policy", "check"},
		{"mfa", "list"}, {"mfa", "get"}, {"mfa", "create"}, {"mfa", "status"}, {"feature", "list"}, {"feature", "set"},
		{"user", "list"}, {"user", "get"}, {"apikey", "get"}, {"apikey", "delete"},
		{"invitation", "create"}, {"tag", "create"}, {"contract", "create"}, {"wallet-account", "delete"},
		{"oauth2-credential", "update"}, {"tvc-deployment", "delete"}, {"session", "create-read-only"}, {"onramp", "status"},
		{"webhook", "listen"}, {"webhook", "verify"}, {"webhook", "keys"}, {"login", "oauth"}, {"authproxy", "config"},
	}
	for _, v := range verbs {
		code, out, errOut := runVigil(t, nil, "", append(v, "-h")...)
		name := strings.Join(v, " ")
		if code != 0 || !strings.Contains(out, "Usage: vigil "+name) || !strings.Contains(out, "Examples:") || !strings.Contains(out, "vigil "+name+" ") {
			t.Errorf("vigil %s -h: exit %d, stderr %q\n%s", name, code, errOut, out)
		}
		if v[0] != "request" && !(v[0] == "policy" && v[1] == "check") && !strings.Contains(out, "-profile") {
			t.Errorf("vigil %s -h does not list --profile:\n%s", name, out)
		}
	}
	for _, group := range []string{"activity", "policy", "mfa", "feature", "user", "apikey", "invitation", "webhook", "login", "authproxy"} {
		if code, out, _ := runVigil(t, nil, "", group, "-h"); code != 0 || !strings.Contains(out, "Usage:") {
			t.Errorf("vigil %s -h: exit %d\n%s", group, code, out)
		}
	}
	if code, out, _ := runVigil(t, nil, "", "help"); code != 0 || !strings.Contains(out, "vigil activity list|get|approve") {
		t.Errorf("vigil help lacks the verb groups:\n%s", out)
	}
}

// countActivities is how many activities of type typ the service holds: a
// refused command must leave it unchanged. It fails the test when the count
// reaches a page, where one more activity would go unseen.
func (e *verbEnv) countActivities(t *testing.T, typ string) int {
	t.Helper()
	const page = 100
	acts, err := e.client("alice").ListActivities(context.Background(), api.ListActivitiesOptions{Types: []string{typ}, Limit: page})
	if err != nil {
		t.Fatal(err)
	}
	if len(acts) >= page {
		t.Fatalf("set-up: %d %s activities fill a page; the count could not see one more", len(acts), typ)
	}
	return len(acts)
}
