package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// vigil serve refuses a bad --data, --addr, --auth-proxy-addr or --oidc-org
// with exit 2 and a message naming the flag and what to give. It advised
// making a regular file "writable" as a data directory, stopping "what uses"
// an address without a port, linked a subject of an organization that does
// not exist as if the user were the fault, told a CLI user to "call
// TrustOIDCIssuer", and ignored --oidc-org alone.
func TestServeRefusesBadFlagValuesNamingTheFlag(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "notes.txt")
	if err := os.WriteFile(file, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args      []string
		want, not string
		// stopped runs serve already told to stop: were the value taken,
		// the service would otherwise serve until stopped.
		stopped bool
	}{
		{[]string{"--data", file}, "--data " + file + " is a file, not a directory; pass --data with a directory", "writable", false},
		{[]string{"--data", "/dev/zero"}, "--data /dev/zero is a file, not a directory", "writable", false},
		{[]string{"--data", filepath.Join(file, "sub")}, "is inside a file, not a directory", "writable", false},
		{[]string{"--addr", "\x1b[31m"}, `--addr "\x1b[31m" is not HOST:PORT`, "stop what uses it", false},
		{[]string{"--addr", "127.0.0.1"}, `--addr "127.0.0.1" is not HOST:PORT (missing port in address); give HOST:PORT`, "stop what uses it", false},
		{[]string{"--auth-proxy-addr", "localhost"}, `--auth-proxy-addr "localhost" is not HOST:PORT`, "stop what uses it", false},
		{[]string{"--addr", "127.0.0.1:99999"}, `--addr "127.0.0.1:99999": invalid port`, "stop what uses it", false},
		{[]string{"--oidc-org", "some-org"}, `--oidc-org "some-org" is given without --trust-oidc-issuer or --link-oidc-subject`, "", true},
		{[]string{"--demo", "--oidc-org", "no-such-org", "--link-oidc-subject", "local,s=alice"}, `--oidc-org "no-such-org" is not an organization of this service`, "is not a user", false},
		{[]string{"--demo", "--link-oidc-subject", "https://idp.example.com,s=alice"}, `trust it with --trust-oidc-issuer https://idp.example.com,AUDIENCE=JWKS_FILE`, "TrustOIDCIssuer", false},
	} {
		var out, errOut bytes.Buffer
		c := proc{stdin: strings.NewReader(""), stdout: &out, stderr: &errOut, getenv: func(string) string { return "" }}
		args := append([]string{"serve"}, tc.args...)
		for _, d := range [][2]string{{"--data", t.TempDir()}, {"--addr", "127.0.0.1:0"}, {"--auth-proxy-addr", "127.0.0.1:0"}} {
			if !slices.Contains(tc.args, d[0]) {
				args = append(args, d[0], d[1])
			}
		}
		ctx, stop := context.WithCancel(context.Background())
		if tc.stopped {
			stop()
		}
		code := run(ctx, c, args)
		stop()
		if code != 2 || !strings.Contains(errOut.String(), tc.want) || tc.not != "" && strings.Contains(errOut.String(), tc.not) {
			t.Errorf("serve %q: exit %d, stderr %q; want 2 and %q", tc.args, code, errOut.String(), tc.want)
		}
	}
}

// vigil demo refuses a --data that is a file as serve does, before it asks
// for a terminal.
func TestDemoRefusesADataFile(t *testing.T) {
	file := filepath.Join(t.TempDir(), "notes.txt")
	if err := os.WriteFile(file, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runVigil(t, nil, "", "demo", "--data", file)
	wantExit(t, "demo --data FILE", code, 2, out, errOut)
	if !strings.Contains(errOut, "demo: --data "+file+" is a file, not a directory") {
		t.Errorf("stderr %q; want --data named a file", errOut)
	}
}
