package screens

import (
	"fmt"
	"slices"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/vigil-console/vigil/policy"
	"github.com/vigil-console/vigil/ui"
)

// render lays out the editor: the form, then the simulation, in the body's
// size (width 0 keeps the last one). When they do not fit, the title and the
// last errors (the submit's and the simulation's) stay in sight, and the rest
// scrolls to the focused field, with the lines hidden above and below it
// counted, as the operation forms' dialogs do; the simulation's rows shrink
// to the room under the part of the form in sight.
func (e *policyEditor) render(c *Common, width int) {
	th := c.Theme
	if width <= 0 {
		width = e.width
	}
	e.width = width
	form, first, last := e.form.Lines(th, width)
	notes := editorNotes(th, width, e.err, e.earlier)
	var simErr []string
	if e.simErr != "" {
		for _, l := range ui.WrapLines(ui.Clean(e.simErr), max(width, 10)) {
			simErr = append(simErr, th.Bad.Render(l))
		}
	}
	rows := slices.Clone(e.sim)
	// Lock-outs first, then changes: those are kept when rows are cut.
	slices.SortStableFunc(rows, func(x, y simRow) int { return rank(x) - rank(y) })
	fitWidth := func(lines []string) []string {
		for i := range lines {
			lines[i] = ansi.Truncate(lines[i], max(width, 1), "…")
		}
		return lines
	}

	all := append(append(slices.Clone(form), notes...), e.simLines(c, width, simErr)...)
	all = fitWidth(append(all, e.rowLines(c, rows, width, len(rows))...))
	if e.height <= 0 || len(all) <= e.height {
		e.view = strings.Join(all, "\n")
		return
	}

	// Too tall: the title on top, and under the rest the errors, which
	// say why a submit or ctrl+r did nothing. The form's lines start with
	// the title and a blank line.
	head, fields := form[:min(1, len(form))], form[min(2, len(form)):]
	skip := len(form) - len(fields)
	first, last = max(first-skip, 0), max(last-skip, 0)
	foot := slices.Clone(notes)
	if len(simErr) > 0 {
		foot = append(append(foot, ""), simErr...)
	}
	body := append(slices.Clone(fields), e.simLines(c, width, nil)...)
	// As many rows as fit under the part of the body in sight: the body
	// scrolled to the focus leaves room from its end (a mark above it
	// takes a line).
	room := e.height - len(head) - len(foot)
	if start := ui.ScrollStart(len(body), room-1, first, last); start > 0 {
		room--
		room -= len(body) - start
	} else {
		room -= len(body)
	}
	body = append(body, e.rowLines(c, rows, width, max(room, 1))...)
	e.view = strings.Join(pinnedLines(th, fitWidth(head), fitWidth(body), first, last, fitWidth(foot), width, e.height), "\n")
}

// simLines are the simulation's heading and what it says about the rows:
// that it has not run, has nothing to run over, is stale, locks the
// organization out, or may be wrong. simErr, when given, is said under the
// heading.
func (e *policyEditor) simLines(c *Common, width int, simErr []string) []string {
	th := c.Theme
	var lines []string
	add := func(s string) { lines = append(lines, strings.Split(s, "\n")...) }
	add("")
	add(th.Section.Render("Simulation") +
		th.Muted.Render(ansi.Truncate("  today → with the draft (current policies + draft, as the service decides)", max(width-10, 1), "…")))
	switch {
	case e.simErr != "":
		lines = append(lines, simErr...)
	case e.sim == nil:
		add(th.Muted.Render("press ctrl+r to run the draft over recent activities"))
	case len(e.sim) == 0:
		add(th.Muted.Render("no activity to simulate over"))
	}
	v := e.form.Values()
	if _, ok := policy.IrreversibleDeny(v["effect"], policy.Source{Condition: v["condition"], Consensus: v["consensus"], Time: v["time"]}, e.threshold); ok {
		// One line, in every layout; the confirm before submitting says it whole.
		add(th.Bad.Render(irreversibleLine))
	}
	stale := e.simStale()
	if stale {
		add(th.Warn.Render(ansi.Wrap("the draft changed since this simulation ran: its rows are an earlier draft's; ctrl+r runs it again", max(width, 10), " ")))
	}
	if locks := lockOuts(e.sim); locks > 0 {
		what := "activities"
		if locks == 1 {
			what = "activity"
		}
		whose := "the draft"
		if stale {
			whose = "the earlier draft"
		}
		add(th.Bad.Render(fmt.Sprintf("⚠ %s locks the organization out of %d %s it can do today", whose, locks, what)))
	}
	if doubt, n := doubts(e.sim); n > 0 {
		add(th.Warn.Render(strings.Join(ui.WrapLines(fmt.Sprintf("? %d of these predictions may be wrong (marked UNCERTAIN); the first: %s", n, ui.Clean(doubt)), max(width, 10)), "\n")))
	}
	if e.sim != nil && e.simUnreadable != "" {
		add(th.Warn.Render(strings.Join(ui.WrapLines("⚠ left out (what it allowed is not seen here): "+ui.Clean(e.simUnreadable), max(width, 10)), "\n")))
	}
	return lines
}

// irreversibleLine is the editor's line for a deny that can fail every
// later create_policy (policy.IrreversibleDeny).
const irreversibleLine = "⚠ irreversible: can fail every create_policy; no policy can be deleted"

// rowLines are at most room lines of the simulation's rows, in order: when
// they do not all fit, the last line counts those left out.
func (e *policyEditor) rowLines(c *Common, rows []simRow, width, room int) []string {
	th := c.Theme
	var lines []string
	more := ""
	if len(rows) > room {
		hidden := rows[room-1:]
		changed := 0
		for _, r := range hidden {
			if r.today != r.withDraft {
				changed++
			}
		}
		rows = rows[:room-1]
		more = th.Muted.Render(fmt.Sprintf("… %d more activities (%d change); choose one under Simulate over to see it", len(hidden), changed))
	}
	for _, r := range rows {
		line := fmt.Sprintf("%s → %s  %s  by %s — %s", shortOutcome(r.today), shortOutcome(r.withDraft), ui.Clean(r.what), ui.Clean(r.decider), ui.Clean(r.why))
		style := th.Row
		switch {
		case r.unread:
			style, line = th.Warn, "? "+ui.Clean(r.why)+" — "+ui.Clean(r.what)
		case r.locksOut:
			style, line = th.Bad, "⚠ LOCKS OUT  "+line
		case r.doubt != "":
			style = th.Warn
		case r.today != r.withDraft:
			style = th.Warn
		}
		if r.doubt != "" {
			line = "? UNCERTAIN  " + line
		}
		lines = append(lines, style.Render(ansi.Truncate(line, max(width, 10), "…")))
	}
	if more != "" {
		lines = append(lines, more)
	}
	return lines
}

// lockOuts counts the rows whose activity the draft locks out.
func lockOuts(rows []simRow) int {
	n := 0
	for _, r := range rows {
		if r.locksOut {
			n++
		}
	}
	return n
}

// doubts counts the rows whose prediction is uncertain, and gives the first's doubt.
func doubts(rows []simRow) (first string, n int) {
	for _, r := range rows {
		if r.doubt != "" {
			if n == 0 {
				first = r.doubt
			}
			n++
		}
	}
	return first, n
}

// rank orders simulation lines: lock-outs, then changes, then the rest.
func rank(r simRow) int {
	switch {
	case r.locksOut:
		return 0
	case r.today != r.withDraft || r.unread || r.doubt != "":
		return 1
	}
	return 2
}
