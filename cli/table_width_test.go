package cli

import (
	"bytes"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// Names from the service in wide characters (CJK: two terminal cells each) or
// with combining marks (no cell of their own: the Thai vowel marks of
// "สวัสดี", which show as they are) must not shift the later columns
// of their row: a row whose EMAIL, TAGS or API KEYS values slide under another
// header reads as another user's.
func TestTableColumnsAlignWithWideAndCombiningNames(t *testing.T) {
	e := newVerbEnv(t)
	h := e.via(func(op string, request, reply []byte) []byte {
		reply = bytes.ReplaceAll(reply, []byte(`"userName":"alice"`), []byte(`"userName":"管理者アリス"`))
		return bytes.ReplaceAll(reply, []byte(`"userName":"bob"`), []byte(`"userName":"\u0e2a\u0e27\u0e31\u0e2a\u0e14\u0e35"`))
	})
	code, out, errOut := h.run("", "user", "list")
	wantExit(t, "user list", code, 0, out, errOut)
	if !strings.Contains(out, "管理者アリス") || !strings.Contains(out, "\u0e27\u0e31") {
		t.Fatalf("the names were not replaced, the test proves nothing:\n%s", out)
	}
	lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
	// Columns are two spaces apart at least (a header such as "API KEYS" has
	// one inside): every value of a row must start at the cell where one of
	// the header's columns starts.
	starts := func(l string) map[int]bool {
		at := map[int]bool{}
		for i := range l {
			if l[i] != ' ' && (i == 0 || strings.HasSuffix(l[:i], "  ")) {
				at[ansi.StringWidth(l[:i])] = true
			}
		}
		return at
	}
	columns := starts(lines[0])
	for _, l := range lines[1:] {
		for s := range starts(l) {
			if !columns[s] {
				t.Errorf("row %q: a value starts at cell %d, where no column of the header starts", l, s)
			}
		}
	}
}
