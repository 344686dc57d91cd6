package cli

import (
	"context"
	"os"
	"strings"
	"testing"
)

// A relative XDG_DATA_HOME or HOME is ignored, as the XDG spec says and the
// config and keys directories do: it would put the service's state under the
// directory vigil was started from.
func TestServeDefaultDataDirIgnoresRelativeBases(t *testing.T) {
	for _, tc := range []struct {
		xdg, home, want string
	}{
		{"/data", "/home/u", "/data/vigil/server"},
		{"rel", "/home/u", "/home/u/.local/share/vigil/server"},
		{"", "/home/u", "/home/u/.local/share/vigil/server"},
		{"rel", "home", ""},
		{"", "", ""},
	} {
		env := map[string]string{"XDG_DATA_HOME": tc.xdg, "HOME": tc.home}
		if got := defaultServerDataDir(func(k string) string { return env[k] }); got != tc.want {
			t.Errorf("XDG_DATA_HOME=%q HOME=%q: data dir %q, want %q", tc.xdg, tc.home, got, tc.want)
		}
	}
}

// With no absolute base left, serve writes nothing under the working
// directory and asks for --data.
func TestServeWithOnlyRelativeBasesAsksForData(t *testing.T) {
	cwd := t.TempDir()
	t.Chdir(cwd)
	env := map[string]string{"XDG_DATA_HOME": "rel", "HOME": "home"}
	var errOut strings.Builder
	c := proc{stdin: strings.NewReader(""), stdout: &strings.Builder{}, stderr: &errOut, getenv: func(k string) string { return env[k] }}
	addr, proxyAddr := freeAddrPair(t)
	// Cancelled: a service that did start would stop at once.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	code := run(ctx, c, []string{"serve", "--addr", addr, "--auth-proxy-addr", proxyAddr})
	if code != 2 || !strings.Contains(errOut.String(), "absolute path") || !strings.Contains(errOut.String(), "pass --data DIR") {
		t.Errorf("serve with XDG_DATA_HOME=rel HOME=home: exit %d, stderr %q; want 2 saying no absolute base and to pass --data DIR", code, errOut.String())
	}
	if entries, err := os.ReadDir(cwd); err != nil || len(entries) > 0 {
		t.Errorf("working directory after serve: %v %v; want it left empty", entries, err)
	}
}
