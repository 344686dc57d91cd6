package screens

import (
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/sahilm/fuzzy"

	"github.com/vigil-console/vigil/ui"
)

// fuzzyList is what the command palette and the filter pickers share: a typed
// pattern, the labels it matches (best first; all, in order, when it is empty)
// and a cursor over them.
type fuzzyList struct {
	input   ui.Input
	labels  []string
	matches []int // indexes into labels
	cursor  int
}

func newFuzzyList(prompt string, labels []string) fuzzyList {
	l := fuzzyList{labels: labels}
	l.input.Prompt = prompt
	l.input.Focus()
	l.filter()
	return l
}

func (l *fuzzyList) filter() {
	l.matches = l.matches[:0]
	if pattern := strings.TrimSpace(l.input.Value()); pattern == "" {
		for i := range l.labels {
			l.matches = append(l.matches, i)
		}
	} else {
		for _, m := range fuzzy.Find(pattern, l.labels) {
			l.matches = append(l.matches, m.Index)
		}
	}
	l.cursor = min(l.cursor, max(len(l.matches)-1, 0))
}

// current is the index (into labels) under the cursor, or -1.
func (l *fuzzyList) current() int {
	if l.cursor < 0 || l.cursor >= len(l.matches) {
		return -1
	}
	return l.matches[l.cursor]
}

func (l *fuzzyList) up()   { l.cursor = max(l.cursor-1, 0) }
func (l *fuzzyList) down() { l.cursor = min(l.cursor+1, max(len(l.matches)-1, 0)) }

// navigate moves the cursor on up and down, and otherwise edits the pattern.
func (l *fuzzyList) navigate(msg tea.Msg, up, down key.Binding) {
	if k, ok := msg.(tea.KeyPressMsg); ok {
		switch {
		case key.Matches(k, up):
			l.up()
			return
		case key.Matches(k, down):
			l.down()
			return
		}
	}
	l.edit(msg)
}

// edit gives msg to the input and narrows the list when the pattern changed.
func (l *fuzzyList) edit(msg tea.Msg) {
	var changed bool
	l.input, changed = l.input.Update(msg)
	if changed {
		l.cursor = 0
		l.filter()
	}
}

// window is the range of matches [start, end) to draw in rows lines, keeping
// the cursor in view.
func (l *fuzzyList) window(rows int) (start, end int) {
	if l.cursor >= rows {
		start = l.cursor - rows + 1
	}
	return start, min(start+rows, len(l.matches))
}
