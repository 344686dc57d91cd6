package main

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/keys"
	"github.com/vigil-console/vigil/screens"
	"github.com/vigil-console/vigil/server"
	"github.com/vigil-console/vigil/ui/theme"
)

// demoClient serves a freshly seeded demo organization from an in-process local
// service and returns a client stamped with member's key.
func demoClient(t testing.TB, member string) (*api.Client, func(string) *api.Client) {
	t.Helper()
	srv, err := server.Open(server.Config{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	ts := httptest.NewServer(srv.Handler())
	t.Cleanup(ts.Close)
	keysDir := t.TempDir()
	info, err := server.SeedDemo(context.Background(), srv, keysDir)
	if err != nil {
		t.Fatal(err)
	}
	clientFor := func(name string) *api.Client {
		k, err := keys.Store{Dir: keysDir}.Load(name)
		if err != nil {
			t.Fatal(err)
		}
		c, err := api.NewClient(ts.URL, info.OrganizationID, k)
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	return clientFor(member), clientFor
}

// screenText strips styling so a test can look for words.
func waitForText(t *testing.T, tm *teatest.TestModel, what ...string) {
	t.Helper()
	var last []byte
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool {
		last = append(last, b...)
		plain := ansi.Strip(string(last))
		for _, w := range what {
			if !strings.Contains(plain, w) {
				return false
			}
		}
		return true
	}, teatest.WithDuration(15*time.Second), teatest.WithCheckInterval(20*time.Millisecond))
}

func TestConsoleAliceApprovesBobsActivityEndToEnd(t *testing.T) {
	alice, clientFor := demoClient(t, "alice")
	bob := clientFor("bob")
	ctx := context.Background()
	pending, err := bob.ListActivities(ctx, api.ListActivitiesOptions{Statuses: []string{api.StatusConsensusNeeded}, Types: []string{api.TypeDeleteAPIKeys}, Limit: 10})
	if err != nil || len(pending) != 1 {
		t.Fatalf("demo should have one pending DELETE_API_KEYS by bob: %v %v", pending, err)
	}
	target := pending[0]

	root := screens.NewRoot(screens.Options{Client: alice, Profile: "alice",
		Theme: theme.Options{Dark: true, NoColor: true}})
	tm := teatest.NewTestModel(t, root, teatest.WithInitialTermSize(160, 48))
	waitForText(t, tm, "DELETE_API_KEYS", "Vigil Demo")

	tm.Type("/DELETE_API_KEYS")
	tm.Send(tea.KeyPressMsg{Code: tea.KeyEnter})
	tm.Type("a")
	waitForText(t, tm, "Approve this activity?")
	tm.Type("y")
	waitForText(t, tm, "COMPLETED")

	got, err := alice.GetActivity(ctx, target.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.Status != api.StatusCompleted {
		t.Errorf("service says %s after alice's approval, want COMPLETED", got.Status)
	}
	tm.Type("q")
	tm.WaitFinished(t, teatest.WithFinalTimeout(5*time.Second))
}

func TestConsoleWithoutConfigSaysHowToStart(t *testing.T) {
	dir := t.TempDir()
	var stderr bytes.Buffer
	c := cli{stdin: strings.NewReader(""), stdout: io.Discard, stderr: &stderr,
		getenv: func(k string) string {
			if k == "XDG_CONFIG_HOME" || k == "HOME" {
				return dir
			}
			return ""
		}}
	if code := run(context.Background(), c, nil); code != 1 {
		t.Errorf("exit code %d, want 1", code)
	}
	for _, want := range []string{filepath.Join(dir, "vigil", "config.toml"), "vigil demo", "vigil keys generate"} {
		if !strings.Contains(stderr.String(), want) {
			t.Errorf("message lacks %q:\n%s", want, stderr.String())
		}
	}
}

func TestConsoleFlagsUsage(t *testing.T) {
	var stderr bytes.Buffer
	c := cli{stdin: strings.NewReader(""), stdout: io.Discard, stderr: &stderr, getenv: func(string) string { return "" }}
	if code := run(context.Background(), c, []string{"--bogus"}); code != 2 {
		t.Errorf("unknown flag: exit %d, want 2", code)
	}
	if code := run(context.Background(), c, []string{"demo", "--as", "mallory", "--data", t.TempDir()}); code != 2 {
		t.Errorf("demo --as mallory: exit %d, want 2 (%s)", code, stderr.String())
	}
	if code := run(context.Background(), c, []string{"demo", "-h"}); code != 0 {
		t.Errorf("demo -h: exit %d, want 0", code)
	}
}

func TestDemoTemporaryDirectoryIsRemoved(t *testing.T) {
	env, err := startDemo(context.Background(), "", discardLogger())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(env.configPath); err != nil {
		t.Fatalf("demo config not written: %v", err)
	}
	if err := env.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(env.dir); !os.IsNotExist(err) {
		t.Errorf("temporary demo directory %s still there (%v)", env.dir, err)
	}
}

func discardLogger() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

func TestConsoleModelHonoursNoColorAccentAndReadOnly(t *testing.T) {
	env, err := startDemo(context.Background(), "", discardLogger())
	if err != nil {
		t.Fatal(err)
	}
	defer env.Close()
	c := cli{stdin: strings.NewReader(""), stdout: io.Discard, stderr: io.Discard, getenv: func(string) string { return "" }}
	p, err := loadProfile(c, env.configPath, "bob")
	if err != nil {
		t.Fatal(err)
	}
	env1 := func(k string) string {
		if k == "NO_COLOR" {
			return "0" // any non-empty value counts
		}
		return ""
	}
	root, err := consoleModel(p, true, env1, discardLogger())
	if err != nil {
		t.Fatal(err)
	}
	if !root.ThemeOptions().NoColor {
		t.Error("NO_COLOR=0 did not turn colour off")
	}
	if !strings.Contains(root.Render(), "READ-ONLY") {
		t.Error("--read-only not shown in the status bar")
	}
	root, _ = consoleModel(p, false, c.getenv, discardLogger())
	if root.ThemeOptions().NoColor {
		t.Error("colour off without NO_COLOR")
	}
	p.Color = "not-a-colour"
	if _, err := consoleModel(p, false, c.getenv, discardLogger()); err == nil || !strings.Contains(err.Error(), "not-a-colour") {
		t.Errorf("a bad colour gives %v, want an error naming it", err)
	}
	p.Color = "red"
	if root, err = consoleModel(p, false, c.getenv, discardLogger()); err != nil || root.ThemeOptions().Accent != "red" {
		t.Errorf("accent red: %v", err)
	}
}

func TestLogFileIsPrivateAndHoldsNoKey(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "vigil.log")
	logger, closeLog, err := openLog(path)
	if err != nil {
		t.Fatal(err)
	}
	env, err := startDemo(context.Background(), filepath.Join(dir, "data"), logger)
	if err != nil {
		t.Fatal(err)
	}
	c := cli{stdin: strings.NewReader(""), stdout: io.Discard, stderr: io.Discard, getenv: func(string) string { return "" }}
	p, err := loadProfile(c, env.configPath, "alice")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := consoleModel(p, false, c.getenv, logger); err != nil {
		t.Fatal(err)
	}
	env.Close()
	closeLog()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("log file mode %v, want 0600", fi.Mode().Perm())
	}
	logText, _ := os.ReadFile(path)
	if !strings.Contains(string(logText), "console start") {
		t.Errorf("log lacks the console start:\n%s", logText)
	}
	priv, err := os.ReadFile(filepath.Join(dir, "data", "keys", "alice.private"))
	if err != nil {
		t.Fatal(err)
	}
	if k := strings.TrimSpace(string(priv)); k != "" && strings.Contains(string(logText), k) {
		t.Error("the log holds alice's private key")
	}
}
