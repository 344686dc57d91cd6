package cli

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/vigil-console/vigil/api"
)

// fullStdout is a standard output that refuses every write, as /dev/full
// (ENOSPC) does.
type fullStdout struct{}

func (fullStdout) Write([]byte) (int, error) { return 0, syscall.ENOSPC }

func runWithFullStdout(env map[string]string, args ...string) (int, string) {
	var errOut bytes.Buffer
	c := proc{stdin: strings.NewReader(""), stdout: fullStdout{}, stderr: &errOut, getenv: func(k string) string { return env[k] }}
	return run(context.Background(), c, args), errOut.String()
}

// lastTagActivity is the newest create-user-tag activity, failing t unless
// it is the one that made the tag name.
func (e *verbEnv) lastTagActivity(t *testing.T, name string) api.Activity {
	t.Helper()
	acts, err := e.client("alice").ListActivities(context.Background(), api.ListActivitiesOptions{Limit: 1, Types: []string{api.TypeCreateUserTag}})
	if err != nil {
		t.Fatal(err)
	}
	if len(acts) == 0 || acts[0].Intent.CreateUserTagIntent == nil || acts[0].Intent.CreateUserTagIntent.UserTagName != name {
		t.Fatalf("set-up: the submit of tag %q should have been recorded: %+v", name, acts)
	}
	return acts[0]
}

// A submit the service recorded whose printing fails must not exit 1 ("safe
// to run again": a script would make a second activity), and standard error,
// the only place left, names the activity.
func TestSubmitRecordedButStdoutFullNamesTheActivity(t *testing.T) {
	e := newVerbEnv(t)
	for _, args := range [][]string{
		{"tag", "create", "--name", "full-plain"},
		{"tag", "create", "--json", "--name", "full-json"},
		{"request", "--path", "/public/v1/submit/create_user_tag", "--body",
			`{"type":"ACTIVITY_TYPE_CREATE_USER_TAG","timestampMs":"` + strconv.FormatInt(time.Now().UnixMilli(), 10) +
				`","organizationId":"` + e.demo.Info.OrganizationID + `","parameters":{"userTagName":"full-raw","userIds":[]}}`},
	} {
		code, errOut := runWithFullStdout(map[string]string{"VIGIL_CONFIG": e.config}, args...)
		name := "full-raw"
		if args[0] == "tag" {
			name = args[len(args)-1]
		}
		a := e.lastTagActivity(t, name)
		if code != exitOutcomeUnknown {
			t.Errorf("%v: the activity %s (%s) was recorded, yet exit %d, want %d (look first)", args, a.ID, a.Status, code, exitOutcomeUnknown)
		}
		if !strings.Contains(errOut, a.ID) || !strings.Contains(errOut, "recorded") || !strings.Contains(errOut, "no space left") {
			t.Errorf("%v: stderr should name the recorded activity %s and why printing failed:\n%s", args, a.ID, errOut)
		}
	}
}

// A raw submit a gateway answered 5xx is exit 4 (look first) even when its
// reply cannot be printed.
func TestRawSubmit5xxStaysOutcomeUnknownWhenStdoutFails(t *testing.T) {
	e := newVerbEnv(t)
	g := e.demo.Gateway()
	g.FailSubmits.Store(true)
	gw := e.configVia(g.URL, t.TempDir()+"/gw.toml")
	body := `{"type":"ACTIVITY_TYPE_CREATE_USER_TAG","timestampMs":"` + strconv.FormatInt(time.Now().UnixMilli(), 10) +
		`","organizationId":"` + e.demo.Info.OrganizationID + `","parameters":{"userTagName":"raw-5xx","userIds":[]}}`
	code, errOut := runWithFullStdout(map[string]string{"VIGIL_CONFIG": gw}, "request", "--path", "/public/v1/submit/create_user_tag", "--body", body)
	if code != exitOutcomeUnknown {
		t.Errorf("a raw submit answered 5xx by a gateway exits %d when stdout fails, want %d (outcome unknown):\n%s", code, exitOutcomeUnknown, errOut)
	}
}

// With the real binary and a standard output whose reader has gone, the
// submit is not killed by SIGPIPE with nothing said: it names the activity
// it recorded, with the look-first status.
func TestSubmitToClosedPipeNamesTheActivity(t *testing.T) {
	bin := vigilBinary(t)
	e := newVerbEnv(t)
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	pr.Close() // the reader has gone before vigil writes
	var errOut bytes.Buffer
	cmd := exec.Command(bin, "tag", "create", "--name", "closed-pipe")
	cmd.Env = childEnv("VIGIL_CONFIG=" + e.config)
	cmd.Stdout, cmd.Stderr = pw, &errOut
	err = runChild(cmd)
	pw.Close()
	a := e.lastTagActivity(t, "closed-pipe")
	if code := cmd.ProcessState.ExitCode(); code != exitOutcomeUnknown {
		t.Errorf("exit %d (%v), want %d: the activity %s was recorded:\n%s", code, err, exitOutcomeUnknown, a.ID, errOut.String())
	}
	if !strings.Contains(errOut.String(), a.ID) {
		t.Errorf("stderr does not name the recorded activity %s:\n%s", a.ID, errOut.String())
	}
}

// A read to a closed pipe (vigil activity list | head) still ends quietly,
// with the status the default SIGPIPE would give.
func TestReadToClosedPipeEndsQuietly(t *testing.T) {
	bin := vigilBinary(t)
	e := newVerbEnv(t)
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	pr.Close()
	var errOut bytes.Buffer
	cmd := exec.Command(bin, "user", "list")
	cmd.Env = childEnv("VIGIL_CONFIG=" + e.config)
	cmd.Stdout, cmd.Stderr = pw, &errOut
	runChild(cmd)
	pw.Close()
	if code := cmd.ProcessState.ExitCode(); code != exitStdoutClosed || errOut.Len() != 0 {
		t.Errorf("exit %d, stderr %q; want %d and nothing said", code, errOut.String(), exitStdoutClosed)
	}
}
