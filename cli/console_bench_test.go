package cli

import (
	"context"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/teatest/v2"
)

// Time from `vigil demo` starting (temporary data dir, seeding, listening, profile,
// key, client) to the first frame that shows the pending activities.
func BenchmarkDemoFirstFrame(b *testing.B) {
	c := proc{stdin: strings.NewReader(""), stdout: io.Discard, stderr: io.Discard, getenv: func(string) string { return "" }}
	for b.Loop() {
		env, err := startDemo(context.Background(), "", discardLogger(), discardLogger())
		if err != nil {
			b.Fatal(err)
		}
		p, err := loadProfile(c, env.configPath, "alice")
		if err != nil {
			b.Fatal(err)
		}
		root, err := consoleModel(p, false, c.getenv, discardLogger())
		if err != nil {
			b.Fatal(err)
		}
		tm := teatest.NewTestModel(b, root, teatest.WithInitialTermSize(160, 48))
		var seen []byte
		teatest.WaitFor(b, tm.Output(), func(out []byte) bool {
			seen = append(seen, out...)
			s := ansi.Strip(string(seen))
			return strings.Contains(s, "delete 1 API key") && strings.Contains(s, "Vigil Demo")
		}, teatest.WithDuration(20*time.Second), teatest.WithCheckInterval(time.Millisecond))
		b.StopTimer()
		tm.Quit()
		tm.WaitFinished(b, teatest.WithFinalTimeout(5*time.Second))
		env.Close()
		b.StartTimer()
	}
}
