package screens

import (
	"context"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/server/servertest"
	"github.com/vigil-console/vigil/ui/theme"
)

// A hostile service's activity list carries a value that does not decode and
// is megabytes long. The Activities screen's error, and the messages log that
// keeps it, must quote only a short prefix of it and still say what was wrong:
// the status bar and the log must not hold (and clean, every frame) megabytes.
func TestConsoleDecodeErrorQuotesOnlyAPrefixOfTheReply(t *testing.T) {
	d := servertest.StartDemo(t)
	if _, err := d.Client("alice").CreateReadOnlySession(context.Background()); err != nil {
		t.Fatal(err)
	}
	big := strings.Repeat("A", 1<<20)
	createdAt := regexp.MustCompile(`"createdAt":\{[^}]*\}`)
	for _, c := range []struct {
		name    string
		rewrite func(reply []byte) []byte
		want    string // what the decoder said, after the quoted prefix
	}{
		{"time", func(reply []byte) []byte { // the first activity's only: the reply stays under MaxReplyBytes
			at := createdAt.FindIndex(reply)
			if at == nil {
				return reply
			}
			return []byte(string(reply[:at[0]]) + `"createdAt":"` + big + `"` + string(reply[at[1]:]))
		}, "is neither a time object nor epoch milliseconds"},
		{"intent key sent twice", func(reply []byte) []byte {
			return []byte(strings.Replace(string(reply), `"intent":{`, `"intent":{"`+big+`":1,"`+big+`":1,`, 1))
		}, "is sent twice"},
	} {
		t.Run(c.name, func(t *testing.T) {
			hostile := d.Rewriting(func(op string, _, reply []byte) []byte {
				if op != "query/"+api.QueryListActivities {
					return reply
				}
				return c.rewrite(reply)
			})
			cl := d.ClientAt(hostile, "alice", api.WithExactStrings())
			// Megabytes through a proxy: slow under the race detector.
			h := newSlowHarness(t, cl, cl, theme.Options{Dark: true, NoColor: true}, 0, time.Minute)
			e := h.activities().Status().Err
			if len(e) > 4<<10 || !strings.Contains(e, "AAAA") || !strings.Contains(e, "…") || !strings.Contains(e, c.want) {
				t.Errorf("the Activities screen's error is %d bytes; want a short prefix of the value, marked as cut, and %q: %.300q", len(e), c.want, e)
			}
			logged := false
			for _, en := range h.root.log.entries {
				if len(en.text) > 4<<10 {
					t.Errorf("a messages-log entry is %d bytes", len(en.text))
				}
				logged = logged || strings.Contains(en.text, c.want)
			}
			if !logged {
				t.Errorf("the messages log does not keep the error")
			}
		})
	}
}
