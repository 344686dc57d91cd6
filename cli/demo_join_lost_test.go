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
)

// A demo that joined another's service loses it when that demo ends; a
// restart of that demo serves on another port, which the joined console never
// learns. Its failed refresh says so and how to join again, not "check the
// profile's base_url", which is the demo's to write, not the user's.
func TestJoinedDemoSaysItsServiceEnded(t *testing.T) {
	dir := t.TempDir()
	first, err := startDemo(context.Background(), dir, discardLogger())
	if err != nil {
		t.Fatal(err)
	}
	defer first.Close()
	second, err := startDemo(context.Background(), dir, discardLogger())
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
	tm := teatest.NewTestModel(t, root, teatest.WithInitialTermSize(400, 60))
	waitForText(t, tm, "Vigil Demo", "set feature")
	if err := first.Close(); err != nil {
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
	text := strings.Join(strings.Fields(strings.ReplaceAll(ansi.Strip(final.Render()), "│", " ")), " ")
	for _, want := range []string{
		"the first 'vigil demo' on " + dir + ", whose service this console joined, has ended",
		"vigil demo --data " + dir + " --as bob",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("the failed refresh does not say %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, "check the profile's base_url") {
		t.Errorf("the joined demo is told to check its profile's base_url:\n%s", text)
	}
}
