package screens

import (
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/vigil-console/vigil/ui"
)

// listScreen is a screen built on a ui.ListDetail, whose `/` opens a filter.
// While that filter takes keys, the root hands every key to it before the
// global keys and the screen's own can match: a letter typed there (q, l, r,
// u, y…) is text, never a command, and a screen cannot forget to check.
// conventions_test requires every screen holding a ui.ListDetail to be one.
type listScreen interface {
	Screen
	// filterList is the screen's list; the root edits its filter.
	filterList() *ui.ListDetail
	// filterEdited follows a key the filter took: the preview and the keys
	// follow the row now selected.
	filterEdited()
}

// filtering reports whether s is a list screen whose filter takes keys.
func filtering(s Screen) bool {
	ls, ok := s.(listScreen)
	return ok && ls.filterList().Filtering()
}

// capturing reports whether s takes every key but ctrl+c: it says so, or its
// filter is open.
func capturing(s Screen) bool { return s.Capturing() || filtering(s) }

// typeInFilter gives msg, a key or a paste, to the open filter of s (enter
// keeps it, esc clears it, the rest edit it).
func typeInFilter(s listScreen, msg tea.Msg) tea.Cmd {
	if p, ok := msg.(tea.PasteMsg); ok {
		// A filter is one line: line breaks and tabs become single spaces
		// (the input drops any other control character).
		msg = tea.PasteMsg{Content: strings.Join(strings.Fields(p.Content), " ")}
	}
	l := s.filterList()
	var cmd tea.Cmd
	*l, cmd = l.Update(msg)
	s.filterEdited()
	return cmd
}

// filterHelp is the help of an open filter, whatever the screen.
type filterHelp struct{ keys ui.TableKeyMap }

func (h filterHelp) ShortHelp() []key.Binding {
	return []key.Binding{h.keys.AcceptFilter, h.keys.ClearFilter, h.keys.FilterMove}
}

func (h filterHelp) FullHelp() [][]key.Binding { return [][]key.Binding{h.ShortHelp()} }

// listMoveKeys are a list's keys past ↑/↓ for its full help: a page and
// the ends (pgup, pgdn, g, G) on the list; a page and half a page of the
// open detail.
func listMoveKeys(l *ui.ListDetail) []key.Binding {
	if l.IsOpen() {
		return l.Pane.KeyBindings()[2:]
	}
	k := l.Table.Keys
	return []key.Binding{k.PageUp, k.PageDown, k.Top, k.Bottom}
}
