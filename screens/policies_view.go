package screens

import (
	"fmt"
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	"github.com/charmbracelet/x/ansi"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/policy"
	"github.com/vigil-console/vigil/ui"
	"github.com/vigil-console/vigil/ui/theme"
)

func policyColumns() []ui.Column {
	return []ui.Column{
		{Title: "NAME", Width: 16, Max: 40, Grow: true},
		{Title: "EFFECT", Width: 6},
		{Title: "CONDITION", Width: 16},
		{Title: "CONSENSUS", Width: 12},
		{Title: "UPDATED", Width: 7},
	}
}

func evaluationColumns() []ui.Column {
	return []ui.Column{
		{Title: "AGE", Width: 4},
		{Title: "WHAT", Width: 16, Max: 36},
		{Title: "OUTCOME", Width: 18},
		{Title: "WHY", Width: 20, Grow: true},
	}
}

// oneLine squeezes an expression onto one line.
func oneLine(s string) string {
	// Comments go first: joined, one would hide the lines after it.
	if s = strings.Join(strings.Fields(policy.OneLine(s)), " "); s == "" {
		return "(always)"
	}
	return s
}

// oneLines remembers the one-line form of the expressions the list's rows
// show: the rows are rebuilt at every clock tick, seen or not (their ages
// count up), and tokenizing every condition and consensus again took most
// of a tick's time on an organization of thousands of policies. A rebuild
// keeps only the texts it used, so the memo holds no more than the list.
type oneLines struct{ memo, used map[string]string }

// of is oneLine(s), from the memo when s was shown before.
func (o *oneLines) of(s string) string {
	line, ok := o.memo[s]
	if !ok {
		line = oneLine(s)
	}
	if o.used == nil {
		o.used = map[string]string{}
	}
	o.used[s] = line
	return line
}

// done ends a rebuild: the texts it used are the memo of the next.
func (o *oneLines) done() { o.memo, o.used = o.used, nil }

func shortOutcome(o string) string {
	if o == "" {
		return "?"
	}
	return strings.TrimPrefix(o, "OUTCOME_")
}

// setFailed says, in place of the empty text, that the view showing never
// loaded: the policies, or the recent evaluations (loaded later, on demand).
// Once loaded, a failed refresh keeps the rows; the status bar marks them
// stale.
func (p *Policies) setFailed() {
	switch {
	case p.evals && p.recentErr != "":
		p.list.Table.Failed = notLoaded(p.recentFetched, p.recentErr)
	case p.evals || p.err == "":
		p.list.Table.Failed = ""
	default:
		p.list.Table.Failed = notLoaded(p.fetched, p.err)
	}
}

// setRows rebuilds the list from the data, for the view showing.
func (p *Policies) setRows() {
	p.refreshHeld()
	p.setFailed()
	now := p.c.Now()
	if p.evals {
		p.list.Table.Empty = "no recent activity has been evaluated"
		p.list.Table.Loading = "loading the recent evaluations…"
		p.list.Table.SetRead(p.recentLoaded)
		var rows []ui.Row
		for _, ra := range p.data.recent {
			if ra.err != "" {
				rows = append(rows, ui.Row{ID: ra.act.ID, Cells: []string{
					ui.Ago(now, ra.act.CreatedAt.Time()), intentWhat(p.c, &ra.act), "?", "evaluations could not be read: " + ra.err,
				}, Sort: []string{ageSortKey(ra.act.CreatedAt.Time())}, Search: "unread " + shortType(ra.act.Type)})
				continue
			}
			if ra.last == nil {
				continue
			}
			names := make([]string, 0, len(ra.last.Policies))
			for _, l := range ra.last.Policies {
				names = append(names, l.Name, l.Shown)
			}
			rows = append(rows, ui.Row{ID: ra.act.ID, Cells: []string{
				ui.Ago(now, ra.act.CreatedAt.Time()), intentWhat(p.c, &ra.act), shortOutcome(ra.last.Outcome), ra.last.BriefWhy(briefPolicies),
			}, Sort: []string{ageSortKey(ra.act.CreatedAt.Time())},
				Search: ra.last.Outcome + " " + shortType(ra.act.Type) + " " + strings.Join(names, " ")})
		}
		p.list.SetRows(rows)
	} else {
		p.list.Table.Empty = "no policies — press n to create one"
		p.list.Table.Loading = "loading the policies…"
		p.list.Table.SetRead(!p.fetched.IsZero())
		rows := make([]ui.Row, len(p.data.policies))
		for i, pol := range p.data.policies {
			rows[i] = ui.Row{ID: pol.PolicyID, Cells: []string{
				api.NameText(pol.PolicyName), p.effectCell(pol), p.lines.of(pol.Condition), p.lines.of(pol.Consensus),
				ui.Ago(now, pol.UpdatedAt.Time()),
			}, Sort: []string{"", "", "", "", ageSortKey(pol.UpdatedAt.Time())}, Search: pol.Notes + " " + pol.PolicyID}
		}
		p.lines.done()
		p.list.SetRows(rows)
	}
	p.setPreview()
}

// setPreview puts the selected row's why (evaluations) or notes under the list.
func (p *Policies) setPreview() {
	th := p.c.Theme
	switch {
	case p.selectedRecent() != nil && p.selectedRecent().last == nil:
		p.list.SetPreview(th.Bad.Render("evaluations could not be read: " + ui.Clean(p.selectedRecent().err)))
	case p.selectedRecent() != nil:
		ra := p.selectedRecent()
		p.list.SetPreview(outcomeStyle(th, ra.last.Outcome).Render(shortOutcome(ra.last.Outcome)) + "  " + ui.Clean(ra.last.BriefWhy(briefPolicies)))
	case p.selectedPolicy() != nil:
		pol := p.selectedPolicy()
		if u, ok := p.data.ctx.unreadableByID(pol.PolicyID); ok {
			p.list.SetPreview(th.Warn.Render(ui.Clean(unreadableText(u))))
			return
		}
		p.list.SetPreview(th.Label.Render("condition ") + highlightExpr(th, oneLine(pol.Condition)))
	default:
		p.list.SetPreview("")
	}
}

// highlightExpr styles a one-line expression by its tokens (policy.Tokens).
// Text that cleaning changes (control characters, escape sequences,
// invisible characters) is shown cleaned and unstyled, in one piece, so that
// an escaped sequence reads as one visible string. A detail draws a stored
// expression with exprLines, keeping its lines.
func highlightExpr(th *theme.Theme, src string) string {
	if clean := ui.Clean(src); clean != src {
		return clean
	}
	return styleTokens(th, policy.Tokens(src))
}

// decided lists the recent activities whose last evaluation this policy
// decided (allowed, denied, or is waiting on), newest first. A rejection's
// evaluation is not one: it records what the policies gave, but the service
// decided by the rejection alone (policy.StoredOutcome); nor is an allow or
// deny whose vote is not returned on an activity that still waits.
func (p *Policies) decided(id string) []recentActivity {
	var out []recentActivity
	for _, ra := range p.data.recent {
		if ra.last == nil || len(ra.evals) == 0 {
			continue
		}
		last := ra.evals[len(ra.evals)-1]
		kind := policy.StoredOutcome(ra.act, last)
		if kind.Decided && !kind.NotReturned {
			continue
		}
		for _, o := range last.PolicyEvaluations {
			if kind.Waiting && ra.rereadErr == "" && o.Outcome != api.OutcomeRequiresConsensus {
				continue // the activity still waits: this stored outcome decided nothing
			}
			if o.PolicyID == id && (o.Outcome == api.OutcomeAllow || o.Outcome == api.OutcomeDenyExplicit || o.Outcome == api.OutcomeRequiresConsensus) {
				out = append(out, ra)
			}
		}
	}
	return out
}

// renderDetail renders the open policy or evaluation into the pane.
func (p *Policies) renderDetail() {
	if !p.list.IsOpen() {
		return
	}
	th := p.c.Theme
	now := p.c.Now()
	b := ui.NewDetailBuilder(th)
	if note := p.goneNote(); note != "" {
		b.Styled(th.Warn.Render(ui.Clean(note)))
	}
	if ra := p.selectedRecent(); ra != nil {
		b.Field("Activity", api.SanitizeID(ra.act.ID))
		b.Field("What", intentWhat(p.c, &ra.act))
		b.Field("Status", shortStatus(ra.act.Status))
		if ra.err != "" {
			b.Section("Evaluations")
			b.Line("could not be read: " + ra.err + "; press r to try again")
		}
		for i, e := range ra.evals {
			b.Section(fmt.Sprintf("Evaluation %d of %d — %s", i+1, len(ra.evals), fmtTime(now, e.CreatedAt)))
			if ex, ok := p.explained.of(p.data.ctx, ra.act, e); ok {
				writeExplained(b, th, explainedAfter(ex, ra.act, e, ra.rereadErr))
			} else {
				b.Styled(th.Muted.Render("explaining…")) // in a command (explainOpen)
			}
		}
		p.list.SetDetail(b.String())
		return
	}
	pol := p.selectedPolicy()
	if pol == nil {
		p.list.SetDetail("")
		return
	}
	b.Field("Name", api.Quote(pol.PolicyName))
	effect := pol.Effect
	if !slices.Contains(api.Effects(), effect) {
		effect = api.EffectText(effect)
	}
	b.Field("Effect", effect)
	if u, ok := p.data.ctx.unreadableByID(pol.PolicyID); ok {
		b.Styled(th.Warn.Render(ui.Clean(unreadableText(u))))
	}
	b.Field("Policy id", api.SanitizeID(pol.PolicyID))
	b.Field("Created", fmtTime(now, pol.CreatedAt))
	b.Field("Updated", fmtTime(now, pol.UpdatedAt))
	b.Section("Condition")
	writeExpr(b, th, "condition", orAlways(pol.Condition))
	writeExprNames(b, th, exprNames(p.c, pol.Condition))
	b.Section("Consensus")
	writeExpr(b, th, "consensus", orAlways(pol.Consensus))
	writeExprNames(b, th, exprNames(p.c, pol.Consensus))
	if pol.Time != "" {
		// A policy active only at some times must not read as always active.
		b.Section("Time (when the policy is active)")
		writeExpr(b, th, "time", pol.Time)
		writeExprNames(b, th, exprNames(p.c, pol.Time))
	}
	b.Section("Notes")
	b.Line(orNone(pol.Notes))
	p.writeDecided(b, pol.PolicyID)
	p.list.SetDetail(b.String())
}

// writeDecided writes the recent activities the policy decided: "none" only
// when they were read, else that they are loading or why they are not.
func (p *Policies) writeDecided(b *ui.DetailBuilder, id string) {
	th, now := p.c.Theme, p.c.Now()
	if !p.recentLoaded {
		b.Section("Recent activities it decided")
		if p.recentErr != "" {
			b.Line("not loaded: " + p.recentErr + "; press r to try again")
		} else {
			b.Line("loading the recent activities…")
		}
		return
	}
	ds := p.decided(id)
	b.Section(fmt.Sprintf("Recent activities it decided (%d of the last %d)", len(ds), len(p.data.recent)))
	if p.data.unread > 0 {
		b.Styled(th.Warn.Render(ui.Clean(fmt.Sprintf("the evaluations of %d of them could not be read, so they are not counted (%s); press r to try again",
			p.data.unread, p.data.unreadErr))))
	}
	if p.recentErr != "" {
		b.Styled(th.Warn.Render(ui.Clean("not refreshed: " + p.recentErr + "; these are from the last load")))
	}
	if len(ds) == 0 {
		b.Line("none")
	}
	chosen := p.choice.index(activityIDs(decidedActivities(ds)))
	if chosen < 0 && len(ds) > 0 {
		b.Styled(th.Warn.Render(p.choice.goneText(p.keys.Up, p.keys.Down)))
	}
	for i, ra := range ds {
		b.Styled(p.choice.pointer(i, chosen, b.NextLine()) + outcomeStyle(th, ra.last.Outcome).Render(shortOutcome(ra.last.Outcome)) + "  " +
			ui.Clean(intentWhat(p.c, &ra.act)) + th.Muted.Render("  "+ui.Clean(api.SanitizeID(ra.act.ID))+"  "+ui.Ago(now, ra.act.CreatedAt.Time())+" ago"))
	}
}

// writeExplained writes an explained evaluation: the outcome and why, then a
// line per policy.
func writeExplained(b *ui.DetailBuilder, th *theme.Theme, ex explained) {
	if ex.Differs {
		b.Styled(th.Muted.Render(ui.Clean(ex.Why)))
	} else {
		b.Styled(outcomeStyle(th, ex.Outcome).Render(shortOutcome(ex.Outcome)) + "  " + ui.Clean(ex.Why))
	}
	for _, l := range ex.Policies {
		line := "  " + shortOutcome(l.Shown) + "  " + policyLabel(l)
		if l.Detail != "" {
			line += " — " + l.Detail
		}
		b.Line(line)
	}
}

func orAlways(s string) string {
	if strings.TrimSpace(s) == "" {
		return "(empty: always true)"
	}
	return s
}

func orNone(s string) string {
	if s == "" {
		return "—"
	}
	return s
}

// View implements Screen.
func (p *Policies) View() string {
	th := p.c.Theme
	if p.editor != nil {
		return p.editor.view
	}
	head := th.Title.Render("Policies") + th.Muted.Render("  "+p.list.Table.CountText(len(p.data.policies)))
	if p.evals {
		head = th.Title.Render("Recent evaluations") + th.Muted.Render("  of the last "+p.list.Table.CountText(len(p.data.recent))+" activities  (/ filters by outcome or policy)")
	}
	if p.list.IsOpen() {
		if pos := p.list.Pane.Position(); pos != "" {
			head += th.Muted.Render("  (" + pos + ", ↑/↓ scroll)")
		}
	} else if s := p.list.SortHelp(); s != "" {
		head += th.Muted.Render("  " + s)
	}
	return ansi.Truncate(head, p.width, "…") + "\n" + p.list.View()
}

// Keys implements Screen.
func (p *Policies) Keys() ui.KeyMap { return policiesHelp{p} }

type policiesHelp struct{ p *Policies }

func (h policiesHelp) ShortHelp() []key.Binding {
	k := h.p.keys
	l := h.p.list.Keys
	if h.p.editor != nil {
		f := h.p.editor.form.Keys
		return []key.Binding{f.Next, f.Prev, f.Left, k.Simulate, f.Submit, f.Cancel}
	}
	if t := h.p.list.Table.Keys; h.p.list.Filtering() {
		return []key.Binding{t.AcceptFilter, t.ClearFilter, t.FilterMove}
	}
	if h.p.list.IsOpen() {
		if k.OpenActivity.Enabled() {
			return []key.Binding{k.Up, k.Down, k.OpenActivity, k.CopyID, l.Back}
		}
		return []key.Binding{k.Up, k.Down, k.CopyID, l.Back}
	}
	return []key.Binding{k.Up, k.Down, l.Open, h.p.list.Table.Keys.Filter, k.Create, k.Evaluations, l.Sort, k.Refresh}
}

func (h policiesHelp) FullHelp() [][]key.Binding {
	k := h.p.keys
	return fullHelp(h.p.KeyActions(), []key.Binding{k.Up, k.Down, h.p.list.Table.Keys.Filter}, listMoveKeys(&h.p.list))
}

// effectCell is a policy's effect in the list, marked when this console
// cannot read the policy (it then leaves it out of every explanation and
// simulation).
func (p *Policies) effectCell(pol api.Policy) string {
	effect := api.EffectText(pol.Effect)
	if _, ok := p.data.ctx.unreadableByID(pol.PolicyID); ok {
		effect += " ⚠ unreadable"
	}
	return effect
}

// unreadableText says that this console cannot read a stored policy, why,
// and what follows for the explanations and simulations.
func unreadableText(u policy.UnreadablePolicy) string {
	what := "it is left out of the explanations and simulations here, so what it allowed reads as not reproducible"
	if u.Effect == api.EffectDeny {
		what = "every activity no explicit deny settles waits for the root quorum"
	}
	return "⚠ this console cannot read this policy (" + api.Sanitize(u.Err.Error()) + "): " + what +
		"; run the vigil that stored it"
}
