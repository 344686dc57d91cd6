package ui

import (
	"fmt"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/vigil-console/vigil/ui/theme"
)

// Status is what the status bar shows.
type Status struct {
	Profile     string
	Org         string
	User        string
	Key         string // how the stamping key is held ("file key", "agent key", …); "" = not shown
	ReadOnly    bool
	AutoRefresh time.Duration // 0 = off
	AutoPaused  bool          // off because the user paused it (p), not because the screen has none
	LastRefresh time.Time     // zero = never
	// Stale: the last refresh failed, so what shows is from LastRefresh
	// and may be out of date; the time is marked "stale:".
	Stale   bool
	Busy    string // what is in flight ("" = nothing); shown with the spinner
	Spinner string // the spinner frame
	Err     string // the latest error, shown until the next success
	Now     time.Time
	// ClockSkew is how far the service's clock is ahead of this machine's
	// (negative: behind); beyond ClockSkewShown the bar says so, since every
	// time shown is the service's.
	ClockSkew time.Duration
}

// ClockSkewShown is the least clock skew the status bar mentions.
const ClockSkewShown = time.Minute

// minErrWidth is the least the status bar keeps for an error: its ✗ and
// enough words to say what failed.
const minErrWidth = 24

// StatusBar renders s on one line of width cells. Server strings are cleaned.
func StatusBar(th *theme.Theme, s Status, width int) string {
	var parts []string
	if s.Profile != "" {
		parts = append(parts, th.Badge.Render(Clean(s.Profile)))
	}
	if s.ReadOnly {
		parts = append(parts, th.Badge.Render("READ-ONLY"))
	}
	if note := clockSkewNote(s.ClockSkew); note != "" {
		// Before the rest, so a narrow window cuts other parts first.
		parts = append(parts, th.StatusWarn.Render(" "+note+" "))
	}
	var text []string
	who := Clean(s.Org)
	if s.User != "" {
		who += " · " + Clean(s.User)
	}
	text = append(text, who)
	if s.Key != "" {
		text = append(text, Clean(s.Key))
	}
	if s.Busy != "" {
		text = append(text, s.Spinner+" "+Clean(s.Busy))
	}
	if !s.LastRefresh.IsZero() {
		// Labelled with the zone, the console's (the clock's), as every
		// time the console writes is.
		refreshed := "refreshed " + s.LastRefresh.In(s.Now.Location()).Format("15:04:05 MST") + " (" + Ago(s.Now, s.LastRefresh) + " ago)"
		if s.Stale {
			refreshed = "stale: " + refreshed
		}
		text = append(text, refreshed)
	}
	switch {
	case s.AutoRefresh > 0:
		text = append(text, "auto "+s.AutoRefresh.String())
	case s.AutoPaused:
		text = append(text, "auto paused (p resumes)")
	default:
		text = append(text, "auto off")
	}
	parts = append(parts, th.StatusBar.Render(" "+strings.Join(nonEmpty(text), "  ")+" "))
	line := strings.Join(parts, "")
	if s.Err != "" {
		// The error is cut last: it keeps what it needs, up to half the bar
		// (at least minErrWidth), and the parts before it are cut first.
		errText := "✗ " + Clean(s.Err) + " "
		errW := min(ansi.StringWidth(errText), width)
		keep := min(errW, max(width/2, minErrWidth))
		errW = max(keep, min(errW, width-ansi.StringWidth(line)))
		line = ansi.Truncate(line, max(width-errW, 0), "…") + th.StatusError.Render(ansi.Truncate(errText, errW, "…"))
	}
	line = ansi.Truncate(line, width, "…")
	if pad := width - ansi.StringWidth(line); pad > 0 {
		line += th.StatusBar.Render(strings.Repeat(" ", pad))
	}
	return line
}

// clockSkewNote says that the service's clock differs from this machine's
// by more than ClockSkewShown, and that the times shown are the service's.
func clockSkewNote(skew time.Duration) string {
	if skew.Abs() <= ClockSkewShown {
		return ""
	}
	way := "ahead of"
	if skew < 0 {
		way = "behind"
	}
	return "service clock " + HumanDuration(skew.Abs().Round(time.Minute)) + " " + way + " this machine's: times shown are the service's"
}

func nonEmpty(ss []string) []string {
	out := ss[:0]
	for _, s := range ss {
		if strings.TrimSpace(s) != "" {
			out = append(out, s)
		}
	}
	return out
}

// Ago renders the time from then to now briefly: "12s", "5m", "3h", "2d".
// A then after now reads "0s": ages of the service's records are by the
// service's own clock, so only rounding puts them ahead. An age by this
// machine's clock of a time another clock signed (a boot proof) must say
// when it is in the future (FutureBy, AgePhrase) instead.
func Ago(now, then time.Time) string {
	d := now.Sub(then)
	switch {
	case d < 0:
		return "0s"
	case d < time.Minute:
		return fmt.Sprintf("%ds", int(d.Seconds()))
	case d < time.Hour:
		return fmt.Sprintf("%dm", int(d.Minutes()))
	case d < 48*time.Hour:
		return fmt.Sprintf("%dh", int(d.Hours()))
	}
	return fmt.Sprintf("%dd", int(d.Hours()/24))
}

// ToastMsg asks the root model to show a short notice. Screens send it through a
// command after an action finishes ("approved", "copied id").
type ToastMsg struct {
	Text string
	Bad  bool
	// Logged: the sender has put this notice in the session's messages
	// already, in full (a vote's outcome, with the activity's id), so the
	// root shows it without logging it again.
	Logged bool
}

// Toast returns a command that shows a toast.
func Toast(text string, bad bool) tea.Cmd {
	return func() tea.Msg { return ToastMsg{Text: text, Bad: bad} }
}

// toastExpiredMsg removes the toast with this id.
type toastExpiredMsg struct{ id int }

// Toasts is a short stack of notices that expire on their own.
type Toasts struct {
	TTL time.Duration
	// Tick schedules the expiry; nil means tea.Tick. Tests replace it.
	Tick  func(time.Duration, func(time.Time) tea.Msg) tea.Cmd
	items []toast
	next  int
}

type toast struct {
	id   int
	text string
	bad  bool
}

// Push adds a toast and returns the command that expires it. At most three are kept.
func (ts *Toasts) Push(m ToastMsg) tea.Cmd {
	ts.next++
	ts.items = append(ts.items, toast{id: ts.next, text: Clean(m.Text), bad: m.Bad})
	if len(ts.items) > 3 {
		ts.items = ts.items[len(ts.items)-3:]
	}
	ttl := ts.TTL
	if ttl <= 0 {
		ttl = 4 * time.Second
	}
	id := ts.next
	tick := ts.Tick
	if tick == nil {
		tick = tea.Tick
	}
	return tick(ttl, func(time.Time) tea.Msg { return toastExpiredMsg{id: id} })
}

// Update removes expired toasts; it reports whether msg was a toast expiry.
func (ts *Toasts) Update(msg tea.Msg) bool {
	e, ok := msg.(toastExpiredMsg)
	if !ok {
		return false
	}
	for i, t := range ts.items {
		if t.id == e.id {
			ts.items = append(ts.items[:i:i], ts.items[i+1:]...)
			break
		}
	}
	return true
}

// Len is the number of toasts showing.
func (ts Toasts) Len() int { return len(ts.items) }

// Lines renders the toasts, newest last, one line each, at most width cells.
func (ts Toasts) Lines(th *theme.Theme, width int) []string {
	var out []string
	for _, b := range ts.Blocks(th, width, 1) {
		out = append(out, b...)
	}
	return out
}

// Blocks renders the toasts, newest last, each word-wrapped to width cells on at
// most maxLines lines (a longer one ends in …), continuation lines indented
// under the text.
func (ts Toasts) Blocks(th *theme.Theme, width, maxLines int) [][]string {
	var out [][]string
	maxLines = max(maxLines, 1)
	for _, t := range ts.items {
		style := th.Good
		mark := "✓ "
		if t.bad {
			style, mark = th.Bad, "✗ "
		}
		lines := WrapLines(t.text, max(width-2, 1))
		if len(lines) > maxLines {
			lines = lines[:maxLines]
			lines[maxLines-1] = ansi.Truncate(lines[maxLines-1]+" …", max(width-2, 1), "…")
		}
		block := make([]string, len(lines))
		for i, l := range lines {
			prefix := "  "
			if i == 0 {
				prefix = mark
			}
			block[i] = style.Render(prefix + l)
		}
		out = append(out, block)
	}
	return out
}
