package ui

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// TruncateKeepTail cuts s, which ends with tail, to width cells with "…",
// shortening what comes before tail so that tail stays whole: a user's row
// "name (id)" loses part of the name, never the id that tells two users of
// the same name apart. A tail too wide for the row with a cell of what comes
// before it is shown alone, after "…", cut at its end: its real beginning
// is kept.
func TruncateKeepTail(s, tail string, width int) string {
	if ansi.StringWidth(s) <= width || tail == "" || !strings.HasSuffix(s, tail) {
		return ansi.Truncate(s, width, "…")
	}
	room := width - ansi.StringWidth(tail) - 1 // one cell for "…"
	if room < 1 {
		return "…" + ansi.Truncate(tail, width-1, "…")
	}
	return ansi.Truncate(strings.TrimSuffix(s, tail), room, "") + "…" + tail
}
