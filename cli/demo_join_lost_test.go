package cli

import (
	"context"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"github.com/vigil-console/vigil/screens"
	"github.com/vigil-console/vigil/server"
)

// A demo that joined another's service loses it when that demo ends; a
// restart of that demo serves on another port, which the joined console never
// learns. Its failed refresh says so and how to join again, not "check the
// profile's base_url", which is the demo's to write, not the user's.
func TestJoinedDemoSaysItsServiceEnded(t *testing.T) {
	base := t.TempDir()
	for _, tc := range []struct{ name, shownDir, shownWord string }{
		{"plain", base + "/plain", base + "/plain"},
		// The advice is one line (the client refuses a line break): a
		// newline in the name is escaped, as in other messages, and the
		// second demo still starts.
		{"a\nb", `"` + base + `/a\nb"`, `"` + base + `/a\nb"`},
		{"e\x1b[31mRED", `"` + base + `/e\u001b[31mRED"`, `"` + base + `/e\u001b[31mRED"`},
	} {
		t.Run(tc.shownDir, func(t *testing.T) {
			dir := base + "/" + tc.name
			first, err := startDemo(context.Background(), dir, discardLogger(), discardLogger())
			if err != nil {
				t.Fatal(err)
			}
			defer first.Close()
			text := joinedConsoleAfterItsServiceStops(t, dir, first.Close)
			for _, want := range []string{
				"the first 'vigil demo' on " + tc.shownDir + ", whose service this console joined, has ended",
				"vigil demo --data " + tc.shownWord + " --as bob",
			} {
				if !strings.Contains(text, want) {
					t.Errorf("the failed refresh does not say %q:\n%s", want, text)
				}
			}
			if strings.Contains(text, "check the profile's base_url") {
				t.Errorf("the joined demo is told to check its profile's base_url:\n%s", text)
			}
		})
	}
}

// A demo may join a 'vigil serve --demo' too, which serves on its own fixed
// --addr: restarted, it answers there again. The joined console says so
// (start it again and refresh) rather than that a 'vigil demo' ended and
// the console must quit.
func TestDemoJoinedToServeSaysToRestartIt(t *testing.T) {
	dir := t.TempDir()
	addr, proxyAddr := freeAddrPair(t)
	serve := func() (stop func() error) {
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error, 1)
		c := proc{stdin: strings.NewReader(""), stdout: io.Discard, stderr: io.Discard, getenv: func(string) string { return "" }}
		go func() {
			done <- cmdServe(ctx, c, []string{"--data", dir, "--addr", addr, "--auth-proxy-addr", proxyAddr, "--demo"})
		}()
		for server.HolderURL(dir) == "" {
			select {
			case err := <-done:
				t.Fatalf("vigil serve ended before serving: %v", err)
			case <-time.After(5 * time.Millisecond):
			}
		}
		return func() error { cancel(); return <-done }
	}
	stop := serve()
	text := joinedConsoleAfterItsServiceStops(t, dir, stop)
	for _, want := range []string{
		"the 'vigil serve' on " + dir + ", whose service this console joined, is not answering: start it again and refresh (r)",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("the failed refresh does not say %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, "has ended") || strings.Contains(text, "the first 'vigil demo'") {
		t.Errorf("a console joined to vigil serve is told a 'vigil demo' ended:\n%s", text)
	}
}

// joinedConsoleAfterItsServiceStops joins, as bob, the service another
// process holds on dir, stops that service (stop), refreshes, and returns
// the console's Messages screen, one space between words.
func joinedConsoleAfterItsServiceStops(t *testing.T, dir string, stop func() error) string {
	t.Helper()
	second, err := startDemo(context.Background(), dir, discardLogger(), discardLogger())
	if err != nil {
		t.Fatal(err)
	}
	defer second.Close()
	c := proc{stdin: strings.NewReader(""), stdout: io.Discard, stderr: io.Discard, getenv: func(string) string { return "" }}
	p, err := loadProfile(c, second.configPath, "bob")
	if err != nil {
		t.Fatal(err)
	}
	root, err := consoleModelWith(p, false, c.getenv, discardLogger(), consoleWebhooks{}, second.consoleSide("bob"))
	if err != nil {
		t.Fatal(err)
	}
	// Wide enough that the whole advice stays on one line of Messages.
	tm := teatest.NewTestModel(t, root, teatest.WithInitialTermSize(600, 60))
	waitForText(t, tm, "Vigil Demo", "set feature")
	if err := stop(); err != nil {
		t.Fatal(err)
	}
	tm.Type("r")
	waitForText(t, tm, "refresh failed")
	tm.Type("m")
	waitForText(t, tm, "Messages")
	if err := tm.Quit(); err != nil {
		t.Fatal(err)
	}
	final := tm.FinalModel(t, teatest.WithFinalTimeout(10*time.Second)).(*screens.Root)
	return strings.Join(strings.Fields(strings.ReplaceAll(ansi.Strip(final.Render()), "│", " ")), " ")
}
