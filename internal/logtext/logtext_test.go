package logtext

import (
	"bytes"
	"errors"
	"log/slog"
	"strings"
	"testing"
)

// What net/http's ErrorLog writes arrives as a record's message
// (slog.NewLogLogger); values arrive as strings, errors, groups and
// attributes given once (With): each is shown escaped and cut.
func TestEveryStringOfARecordIsEscapedAndCut(t *testing.T) {
	var out bytes.Buffer
	log := NewText(&out, nil).With("peer", "p\u3164")
	slog.NewLogLogger(log.Handler(), slog.LevelWarn).Print("http: bad \x1b[31m\nlevel=ERROR forged")
	log.Info("m", "s", "x\u200by", "err", errors.New("e\x1b]0;t\x07"), slog.Group("g", "v", "w\ufe0f"), "long", strings.Repeat("a", 3*MaxValueBytes))
	got := out.String()
	if n := strings.Count(got, "\n"); n != 2 {
		t.Fatalf("%d lines for two records:\n%s", n, got)
	}
	for _, want := range []string{`msg="http: bad \\u001b[31m\\nlevel=ERROR forged"`, `peer=p\u3164`, `s=x\u200by`, `err=e\u001b]0;t\u0007`, `g.v=w\ufe0f`} {
		if !strings.Contains(got, want) {
			t.Errorf("no %s in:\n%.600s", want, got)
		}
	}
	if strings.ContainsAny(got, "\x1b\x07\u3164\u200b\ufe0f") {
		t.Errorf("a raw control or invisible character:\n%q", got)
	}
	if strings.Contains(got, strings.Repeat("a", MaxValueBytes+1)) || !strings.Contains(got, strings.Repeat("a", MaxValueBytes)+"…") {
		t.Errorf("the long value is not cut at %d bytes", MaxValueBytes)
	}
}
