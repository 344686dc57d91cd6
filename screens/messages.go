package screens

import (
	"fmt"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/vigil-console/vigil/ui"
	"github.com/vigil-console/vigil/ui/theme"
)

// messageKind sorts what the session said to the user.
type messageKind int

const (
	messageInfo  messageKind = iota // a toast that reported success
	messageError                    // a failed action, a failed refresh
	messageVote                     // the outcome of a vote, sent or failed
)

// logEntry is one thing the console told the user, kept in full.
type logEntry struct {
	at   time.Time
	kind messageKind
	text string // cleaned when shown
}

// maxLogEntries bounds the session's messages; the oldest go first.
const maxLogEntries = 1000

// messageLog is every toast, error and vote result of the session. The root model
// appends to it as messages pass; the messages view reads it.
type messageLog struct {
	entries []logEntry
}

func (l *messageLog) add(at time.Time, kind messageKind, text string) {
	if text == "" {
		return
	}
	l.entries = append(l.entries, logEntry{at: at, kind: kind, text: text})
	if n := len(l.entries); n > maxLogEntries {
		l.entries = append(l.entries[:0:0], l.entries[n-maxLogEntries:]...)
	}
}

// messagesDialog shows the log, newest first, wrapped (never cut), scrollable.
type messagesDialog struct {
	th            *theme.Theme
	log           *messageLog
	pane          ui.Detail
	shown         int // entries in the pane's content
	width, height int // of the box
	keys          messagesKeys
}

type messagesKeys struct {
	Close key.Binding
	Up    key.Binding
	Down  key.Binding
	Page  key.Binding
}

const messagesID = "messages"

func newMessagesDialog(th *theme.Theme, log *messageLog, closeKeys []string) *messagesDialog {
	return &messagesDialog{th: th, log: log, pane: ui.NewDetail(th), shown: -1, keys: messagesKeys{
		Close: key.NewBinding(key.WithKeys(append([]string{"esc", "q"}, closeKeys...)...), key.WithHelp("esc", "close")),
		Up:    key.NewBinding(key.WithKeys("up", "k"), key.WithHelp("↑/k", "up")),
		Down:  key.NewBinding(key.WithKeys("down", "j"), key.WithHelp("↓/j", "down")),
		Page:  key.NewBinding(key.WithKeys("pgup", "pgdown"), key.WithHelp("pgup/pgdn", "page")),
	}}
}

func (d *messagesDialog) ID() string { return messagesID }

func (d *messagesDialog) Update(msg tea.Msg) (Dialog, tea.Cmd) {
	if k, ok := msg.(tea.KeyPressMsg); ok && key.Matches(k, d.keys.Close) {
		return nil, nil
	}
	d.content() // entries may have arrived since the last key
	var cmd tea.Cmd
	d.pane, cmd = d.pane.Update(msg)
	return d, cmd
}

// SetSize sizes the box to the body it is drawn over (the root calls it when the
// dialog opens and when the window changes).
func (d *messagesDialog) SetSize(width, height int) {
	d.width, d.height = max(width-4, 10), max(height-2, 3)
	// The box's border takes 2 columns and 2 lines, its padding 2 more columns;
	// the heading takes a line.
	d.pane.SetSize(d.innerWidth(), max(d.height-3, 1))
	d.content()
}

func (d *messagesDialog) innerWidth() int { return max(d.width-4, 6) }

func (d *messagesDialog) Keys() ui.KeyMap { return messagesHelp{d.keys} }

type messagesHelp struct{ k messagesKeys }

func (h messagesHelp) ShortHelp() []key.Binding {
	return []key.Binding{h.k.Up, h.k.Down, h.k.Page, h.k.Close}
}
func (h messagesHelp) FullHelp() [][]key.Binding { return [][]key.Binding{h.ShortHelp()} }

// content rebuilds the pane's text when entries were added since.
func (d *messagesDialog) content() {
	if d.shown == len(d.log.entries) {
		return
	}
	d.shown = len(d.log.entries)
	d.pane.SetContent(messagesText(d.th, d.log.entries))
	d.pane.GotoTop()
}

// messagesText is the log, newest first, one entry a line (the pane wraps them).
func messagesText(th *theme.Theme, entries []logEntry) string {
	b := ui.NewDetailBuilder(th)
	if len(entries) == 0 {
		b.Line("Nothing yet: notices, errors and vote results of this session appear here.")
	}
	for i := len(entries) - 1; i >= 0; i-- {
		e := entries[i]
		mark, style := "✓", th.Good
		switch e.kind {
		case messageError:
			mark, style = "✗", th.Bad
		case messageVote:
			mark, style = "◆", th.Title
		}
		b.Styled(th.Muted.Render(e.at.Format("15:04:05")) + " " + style.Render(mark) + " " + ui.Clean(e.text))
	}
	return b.String()
}

// View draws the box; it changes nothing (a copy of the pane picks up entries
// that arrived since the last key).
func (d *messagesDialog) View(th *theme.Theme, _, _ int) string {
	pane := d.pane
	if d.shown != len(d.log.entries) {
		pane.SetContent(messagesText(th, d.log.entries))
		pane.GotoTop()
	}
	head := th.Title.Render("Messages") + th.Muted.Render(fmt.Sprintf("  %d this session, newest first", len(d.log.entries)))
	if pos := pane.Position(); pos != "" {
		head += th.Muted.Render("  (" + pos + ")")
	}
	body := ansi.Truncate(head, d.innerWidth(), "…") + "\n" + pane.View()
	return th.Dialog.Padding(0, 1).Width(d.width).Render(lipgloss.PlaceVertical(max(d.height-2, 1), lipgloss.Top, body))
}
