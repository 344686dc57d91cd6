package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// TestMain removes the vigil binary the tests that run it as a process
// shared (vigilBinary).
func TestMain(m *testing.M) {
	if role := os.Getenv(testRoleEnv); role != "" {
		// This binary started by a test to play a part (playTestRole), not to test.
		os.Exit(playTestRole(role))
	}
	code := m.Run()
	if dir, err := vigilBinaryDir(); err == nil && dir != "" {
		os.RemoveAll(dir)
	}
	os.Exit(code)
}

// testRoleEnv names the part a test started this test binary to play
// (playTestRole).
const testRoleEnv = "VIGIL_CLI_TEST_ROLE"

// childEnv is the environment for a process a test starts: this one's
// without any VIGIL_ variable, then set. A VIGIL_PROFILE or VIGIL_CONFIG
// exported in the shell that runs the tests would otherwise choose the
// child's profile (a name the test's config lacks: "no profile").
func childEnv(set ...string) []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "VIGIL_") {
			env = append(env, kv)
		}
	}
	return append(env, set...)
}

// runChild is cmd.Run, started by startChild.
func runChild(cmd *exec.Cmd) error {
	if err := startChild(cmd); err != nil {
		return err
	}
	return cmd.Wait()
}

// vigilBinaryDir makes the directory of the built binary, once: it outlives
// any one test, so TestMain removes it.
var vigilBinaryDir = sync.OnceValues(func() (string, error) {
	return os.MkdirTemp("", "vigil-cli-test-")
})

// buildVigil builds the vigil binary once for the package: each test that
// runs it as a process would otherwise spend seconds on the same go build.
var buildVigil = sync.OnceValues(func() (string, error) {
	dir, err := vigilBinaryDir()
	if err != nil {
		return "", err
	}
	bin := filepath.Join(dir, "vigil")
	if out, err := exec.Command("go", "build", "-o", bin, "..").CombinedOutput(); err != nil {
		return "", &buildError{err: err, out: string(out)}
	}
	return bin, nil
})

type buildError struct {
	err error
	out string
}

func (e *buildError) Error() string { return "go build: " + e.err.Error() + "\n" + e.out }

// vigilBinary is the built vigil binary, failing t if it does not build.
func vigilBinary(t *testing.T) string {
	t.Helper()
	bin, err := buildVigil()
	if err != nil {
		t.Fatal(err)
	}
	return bin
}
