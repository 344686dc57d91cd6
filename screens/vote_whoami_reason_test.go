package screens

import (
	"bytes"
	"context"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/server/servertest"
	"github.com/vigil-console/vigil/ui/theme"
)

// whoami fails throughout; bob's vote reaches the service and its reply
// shows it. What the console records must say why the reply could not be
// told as bob's (who he is could not be read), never blame a cache or proxy
// for a reply that showed the vote.
func TestVoteWhileWhoamiFailsIsNotBlamedOnACache(t *testing.T) {
	d := servertest.StartDemo(t)
	act := proposeTag(t, d, "vote-nowho-reason")
	rw := d.Rewriting(func(op string, request, reply []byte) []byte {
		if op == "query/whoami" {
			return []byte("not json")
		}
		return reply
	})
	bob := d.ClientAt(rw, "bob", api.WithExactStrings())
	var buf lockedBuffer
	r := NewRoot(Options{Reader: bob, Submitter: bob, Profile: "demo", Theme: theme.Options{Dark: true, NoColor: true}, Static: true,
		Now: func() time.Time { return testNow }, Tick: func(time.Duration, func(time.Time) tea.Msg) tea.Cmd { return nil },
		Logger: slog.New(slog.NewTextHandler(&buf, nil))})
	h := &harness{t: t, root: r}
	h.send(tea.WindowSizeMsg{Width: 100, Height: 30})
	h.run(r.Init())
	h.selectActivityID(act.ID)
	h.key("a")
	h.key("y")
	got, err := d.Client("alice").GetActivity(context.Background(), act.ID)
	if err != nil || got.VoteOf(d.Info.Members[1].UserID) == nil {
		t.Fatalf("set-up: bob's vote did not count: %+v %v", got, err)
	}
	all := strings.Join(logged(h), "\n") + "\n" + buf.String()
	if strings.Contains(all, "cache or proxy") {
		t.Errorf("the reply showed bob's vote and nothing answered for the service, yet the console blames a cache:\n%s", all)
	}
	if !strings.Contains(all, "who you are could not be read") {
		t.Errorf("the reason (whoami failed) is not recorded:\n%s", all)
	}
	// r reads the activity again, but cannot tell while whoami fails: the
	// notice must not promise it will settle the vote now.
	if strings.Contains(all, "check with r") {
		t.Errorf("the console tells bob to check with r, which cannot tell while whoami fails:\n%s", all)
	}
}

// lockedBuffer is a log's buffer, written by commands and read by the test.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
