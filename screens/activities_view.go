package screens

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	"github.com/charmbracelet/x/ansi"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/ui"
)

// View implements Screen.
func (a *Activities) View() string {
	width := a.width
	th := a.c.Theme
	var head string
	if a.detail != nil {
		head = th.Title.Render("Activity ") + ui.Clean(shortType(a.detail.activity.Type)) +
			th.Muted.Render("  "+ui.Clean(api.SanitizeID(a.detail.activity.ID)))
	} else {
		head = th.Title.Render("Pending activities") + a.pendingNote()
		if a.all {
			head = th.Title.Render("All activities") + a.allNote()
		}
	}
	var body string
	if a.detail != nil {
		if pos := a.list.Pane.Position(); pos != "" {
			head += th.Muted.Render("  (" + pos + ", ↑/↓ scroll)")
		}
	}
	body = a.list.View()
	return ansi.Truncate(head, width, "…") + "\n" + body
}

// pendingNote follows the Pending view's title: how many pending activities
// the page shows, that older ones follow (or that a look for them failed),
// and which page. A page may be shorter than asked (large activities), so
// without this a voter would take it for all of them.
func (a *Activities) pendingNote() string {
	th := a.c.Theme
	pending, kept := a.pendingRows()
	count := fmt.Sprintf("  %d pending", pending)
	if kept > 0 {
		// Settled rows stay under the cursor with their final status: said,
		// so that the count is of the ones still waiting for votes.
		count += fmt.Sprintf(", %d settled", kept)
	}
	// An older page hints its keys short: the count and that older ones
	// follow must fit 80 columns with the page said.
	follow, page := "; older pending follow: ] pages on", ""
	if a.paged() {
		follow, page = "; older pending follow: ]", th.Muted.Render("  older page, [ back")
		if a.newerUnknown != "" {
			// Kept as the page asked for, though it may be the newest.
			page = th.Warn.Render("  newer: unknown, [ back")
		}
	}
	// Why comes last, the part a narrow terminal may cut.
	why := a.probeFailed()
	switch {
	case a.olderUnknown != "":
		// Not "none": the backlog may go on.
		return th.Warn.Render(count+"; older pending: unknown") + page + why
	case a.older:
		return th.Warn.Render(count+follow) + page + why
	case page != "":
		return page + why
	}
	return th.Muted.Render("  needing consensus")
}

// allNote follows the All view's title: its filter and page, and, when a
// look for older or newer activities failed, that whether any follow is
// unknown, said first so that it fits 80 columns with the filter.
func (a *Activities) allNote() string {
	th := a.c.Theme
	var unknown []string
	if a.olderUnknown != "" {
		unknown = append(unknown, "older")
	}
	if a.newerUnknown != "" {
		unknown = append(unknown, "newer")
	}
	note := ""
	if len(unknown) > 0 {
		note = th.Warn.Render("  " + strings.Join(unknown, " and ") + ": unknown")
	}
	st, ty := filterText(a.statuses, shortStatus), filterText(a.types, shortType)
	page := "newest"
	if a.paged() {
		page = "paged"
	}
	return note + th.Muted.Render("  status: "+st+"  type: "+ty+"  page: "+page) + a.probeFailed()
}

// probeFailed says why the look for older (else newer) activities failed,
// "" when none did.
func (a *Activities) probeFailed() string {
	why := a.olderUnknown
	if why == "" {
		why = a.newerUnknown
	}
	if why == "" {
		return ""
	}
	return a.c.Theme.Warn.Render(" (probe failed: " + why + ")")
}

// pendingRows counts the Pending view's rows still pending, and those kept
// after they settled (or while their final record is read).
func (a *Activities) pendingRows() (pending, kept int) {
	for _, it := range a.items {
		if a.settled[it.ID] != nil || a.isLeaving(it.ID) || it.Status != api.StatusConsensusNeeded {
			kept++
			continue
		}
		pending++
	}
	return pending, kept
}

// Keys implements Screen.
func (a *Activities) Keys() ui.KeyMap { return activitiesHelp{a} }

type activitiesHelp struct{ a *Activities }

func (h activitiesHelp) ShortHelp() []key.Binding {
	k, a := h.a.keys, h.a
	if a.list.Filtering() {
		return []key.Binding{a.list.Table.Keys.AcceptFilter, a.list.Table.Keys.ClearFilter, a.list.Table.Keys.FilterMove}
	}
	if a.detail != nil {
		return []key.Binding{k.Approve, k.Reject, k.CopyID, k.Refresh, a.list.Keys.Back}
	}
	return []key.Binding{a.list.Keys.Open, k.Approve, k.Reject, k.Filter, k.Mode, a.list.Keys.Sort, k.Refresh}
}

// FullHelp lists every key of the screen: the list's movement (or, with an
// activity open, the detail's scrolling) and filter, then the actions.
func (h activitiesHelp) FullHelp() [][]key.Binding {
	k, l := h.a.keys, h.a.list
	move := []key.Binding{k.Up, k.Down, l.Table.Keys.PageUp, l.Table.Keys.PageDown, l.Table.Keys.Top, l.Table.Keys.Bottom, k.Filter}
	if h.a.detail != nil {
		move = append(append([]key.Binding{k.Up, k.Down}, l.Pane.KeyBindings()[2:]...), k.Filter)
	}
	// In an open activity the list's own keys (open, sort, v, s, t, the
	// pages) show struck through (syncKeys), as docs/console.md says.
	return fullHelp(h.a.KeyActions(), move)
}

// filterText is a filter's values for the heading: "any", or the short names.
func filterText(values []string, short func(string) string) string {
	if len(values) == 0 {
		return "any"
	}
	return strings.Join(shortLabels(values, short), ", ")
}
