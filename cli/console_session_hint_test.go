package cli

import (
	"context"
	"io"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"github.com/vigil-console/vigil/screens"
)

// In 'vigil demo' (no config where the CLI looks by default) the command the
// console gives for reading a read-only session's hidden token names the
// demo's config and profile, and says it works while the demo runs: run as
// given, with no config in the environment, it prints the token.
func TestDemoReadOnlySessionHintRunsAsGiven(t *testing.T) {
	env, err := startDemo(context.Background(), "", discardLogger(), discardLogger())
	if err != nil {
		t.Fatal(err)
	}
	defer env.Close()
	noEnv := map[string]string{"XDG_CONFIG_HOME": t.TempDir()}
	c := proc{stdin: strings.NewReader(""), stdout: io.Discard, stderr: io.Discard, getenv: func(k string) string { return noEnv[k] }}
	client, p, err := profileClient(c, env.configPath, "alice")
	if err != nil {
		t.Fatal(err)
	}
	act, err := client.CreateReadOnlySession(context.Background())
	if err != nil || act.Result.CreateReadOnlySessionResult == nil {
		t.Fatalf("create_read_only_session: %+v %v", act, err)
	}
	token := act.Result.CreateReadOnlySessionResult.Session

	root, err := consoleModelWith(p, false, c.getenv, discardLogger(), consoleWebhooks{}, demoSide{cliNote: "while this demo runs"})
	if err != nil {
		t.Fatal(err)
	}
	tm := teatest.NewTestModel(t, root, teatest.WithInitialTermSize(200, 60))
	waitForText(t, tm, "Vigil Demo")
	tm.Send(screens.ShowActivityMsg{ID: act.ID, Activity: act})
	waitForText(t, tm, "printed by")
	tm.Type("q")
	final := tm.FinalModel(t, teatest.WithFinalTimeout(10*time.Second)).(*screens.Root)
	frame := ansi.Strip(final.Render())
	if strings.Contains(frame, token) {
		t.Fatalf("the console drew the session token:\n%s", frame)
	}
	text := strings.Join(strings.Fields(frame), " ")
	m := regexp.MustCompile(`session token: hidden; printed by: vigil (activity get [^(]*) \(while this demo runs\)`).FindStringSubmatch(text)
	if m == nil {
		t.Fatalf("no command for the token, or no word on how long it works:\n%s", frame)
	}
	if !strings.Contains(m[1], "--config "+env.configPath+" --profile alice ") {
		t.Errorf("the command %q does not name the demo's config %s and profile alice", m[1], env.configPath)
	}
	code, out, errOut := runVigil(t, noEnv, "", strings.Fields(m[1])...)
	if code != 0 || !strings.Contains(out, token) {
		t.Errorf("'vigil %s' as the console gives it: exit %d, token printed: %v; stderr:\n%s", m[1], code, strings.Contains(out, token), errOut)
	}
	if strings.Contains(text, `"sessionExpiry": "1`) || !regexp.MustCompile(`"sessionExpiry": "\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC \(in (59m|1h)\)"`).MatchString(text) {
		t.Errorf("the session's expiry is not shown as a time:\n%s", frame)
	}
}
