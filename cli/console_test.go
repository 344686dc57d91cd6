package cli

import (
	"bytes"
	"context"
	"errors"
	"io"
	"log/slog"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/screens"
	"github.com/vigil-console/vigil/server"
	"github.com/vigil-console/vigil/server/servertest"
	"github.com/vigil-console/vigil/ui/theme"
)

// waitForText waits until every one of what has been on screen (styling stripped).
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

// typedAhead is the start of what a committing dialog says when it swallowed
// a y pressed before it was armed (screens.DialogArmDelay after it opened).
const typedAhead = "press y again"

// pressYes answers the committing dialog on screen with y and waits for
// done, pressing y again, as a user would, when the dialog says it took the
// y for type-ahead: its arming tick runs DialogArmDelay after it opened,
// later than that on a busy machine, so no sleep can be sure to outlast it.
func pressYes(t *testing.T, tm *teatest.TestModel, done ...string) {
	t.Helper()
	time.Sleep(screens.DialogArmDelay)
	for press := 1; ; press++ {
		tm.Type("y")
		var last []byte
		swallowed := false
		teatest.WaitFor(t, tm.Output(), func(b []byte) bool {
			last = append(last, b...)
			plain := ansi.Strip(string(last))
			if !slices.ContainsFunc(done, func(w string) bool { return !strings.Contains(plain, w) }) {
				return true
			}
			swallowed = strings.Contains(plain, typedAhead)
			return swallowed
		}, teatest.WithDuration(15*time.Second), teatest.WithCheckInterval(20*time.Millisecond))
		if !swallowed {
			return
		}
		if press == 3 {
			t.Fatalf("the dialog took %d presses of y for type-ahead", press)
		}
		time.Sleep(screens.DialogArmDelay)
	}
}

// transcript keeps everything a console printed from the moment it was made,
// across waits. waitForText only sees what is printed while it waits, and the
// renderer redraws only cells that change: text that was already on screen
// before a wait (a list that reloaded early, unchanged by a later refresh) is
// never printed again. A transcript started after the event a test waits for
// (say, a policy's creation) can only contain text printed after it.
type transcript struct {
	tm  *teatest.TestModel
	out []byte
}

func (tr *transcript) waitFor(t *testing.T, what ...string) {
	t.Helper()
	teatest.WaitFor(t, tr.tm.Output(), func(b []byte) bool {
		tr.out = append(tr.out, b...)
		plain := ansi.Strip(string(tr.out))
		for _, w := range what {
			if !strings.Contains(plain, w) {
				return false
			}
		}
		return true
	}, teatest.WithDuration(15*time.Second), teatest.WithCheckInterval(20*time.Millisecond))
}

func TestConsoleAliceApprovesBobsActivityEndToEnd(t *testing.T) {
	demo := servertest.StartDemo(t)
	alice, bob := demo.Client("alice"), demo.Client("bob")
	ctx := context.Background()
	pending, err := bob.ListActivities(ctx, api.ListActivitiesOptions{Statuses: []string{api.StatusConsensusNeeded}, Types: []string{api.TypeDeleteAPIKeys}, Limit: 10})
	if err != nil || len(pending) != 1 {
		t.Fatalf("demo should have one pending DELETE_API_KEYS by bob: %v %v", pending, err)
	}
	target := pending[0]

	root := screens.NewRoot(screens.Options{Reader: alice, Submitter: alice, Profile: "alice",
		Theme: theme.Options{Dark: true, NoColor: true}})
	tm := teatest.NewTestModel(t, root, teatest.WithInitialTermSize(160, 48))
	waitForText(t, tm, "delete 1 API key", "Vigil Demo")

	tm.Type("/DELETE_API_KEYS")
	tm.Send(tea.KeyPressMsg{Code: tea.KeyEnter})
	tm.Type("a")
	waitForText(t, tm, "Approve this activity?")
	pressYes(t, tm, "COMPLETED")

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
	c := proc{stdin: strings.NewReader(""), stdout: io.Discard, stderr: &stderr,
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
	c := proc{stdin: strings.NewReader(""), stdout: io.Discard, stderr: &stderr, getenv: func(string) string { return "" }}
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
	env, err := startDemo(context.Background(), "", discardLogger(), discardLogger())
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
	env, err := startDemo(context.Background(), "", discardLogger(), discardLogger())
	if err != nil {
		t.Fatal(err)
	}
	defer env.Close()
	c := proc{stdin: strings.NewReader(""), stdout: io.Discard, stderr: io.Discard, getenv: func(string) string { return "" }}
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
	if root.View().MouseMode != tea.MouseModeCellMotion {
		t.Error("the mouse is off without mouse = false")
	}
	off := false
	p.Mouse = &off
	p.Keys = map[string][]string{"palette": {"ctrl+p"}}
	if root, err = consoleModel(p, false, c.getenv, discardLogger()); err != nil {
		t.Fatal(err)
	}
	if root.View().MouseMode != tea.MouseModeNone {
		t.Error("mouse = false left the mouse on")
	}
	if !strings.Contains(ansi.Strip(root.Render()), "ctrl+p commands") {
		t.Errorf("the profile's keys were not applied:\n%s", root.Render())
	}
	p.Keys = map[string][]string{"pallete": {"ctrl+p"}}
	if _, err := consoleModel(p, false, c.getenv, discardLogger()); err == nil || !strings.Contains(err.Error(), "pallete") {
		t.Errorf("an unknown key action gives %v, want an error naming it", err)
	}
}

func TestLogFileIsPrivateAndHoldsNoKey(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "vigil.log")
	logger, closeLog, err := openLog(path)
	if err != nil {
		t.Fatal(err)
	}
	env, err := startDemo(context.Background(), filepath.Join(dir, "data"), logger, logger)
	if err != nil {
		t.Fatal(err)
	}
	c := proc{stdin: strings.NewReader(""), stdout: io.Discard, stderr: io.Discard, getenv: func(string) string { return "" }}
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

// syncBuffer is a bytes.Buffer safe for the program's writer and the test's reader.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// The whole `vigil demo` command: flags, seeding, the in-process service, the
// profile, the program on the given streams; q quits with status 0.
func TestDemoCommandRunsAndQuits(t *testing.T) {
	inR, inW := io.Pipe()
	var out, errOut syncBuffer
	c := proc{stdin: inR, stdout: &out, stderr: &errOut, getenv: func(k string) string {
		if k == "NO_COLOR" {
			return "1"
		}
		return ""
	}}
	data := t.TempDir()
	done := make(chan int, 1)
	go func() { done <- run(context.Background(), c, []string{"demo", "--data", data, "--as", "bob"}) }()
	deadline := time.After(20 * time.Second)
	for !strings.Contains(ansi.Strip(out.String()), "set feature") {
		select {
		case code := <-done:
			t.Fatalf("demo exited early with %d: %s", code, errOut.String())
		case <-deadline:
			t.Fatalf("no activities on screen after 20s:\n%s", ansi.Strip(out.String()))
		case <-time.After(20 * time.Millisecond):
		}
	}
	if !strings.Contains(ansi.Strip(out.String()), "bob") {
		t.Error("the console is not bob's")
	}
	inW.Write([]byte("q"))
	select {
	case code := <-done:
		if code != 0 {
			t.Errorf("exit %d after q: %s", code, errOut.String())
		}
	case <-time.After(10 * time.Second):
		t.Fatal("q did not quit the demo")
	}
	if _, err := os.Stat(filepath.Join(data, "config.toml")); err != nil {
		t.Errorf("--data directory not kept: %v", err)
	}
}

// Two `vigil demo --data DIR` share one organization: what one member
// approves, the other sees at once, though it read the activity before (a
// second service on the directory would answer from its own stale caches).
func TestDemoSharedDataDirectory(t *testing.T) {
	dir := t.TempDir()
	first, err := startDemo(context.Background(), dir, discardLogger(), discardLogger())
	if err != nil {
		t.Fatal(err)
	}
	defer first.Close()
	second, err := startDemo(context.Background(), dir, discardLogger(), discardLogger())
	if err != nil {
		t.Fatal(err)
	}
	defer second.Close()
	ctx := context.Background()
	// Each through the service its own terminal's demo talks to.
	carol, alice := demoClient(t, first, "carol", first.baseURL), demoClient(t, second, "alice", second.baseURL)
	pending, err := carol.ListActivities(ctx, api.ListActivitiesOptions{Statuses: []string{api.StatusConsensusNeeded}, Types: []string{api.TypeSetOrganizationFeature}})
	if err != nil || len(pending) != 1 {
		t.Fatalf("pending feature activity: %v %v", pending, err)
	}
	if before, err := alice.GetActivity(ctx, pending[0].ID); err != nil || before.Status != api.StatusConsensusNeeded {
		t.Fatalf("the second terminal before the vote: %v %v", before.Status, err)
	}
	if _, err := carol.ApproveActivity(ctx, pending[0].Fingerprint); err != nil {
		t.Fatal(err)
	}
	got, err := alice.GetActivity(ctx, pending[0].ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.Status != api.StatusCompleted {
		t.Errorf("the other process sees %s, want COMPLETED", got.Status)
	}
	// The first demo receives the webhook deliveries; the second says so.
	if hooks, err := second.webhooks(ctx, discardLogger()); err != nil || hooks.feed != nil || !strings.Contains(hooks.noneWhy, "first 'vigil demo'") {
		t.Errorf("the joined demo's webhooks: %+v %v", hooks, err)
	}
}

// A demo on a directory that a plain `vigil serve` holds has no demo to join:
// it says so instead of opening a console on another service's profiles.
func TestDemoOnADirectoryServedByAnotherService(t *testing.T) {
	dir := t.TempDir()
	// Profiles left by an earlier demo on this directory point elsewhere.
	stale, err := startDemo(context.Background(), dir, discardLogger(), discardLogger())
	if err != nil {
		t.Fatal(err)
	}
	stale.Close()
	startServe(t, dir)
	env, err := startDemo(context.Background(), dir, discardLogger(), discardLogger())
	if err == nil {
		env.Close()
		t.Fatal("vigil demo joined a service that is not its demo's")
	}
	if !errors.Is(err, server.ErrDataDirInUse) || !strings.Contains(err.Error(), "not a 'vigil demo'") {
		t.Fatalf("demo on a directory vigil serve holds: %v", err)
	}
}

// The demo receives its organization's webhook deliveries for the Webhooks
// screen: an approval that completes an activity arrives verified, and the
// demo's end leaves the organization's webhook as it found it.
func TestDemoReceivesItsWebhookDeliveries(t *testing.T) {
	dir := t.TempDir()
	env, err := startDemo(context.Background(), dir, discardLogger(), discardLogger())
	if err != nil {
		t.Fatal(err)
	}
	defer env.Close()
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	hooks, err := env.webhooks(ctx, discardLogger())
	feed := hooks.feed
	if err != nil || feed == nil {
		t.Fatalf("webhook feed: %v %v", feed, err)
	}
	alice := demoClient(t, env, "alice", env.baseURL)
	webhookOf := func() (string, bool) {
		cfg, err := alice.GetOrganizationConfigs(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range cfg.Features {
			if f.Name == api.FeatureWebhook {
				return f.Value, true
			}
		}
		return "", false
	}
	if url, _ := webhookOf(); url != "http://"+feed.Addr+"/" {
		t.Fatalf("the organization's webhook is %q, want the demo's listener http://%s/", url, feed.Addr)
	}
	pending, err := alice.ListActivities(ctx, api.ListActivitiesOptions{Statuses: []string{api.StatusConsensusNeeded}, Types: []string{api.TypeSetOrganizationFeature}})
	if err != nil || len(pending) != 1 {
		t.Fatalf("pending feature activity: %v %v", pending, err)
	}
	done, err := alice.ApproveActivity(ctx, pending[0].Fingerprint)
	if err != nil || done.Status != api.StatusCompleted {
		t.Fatalf("approve: %v %v", done, err)
	}
	select {
	case d := <-feed.Deliveries:
		if !d.Verified || d.ActivityID != done.ID || d.Status != api.StatusCompleted {
			t.Fatalf("delivery %+v; want a verified one for %s, COMPLETED", d, done.ID)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("no webhook delivery within 10 s of the approval")
	}
	// The demo seeded no webhook: after it, there is none again.
	stop()
	if err := env.Close(); err != nil {
		t.Fatal(err)
	}
	srv, err := server.Open(server.Config{DataDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(srv.Handler())
	defer func() { hs.Close(); srv.Close() }()
	alice = demoClient(t, env, "alice", hs.URL)
	if url, ok := webhookOf(); ok {
		t.Fatalf("after the demo, the organization's webhook is still %q", url)
	}
}

// demoClient is the client of demo member who (profile and key from the
// demo's config.toml) for the service at baseURL.
func demoClient(t *testing.T, env *demoEnv, who, baseURL string) *api.Client {
	t.Helper()
	c := proc{stdin: strings.NewReader(""), stdout: io.Discard, stderr: io.Discard, getenv: func(string) string { return "" }}
	p, err := loadProfile(c, env.configPath, who)
	if err != nil {
		t.Fatal(err)
	}
	st, err := profileStamper(p, c.getenv)
	if err != nil {
		t.Fatal(err)
	}
	cl, err := api.NewClient(baseURL, p.OrganizationID, st)
	if err != nil {
		t.Fatal(err)
	}
	return cl
}
