package server

import (
	"bufio"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/webhook"
)

// hangulFiller is an invisible character (U+3164) that slog's own quoting
// lets through: a value ending in it looks like the value without it.
const hangulFiller = "\u3164"

// checkLogLines fails when a line of log carries an ESC byte, another
// control, an invisible character, or is over most bytes, or when a line
// does not start as a record does (a value's newline forged a record).
func checkLogLines(t *testing.T, log string, most int) {
	t.Helper()
	for _, line := range strings.Split(strings.TrimSuffix(log, "\n"), "\n") {
		if !strings.HasPrefix(line, "time=") {
			t.Errorf("a line that is no record of its own (a value's newline): %.200q", line)
		}
		if len(line) > most {
			t.Errorf("a log line of %d bytes, want at most %d: %.200q…", len(line), most, line)
		}
		for _, r := range line {
			if r < 0x20 || r == 0x7f || api.IsInvisible(r) {
				t.Errorf("raw %U in the log line %.300q", r, line)
				break
			}
		}
	}
}

// An id a caller sent, with an escape sequence, a newline that would start
// a forged record and an invisible character, is logged escaped, on the
// refusal's one line.
func TestRefusalLogShowsCallerIDEscaped(t *testing.T) {
	logs := &logBuffer{}
	e := newEnvWith(t, envOptions{threshold: 2, log: logs})
	id := "act" + hangulFiller + "\x1b]0;owned\x07\x1b[2J\ntime=2026-01-01T00:00:00Z level=ERROR msg=forged"
	_, err := e.clients["alice"].QueryRaw(ctxT(t), api.QueryGetActivity, map[string]string{"organizationId": e.org.ID, "activityId": id})
	if err == nil {
		t.Fatal("get_activity of an unknown id was answered")
	}
	got := logs.String()
	if !strings.Contains(got, "request refused") {
		t.Fatalf("no refusal logged:\n%s", got)
	}
	checkLogLines(t, got, 4096)
	if !strings.Contains(got, `\u3164`) {
		t.Errorf("the invisible character is not shown escaped:\n%s", got)
	}
}

// A webhook receiver that answers with a long malformed status line holding
// an escape sequence and an invisible character: the attempt's failure is
// logged escaped and cut, each retry on one bounded line.
func TestWebhookReceiverReplyIsLoggedEscapedAndCut(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	status := "HTTP/1.1 2\x1b[31m" + strings.Repeat("A", 50_000) + hangulFiller + " OK\r\n\r\n"
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func(c net.Conn) {
				defer c.Close()
				r := bufio.NewReader(c)
				for {
					l, err := r.ReadString('\n')
					if err != nil || l == "\r\n" {
						break
					}
				}
				c.Write([]byte(status))
			}(c)
		}
	}()

	logs := &logBuffer{}
	opts := WebhookOptions{Delivery: webhook.DelivererOptions{MaxAttempts: minGiveUpAttempts, BaseBackoff: time.Millisecond, MaxBackoff: 5 * time.Millisecond}, Requeue: time.Hour}
	e := newEnvWith(t, envOptions{threshold: 1, log: logs, webhooks: opts})
	mustComplete(t)(e.clients["alice"].SetOrganizationFeature(ctxT(t), api.SetOrganizationFeatureParams{Name: api.FeatureWebhook, Value: "http://" + ln.Addr().String() + "/hook"}))
	waitStays(t, e.srv, 1)
	got := logs.String()
	if !strings.Contains(got, "malformed HTTP status code") {
		t.Fatalf("the receiver's reply was not logged:\n%.2000s", got)
	}
	checkLogLines(t, got, 8192)
}
