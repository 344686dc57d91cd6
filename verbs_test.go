package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
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
	demo := servertest.StartDemo(t)
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

// run runs vigil with VIGIL_CONFIG pointing at the env's config.
func (e *verbEnv) run(stdin string, args ...string) (int, string, string) {
	e.t.Helper()
	return runVigil(e.t, map[string]string{"VIGIL_CONFIG": e.config}, stdin, args...)
}

// runVigil runs the CLI in-process with the given environment.
func runVigil(t *testing.T, env map[string]string, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	c := cli{stdin: strings.NewReader(stdin), stdout: &out, stderr: &errOut, getenv: func(k string) string { return env[k] }}
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
