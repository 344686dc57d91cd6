package ui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// A row too wide for its place loses part of the name before its id, never
// the id; an id wider than the row keeps its real beginning.
func TestTruncateKeepTailShortensTheNameNotTheID(t *testing.T) {
	id := " (01a22b94-19f7-76cc-b5bc-7f1dc63e2a10)"
	row := `[ ] "carol (01a22b94-1983-7514-85e3-c1a08c13fd60)"` + id
	got := TruncateKeepTail(row, id, 56)
	if !strings.HasSuffix(got, "…"+id) || !strings.HasPrefix(got, `[ ] "carol (01a`) || ansi.StringWidth(got) != 56 {
		t.Errorf("TruncateKeepTail at 56 = %q (%d cells); want the name cut, the id whole, 56 cells", got, ansi.StringWidth(got))
	}
	if got := TruncateKeepTail("bob (u-1)", " (u-1)", 20); got != "bob (u-1)" {
		t.Errorf("a row that fits is cut: %q", got)
	}
	if got := TruncateKeepTail(row, id, 20); got != "… (01a22b94-19f7-76…" {
		t.Errorf("an id wider than the row: %q; want the id's beginning after …", got)
	}
}
