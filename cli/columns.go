package cli

import (
	"io"
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// writeColumns writes lines of cells aligned in columns, the way text/tabwriter
// does with space padding, but measuring cells in terminal cells rather than
// runes: a wide (CJK, emoji) or combining-mark name from the service takes the
// room it takes on screen, so the later columns of its row stay under their
// header. Every cell but a line's last is padded to the widest cell of its
// column plus gap spaces; a line's last cell is written as it is. Cells must be
// single-line text already escaped for the terminal, which ansi.StringWidth
// measures exactly.
func writeColumns(w io.Writer, gap int, lines [][]string) error {
	var widths []int
	for _, cells := range lines {
		for i, cell := range cells[:max(len(cells)-1, 0)] {
			if i == len(widths) {
				widths = append(widths, 0)
			}
			widths[i] = max(widths[i], ansi.StringWidth(cell))
		}
	}
	var b strings.Builder
	for _, cells := range lines {
		for i, cell := range cells {
			b.WriteString(cell)
			if i < len(cells)-1 {
				b.WriteString(strings.Repeat(" ", widths[i]-ansi.StringWidth(cell)+gap))
			}
		}
		b.WriteByte('\n')
	}
	_, err := io.WriteString(w, b.String())
	return err
}
