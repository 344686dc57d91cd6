package cli

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
)

// TestEveryInputFileFlagRefusesHostilePathsAlike runs every flag that reads
// a file named on the command line through the same paths that are not an
// input (a directory, a device, a symlink to an endless device, a missing
// file, a file or a pipe over the flag's size bound): each is a mistake in
// the command, so each exits 2 with a message saying what the path is and
// what to give instead; none hangs or reads an endless source to its end.
func TestEveryInputFileFlagRefusesHostilePathsAlike(t *testing.T) {
	e := newVerbEnv(t)
	dir := t.TempDir()
	write := func(name, content string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	body := write("body.json", `{"type":"x"}`)
	jwks := write("jwks.json", `{"keys":[]}`)
	boot := write("boot.json", `{}`)
	target := filepath.Join(dir, "carol.target")
	code, out, errOut := e.run("", "login", "oauth-nonce", "--target-key", target)
	wantExit(t, "login oauth-nonce", code, 0, out, errOut)
	zero := filepath.Join(dir, "zero")
	if err := os.Symlink("/dev/zero", zero); err != nil {
		t.Fatal(err)
	}
	urandom := filepath.Join(dir, "urandom")
	if err := os.Symlink("/dev/urandom", urandom); err != nil {
		t.Fatal(err)
	}
	// Over every flag's bound (the largest, a stamped body's, is 16 MiB).
	big := write("big", strings.Repeat("a", maxStampBody+1))

	// endless is a named pipe whose writer never stops nor closes it.
	endless := filepath.Join(dir, "endless")
	if err := syscall.Mkfifo(endless, 0o600); err != nil {
		t.Fatal(err)
	}
	w, err := os.OpenFile(endless, os.O_RDWR, 0) // Linux: opens without a reader
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.Close() })
	go func() {
		chunk := []byte(strings.Repeat("{", 64<<10))
		for {
			if _, err := w.Write(chunk); err != nil {
				return
			}
		}
	}()

	paths := []struct {
		name, path string
		says       []string // one of
	}{
		{"a directory", dir, []string{"is a directory"}},
		{"a device", "/dev/null", []string{"is a device"}},
		{"a symlink to /dev/zero", zero, []string{"is a device"}},
		{"a symlink to /dev/urandom", urandom, []string{"is a device"}},
		{"a missing file", filepath.Join(dir, "missing"), []string{"no such file"}},
		{"a file over the bound", big, []string{"is over", "is larger than"}},
		// --jwks takes no pipe (the file is read when the keys are needed).
		{"a pipe that never ends", endless, []string{"is over", "is larger than", "is a named pipe"}},
	}
	flags := []struct {
		name string
		args func(p string) []string
	}{
		{"request --body-file", func(p string) []string {
			return []string{"request", "--path", "/public/v1/query/whoami", "--body-file", p}
		}},
		{"stamp --body-file", func(p string) []string {
			return []string{"stamp", "--key", "alice", "--dir", e.demo.KeysDir, "--body-file", p}
		}},
		{"contract create --file", func(p string) []string {
			return []string{"contract", "create", "--address", "0xabc", "--type", "ethereum", "--label", "L", "--file", p}
		}},
		{"proof verify --boot-proof", func(p string) []string { return []string{"proof", "verify", "--boot-proof", p} }},
		{"proof verify --attestation", func(p string) []string { return []string{"proof", "verify", "--attestation", p} }},
		{"proof verify --root", func(p string) []string { return []string{"proof", "verify", "--boot-proof", boot, "--root", p} }},
		{"proof verify --expect-manifest-set", func(p string) []string {
			return []string{"proof", "verify", "--boot-proof", boot, "--expect-manifest-set", p}
		}},
		{"webhook verify --body", func(p string) []string {
			return []string{"webhook", "verify", "--jwks", jwks, "--organization", "o", "--header", "a: b", "--body", p}
		}},
		{"webhook verify --headers", func(p string) []string {
			return []string{"webhook", "verify", "--jwks", jwks, "--organization", "o", "--headers", p, "--body", body}
		}},
		{"webhook verify --jwks", func(p string) []string {
			return []string{"webhook", "verify", "--jwks", p, "--organization", "o", "--header", "a: b", "--body", body}
		}},
		{"keys import --file", func(p string) []string {
			return []string{"keys", "import", "--dir", t.TempDir(), "--scheme", "p256", "--file", p, "imported"}
		}},
		{"login oauth --provider-token", func(p string) []string {
			return []string{"login", "oauth", "--target-key", target, "--provider-token", p}
		}},
	}
	for _, f := range flags {
		for _, p := range paths {
			t.Run(f.name+"/"+p.name, func(t *testing.T) {
				code, out, errOut := e.run("", f.args(p.path)...)
				if code != exitUsage {
					t.Fatalf("exit %d, want %d (a usage mistake)\nstdout:\n%s\nstderr:\n%s", code, exitUsage, out, errOut)
				}
				says := slices.ContainsFunc(p.says, func(s string) bool { return strings.Contains(errOut, s) })
				advises := strings.Contains(errOut, "give") || strings.Contains(errOut, "trim")
				if !says || !advises {
					t.Errorf("stderr should say the path %s and what to give instead:\n%s", p.says[0], errOut)
				}
			})
		}
	}
}
