package cli

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
)

func TestVersionHelpAndArguments(t *testing.T) {
	code, out, errOut := runCLI(t, t.TempDir(), "", "version", "-h")
	if code != 0 || !strings.Contains(out, "Usage: vigil version") || errOut != "" {
		t.Fatalf("version -h: exit %d, stdout %q, stderr %q; want its help on stdout, exit 0", code, out, errOut)
	}
	code, out, _ = runCLI(t, t.TempDir(), "", "version")
	if code != 0 || !strings.HasPrefix(out, "vigil ") {
		t.Fatalf("version: exit %d, %q", code, out)
	}
	code, _, errOut = runCLI(t, t.TempDir(), "", "version", "extra")
	if code != 2 || !strings.Contains(errOut, "takes no arguments") {
		t.Fatalf("version extra: exit %d, %q; want a usage error", code, errOut)
	}
}

// An unknown flag before any command is the console's; the error must point at a
// command the top-level usage lists, so the user can find the flags.
func TestUnknownTopLevelFlagNamesAListedCommand(t *testing.T) {
	code, _, errOut := runCLI(t, t.TempDir(), "", "--bogus")
	if code != 2 {
		t.Fatalf("--bogus: exit %d, want 2", code)
	}
	if !strings.Contains(errOut, "-bogus") || !strings.Contains(errOut, "'vigil console -h'") {
		t.Fatalf("--bogus: %q; want the flag named and 'vigil console -h'", errOut)
	}
	_, usage, _ := runCLI(t, t.TempDir(), "", "help")
	if !strings.Contains(usage, "vigil [console]") {
		t.Fatalf("the usage does not list the console command the error points at:\n%s", usage)
	}
	code, _, errOut = runCLI(t, t.TempDir(), "", "bogus")
	if code != 2 || !strings.Contains(errOut, "'vigil help'") {
		t.Fatalf("bogus: exit %d, %q", code, errOut)
	}
}

// A --config that does not exist gets the same first-run help as no config at all.
func TestMissingConfigSameHelpEitherWay(t *testing.T) {
	xdg := t.TempDir()
	_, _, implicit := runCLI(t, xdg, "")
	missing := filepath.Join(t.TempDir(), "missing.toml")
	code, _, explicit := runCLI(t, xdg, "", "--config", missing)
	if code != 1 {
		t.Fatalf("--config missing: exit %d, want 1", code)
	}
	for name, msg := range map[string]string{"default path": implicit, "--config": explicit} {
		for _, want := range []string{"no config file at", "vigil demo", "vigil keys generate", "--config FILE"} {
			if !strings.Contains(msg, want) {
				t.Errorf("%s: message lacks %q:\n%s", name, want, msg)
			}
		}
	}
	if !strings.Contains(explicit, missing) {
		t.Errorf("--config: the message does not name %s:\n%s", missing, explicit)
	}
}

// $VIGIL_CONFIG is read wherever a profile is loaded, the console included.
func TestVigilConfigChoosesTheFileForEveryCommand(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "from-env.toml")
	env := map[string]string{"XDG_CONFIG_HOME": t.TempDir(), "VIGIL_CONFIG": missing}
	for _, args := range [][]string{nil, {"activity", "list"}, {"proof", "fetch", "--app", "signer"}} {
		var out, errOut strings.Builder
		c := proc{stdin: strings.NewReader(""), stdout: &out, stderr: &errOut, getenv: func(k string) string { return env[k] }}
		if code := run(context.Background(), c, args); code != 1 || !strings.Contains(errOut.String(), "no config file at "+missing) {
			t.Errorf("vigil %v: exit %d, %q; want the help naming $VIGIL_CONFIG's file", args, code, errOut.String())
		}
	}
}
