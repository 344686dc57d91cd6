package screens

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/charmbracelet/x/ansi"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/ui/theme"
)

// toPolicies switches the harness to the Policies tab.
func (h *harness) toPolicies() *Policies {
	h.t.Helper()
	for i, s := range h.root.screens {
		if p, ok := s.(*Policies); ok {
			h.key(fmt.Sprint(i + 1))
			return p
		}
	}
	h.t.Fatal("no Policies screen")
	return nil
}

func (h *harness) plainFrame() string { return ansi.Strip(h.root.Render()) }

func TestPoliciesListAndDetail(t *testing.T) {
	h := newHarness(t, &fakeClient{activities: sampleActivities()}, false, 0)
	p := h.toPolicies()
	out := h.plainFrame()
	for _, want := range []string{"Ops need two approvers", "ALLOW", "activity.resource == 'USER'", "2d"} {
		if !strings.Contains(out, want) {
			t.Errorf("list lacks %q:\n%s", want, out)
		}
	}
	if len(h.fake.evalCalls) != 0 {
		t.Errorf("the list alone fetched evaluations: %v", h.fake.evalCalls)
	}
	h.key("enter")
	if !p.list.IsOpen() {
		t.Fatal("enter did not open the policy")
	}
	out = h.plainFrame()
	for _, want := range []string{"Policy id", "pol-ops", "Condition", "approvers.filter(u, u.tags.contains('ops')).count() >= 2",
		"bob and carol carry ops", "Recent activities it decided", "Created"} {
		if !strings.Contains(out, want) {
			t.Errorf("detail lacks %q:\n%s", want, out)
		}
	}
	if len(h.fake.evalCalls) == 0 {
		t.Error("opening a policy did not load the recent evaluations")
	}
	h.key("y")
	if c := h.clipboard(); len(c) == 0 || !strings.Contains(c[len(c)-1], "pol-ops") {
		t.Errorf("y copied %v", c)
	}
	h.key("esc")
	if p.list.IsOpen() {
		t.Error("esc did not close the detail")
	}
	before := h.fake.policyLists
	h.key("r")
	if h.fake.policyLists != before+1 {
		t.Errorf("r made %d list_policies calls, want 1", h.fake.policyLists-before)
	}
	h.key("o")
	if col, _ := p.list.Table.SortColumn(); col != 0 {
		t.Errorf("o sorts by column %d, want 0", col)
	}
}

// The condition in the detail is highlighted by token: with colour, the
// keyword and the string are styled differently from the plain text.
func TestPolicyDetailHighlights(t *testing.T) {
	fake := &fakeClient{activities: sampleActivities()}
	h := newHarnessWith(t, fake, fake, theme.Options{Dark: true}, 0)
	h.fake = fake
	h.toPolicies()
	h.key("enter")
	th := h.root.common.Theme
	out := h.root.Render()
	for _, want := range []string{th.ExprKeyword.Render("activity"), th.ExprString.Render("'USER'"), th.ExprNumber.Render("2")} {
		if !strings.Contains(out, want) {
			t.Errorf("detail lacks the highlighted %q", ansi.Strip(want))
		}
	}
}

func TestPoliciesEvaluationsView(t *testing.T) {
	fake := &fakeClient{activities: sampleActivities(), policies: []api.Policy{}}
	h := newHarness(t, fake, false, 0)
	p := h.toPolicies()
	h.key("e")
	if !p.evals {
		t.Fatal("e did not switch to the evaluations")
	}
	out := h.plainFrame()
	// A call per activity, and one more each after the one reload of the
	// policies that the unknown policy id the fake's evaluations name asks for.
	if !strings.Contains(out, "Recent evaluations") || len(fake.evalCalls) != 2*len(fake.activities) {
		t.Errorf("evaluations view: %d evaluation calls for %d activities, want two each\n%s", len(fake.evalCalls), len(fake.activities), out)
	}
	// The fake's evaluations name policies nobody knows: not reproducible,
	// and said so rather than explained wrongly.
	if !strings.Contains(out, "not reproducible") {
		t.Errorf("an evaluation of unknown policies is not marked:\n%s", out)
	}
	h.key("e")
	if p.evals {
		t.Error("e did not switch back")
	}
}

func TestPoliciesCreateIsUnavailableReadOnly(t *testing.T) {
	h := newHarness(t, &fakeClient{activities: sampleActivities()}, true, 0)
	p := h.toPolicies()
	h.key("n")
	if p.editor != nil {
		t.Fatal("the editor opened in read-only mode")
	}
	if !strings.Contains(h.plainFrame(), "read-only") {
		t.Errorf("n in read-only mode does not say why:\n%s", h.plainFrame())
	}
	if p.keys.Create.Enabled() {
		t.Error("create is enabled in read-only mode (help would not strike it)")
	}
	// Browsing still works.
	h.key("enter")
	if !p.list.IsOpen() {
		t.Error("read-only mode cannot open a policy")
	}
}

// openEditor opens the form and types a name; the focus is then on Name.
func openEditor(t *testing.T, h *harness) *Policies {
	t.Helper()
	p := h.toPolicies()
	h.key("n")
	if p.editor == nil || !p.Capturing() {
		t.Fatal("n did not open a capturing editor")
	}
	return p
}

func TestPolicyFormValidationErrors(t *testing.T) {
	tests := []struct {
		name      string
		condition string
		consensus string
		field     string
		want      string
	}{
		{"name required", "", "", "name", "Name is required"},
		{"condition syntax error", "activity.resource == ", "", "condition", "column"},
		{"condition unknown field", "activity.resourc == 'USER'", "", "condition", "resourc"},
		{"condition type error", "activity.resource == 1", "", "condition", "column"},
		{"consensus uses a condition keyword", "", "activity.resource == 'USER'", "consensus", "activity"},
		{"consensus not a bool", "", "approvers.count()", "consensus", "bool"},
		{"double quotes typo", "activity.resource == \"USER", "", "condition", "column"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fake := &fakeClient{activities: sampleActivities()}
			h := newHarness(t, fake, false, 0)
			p := openEditor(t, h)
			if tt.field != "name" {
				h.typeText("draft")
			}
			h.key("tab")
			h.key("tab")
			h.typeText(tt.condition)
			h.key("tab")
			h.typeText(tt.consensus)
			if tt.field != "name" {
				// Checked while typing, before any submit.
				if got := p.editor.form.Errors()[tt.field]; !strings.Contains(got, tt.want) {
					t.Errorf("live error of %s = %q, want it to mention %q", tt.field, got, tt.want)
				}
				if !strings.Contains(h.plainFrame(), "^") && strings.Contains(p.editor.form.Errors()[tt.field], "column") {
					t.Errorf("no caret marks the error:\n%s", h.plainFrame())
				}
			}
			h.key("ctrl+s")
			if len(fake.created) != 0 {
				t.Fatalf("submitted with an invalid %s: %+v", tt.field, fake.created)
			}
			if got := p.editor.form.Errors()[tt.field]; !strings.Contains(got, tt.want) {
				t.Errorf("error of %s after submit = %q, want %q", tt.field, got, tt.want)
			}
			if p.editor.form.Focused() != tt.field {
				t.Errorf("focus on %s, want the failing field %s", p.editor.form.Focused(), tt.field)
			}
		})
	}
}

func TestPolicyFormCreatesAndShowsTheActivity(t *testing.T) {
	fake := &fakeClient{activities: sampleActivities()}
	h := newHarness(t, fake, false, 0)
	p := openEditor(t, h)
	h.typeText("No deletes")
	h.key("tab")
	h.key("right") // EFFECT_DENY
	h.key("tab")
	h.typeText("activity.action == 'DELETE'")
	h.key("tab") // consensus
	h.key("tab") // time
	h.key("tab")
	h.typeText("by the console")
	h.key("ctrl+s")
	if len(fake.created) != 0 {
		t.Fatal("ctrl+s created the policy without asking")
	}
	if out := h.frame(); !strings.Contains(out, `Create policy "No deletes"?`) || !strings.Contains(out, "EFFECT_DENY") {
		t.Fatalf("the confirm does not name the policy and its effect:\n%s", out)
	}
	h.key("y")
	if len(fake.created) != 1 {
		t.Fatalf("created %d policies, want 1", len(fake.created))
	}
	got := fake.created[0]
	want := api.CreatePolicyParams{PolicyName: "No deletes", Effect: api.EffectDeny, Condition: "activity.action == 'DELETE'", Notes: "by the console"}
	if got != want {
		t.Errorf("create_policy with %+v, want %+v", got, want)
	}
	if p.editor != nil {
		t.Error("the editor stayed open after a successful create")
	}
	if h.root.ActiveTitle() != "Activities" || h.activities().detail == nil || h.activities().detail.activity.ID != "act-new-policy" {
		t.Errorf("not taken to the created activity: on %s", h.root.ActiveTitle())
	}
	said := false
	for _, e := range h.root.log.entries {
		said = said || strings.Contains(e.text, `create_policy "No deletes" submitted: activity act-new-policy waits for approvals`)
	}
	if !said {
		t.Errorf("no word on the proposed policy in the messages: %+v", h.root.log.entries)
	}
}

// esc closes an untouched editor at once; a draft is discarded only after
// "Discard this draft?", whose default (No, enter) keeps every field.
func TestPolicyEditorEscAsksBeforeDiscardingADraft(t *testing.T) {
	fake := &fakeClient{activities: sampleActivities()}
	h := newHarness(t, fake, false, 0)
	p := openEditor(t, h)
	h.key("esc")
	if p.editor != nil {
		t.Fatal("esc did not close an untouched editor")
	}
	p = openEditor(t, h)
	h.typeText("a long careful name")
	h.key("tab")
	h.key("tab")
	h.typeText("activity.resource == 'POLICY'")
	h.key("esc")
	if out := h.frame(); p.editor == nil || !strings.Contains(out, "Discard this draft?") {
		t.Fatalf("one esc discarded the draft:\n%s", out)
	}
	h.key("enter") // No
	if p.editor == nil || p.editor.form.Values()["name"] != "a long careful name" || p.editor.form.Values()["condition"] != "activity.resource == 'POLICY'" {
		t.Fatalf("No did not keep the draft:\n%s", h.frame())
	}
	h.key("esc")
	h.key("y")
	if p.editor != nil || len(fake.created) != 0 {
		t.Errorf("esc, y: editor open %v, created %d", p.editor != nil, len(fake.created))
	}
	if h.root.ActiveTitle() != "Policies" {
		t.Errorf("esc left the screen for %s", h.root.ActiveTitle())
	}
}

// ctrl+r runs the draft with the organization's policies over the recent
// activities: an unconditional deny locks out what today's policies allow
// and turns what waits into a denial. An activity the service keeps waiting
// is waiting today, even where its replay with today's policies says ALLOW
// (a policy created after its last approval): only the next approval decides.
func TestPolicyEditorSimulates(t *testing.T) {
	acts := sampleActivities()
	done := acts[0]
	done.ID, done.Status = "act-policy-done", api.StatusCompleted
	acts = append(acts, done)
	fake := &fakeClient{activities: acts, policies: []api.Policy{{PolicyID: "pol-open", PolicyName: "Policies are free",
		Effect: api.EffectAllow, Condition: "activity.resource == 'POLICY'"}}}
	h := newHarness(t, fake, false, 0)
	p := openEditor(t, h)
	h.key("ctrl+r")
	if p.editor.sim == nil {
		t.Fatalf("ctrl+r did not simulate: %q", p.editor.simErr)
	}
	h.typeText("Deny all")
	h.key("tab")
	h.key("right")
	h.key("ctrl+r")
	sim := p.editor.sim
	if len(sim) != len(acts) {
		t.Fatalf("simulated %d activities, want %d", len(sim), len(acts))
	}
	byID := map[string]simRow{}
	for _, r := range sim {
		byID[r.id] = r
	}
	if r := byID["act-policy-done"]; r.today != api.OutcomeAllow || r.withDraft != api.OutcomeDenyExplicit || !r.locksOut {
		t.Errorf("completed create_policy: %+v, want ALLOW → DENY_EXPLICIT flagged as a lock-out", r)
	}
	if r := byID["act-policy"]; r.today != api.OutcomeRequiresConsensus || r.withDraft != api.OutcomeDenyExplicit || !r.locksOut {
		t.Errorf("waiting create_policy: %+v, want REQUIRES_CONSENSUS → DENY_EXPLICIT flagged as a lock-out", r)
	}
	if r := byID["act-feature"]; r.today != r.withDraft || r.decider != "root quorum" || r.locksOut {
		t.Errorf("set_organization_feature is root-only, no policy changes it: %+v", r)
	}
	out := h.plainFrame()
	if !strings.Contains(out, "LOCKS OUT") || !strings.Contains(out, "ALLOW → DENY_EXPLICIT") {
		t.Errorf("the simulation does not show the lock-out:\n%s", out)
	}
	// One chosen activity.
	for range 5 {
		h.key("tab")
	}
	h.key("right") // the first recent activity
	h.key("ctrl+r")
	if len(p.editor.sim) != 1 {
		t.Errorf("simulating over one chosen activity gave %d rows", len(p.editor.sim))
	}
	// A draft that does not compile is not simulated.
	for range 4 {
		h.key("shift+tab")
	}
	h.typeText("(")
	h.key("ctrl+r")
	if !strings.Contains(p.editor.simErr, "does not compile") {
		t.Errorf("simulating a broken draft: %q", p.editor.simErr)
	}
}

// The confirm speaks only of a simulation of the draft being sent: an allow
// simulated, then turned into a deny (which locks out act-policy,
// TestPolicyEditorSimulates), is not presented as simulated; the panel says
// its rows are an earlier draft's; ctrl+r again makes the confirm warn.
func TestPolicyConfirmIgnoresTheSimulationOfAnEarlierDraft(t *testing.T) {
	fake := &fakeClient{activities: sampleActivities(), policies: []api.Policy{{PolicyID: "pol-open", PolicyName: "Policies are free",
		Effect: api.EffectAllow, Condition: "activity.resource == 'POLICY'"}}}
	h := newHarness(t, fake, false, 0)
	p := openEditor(t, h)
	h.key("ctrl+r") // the empty allow draft: locks nothing out
	if p.editor.sim == nil {
		t.Fatalf("ctrl+r did not simulate: %q", p.editor.simErr)
	}
	for _, r := range p.editor.sim {
		if r.locksOut {
			t.Fatalf("the allow draft locks out %s", r.id)
		}
	}
	h.typeText("Deny all")
	if panel := ansi.Strip(p.editor.view); strings.Contains(panel, "the draft changed since this simulation ran") {
		t.Errorf("a new name made the simulation stale (it does not depend on it):\n%s", panel)
	}
	h.key("tab")
	h.key("right") // effect: DENY
	if panel := strings.Join(strings.Fields(ansi.Strip(p.editor.view)), " "); !strings.Contains(panel, "the draft changed since this simulation ran") {
		t.Errorf("the panel shows the allow draft's rows as the deny draft's:\n%s", panel)
	}
	h.key("ctrl+s")
	out := strings.Join(strings.Fields(h.plainFrame()), " ")
	if !strings.Contains(out, "Create policy") {
		t.Fatalf("ctrl+s asked for no confirm:\n%s", h.plainFrame())
	}
	if !strings.Contains(out, "Not simulated since the draft changed") {
		t.Errorf("the confirm of a deny-all draft presents the earlier allow draft's clean simulation as its own:\n%s", h.plainFrame())
	}
	h.key("n")
	h.key("ctrl+r")
	h.key("ctrl+s")
	if out := strings.Join(strings.Fields(h.plainFrame()), " "); !strings.Contains(out, "⚠ The simulation says it locks the organization out of") ||
		strings.Contains(out, "Not simulated") {
		t.Errorf("the confirm after simulating the deny draft does not warn of its lock-out:\n%s", h.plainFrame())
	}
}

func TestPoliciesPaletteCommands(t *testing.T) {
	h := newHarness(t, &fakeClient{activities: sampleActivities()}, true, 0)
	p := h.toPolicies()
	for _, c := range p.Commands() {
		if strings.HasPrefix(c.Name, "new policy") && !strings.Contains(c.Disabled, "read-only") {
			t.Errorf("palette's new policy in read-only mode: disabled %q", c.Disabled)
		}
	}
}

// In the evaluations view / filters by outcome and by policy name; O reverses
// the sort.
func TestPoliciesEvaluationsFilterAndSort(t *testing.T) {
	fake := &fakeClient{activities: sampleActivities()}
	h := newHarness(t, fake, false, 0)
	p := h.toPolicies()
	h.key("e")
	all := p.list.Table.Visible()
	if all != len(fake.activities) {
		t.Fatalf("%d evaluations shown, want %d", all, len(fake.activities))
	}
	h.key("/")
	h.typeText("requires_consensus")
	if p.list.Table.Visible() != all {
		t.Errorf("filter by outcome: %d of %d", p.list.Table.Visible(), all)
	}
	h.key("enter")
	h.key("esc")
	h.key("/")
	h.typeText("Ops need two")
	// Every activity but the root-only one ran the policy.
	if p.list.Table.Visible() != all-1 {
		t.Errorf("filter by policy name: %d rows, want %d", p.list.Table.Visible(), all-1)
	}
	h.key("esc")
	h.key("O")
	if col, desc := p.list.Table.SortColumn(); col != 0 || !desc {
		t.Errorf("O: sort %d desc %v", col, desc)
	}
}

// The simulation never makes the editor taller than the body: lines that do
// not fit are counted, lock-outs first.
func TestPolicySimulationFitsTheBody(t *testing.T) {
	var acts []api.Activity
	for i := range 40 {
		acts = append(acts, pendingActivity(fmt.Sprintf("act-%02d", i), "bob", time.Duration(i)*time.Minute,
			api.Intent{CreateUserTagIntent: &api.CreateUserTagParams{UserTagName: "t", UserIDs: []string{"u-bob"}}}, api.TypeCreateUserTag))
	}
	fake := &fakeClient{activities: acts}
	h := newHarness(t, fake, false, 0)
	h.send(tea.WindowSizeMsg{Width: 80, Height: 24})
	p := openEditor(t, h)
	h.typeText("D")
	h.key("tab")
	h.key("right")
	// A deny that cannot match create_policy: no irreversible warning
	// takes a line of the body.
	h.key("tab")
	h.typeText("activity.resource == 'USER'")
	h.key("ctrl+r")
	if len(p.editor.sim) == 0 {
		t.Fatal("nothing simulated")
	}
	if n := strings.Count(p.View(), "\n") + 1; n > p.height {
		t.Errorf("the editor is %d lines in a body of %d", n, p.height)
	}
	if !strings.Contains(h.plainFrame(), "more activities") {
		t.Errorf("the hidden lines are not counted:\n%s", h.plainFrame())
	}
}

// At the minimum size the editor is taller than the body: it scrolls to the
// field being typed in, even below a condition whose compile error takes
// several lines, and back up.
func TestPolicyEditorScrollsToTheFocusedFieldAtTheMinimumSize(t *testing.T) {
	h := newHarness(t, &fakeClient{activities: sampleActivities()}, false, 0)
	h.send(tea.WindowSizeMsg{Width: minWidth, Height: minHeight})
	openEditor(t, h)
	h.typeText("draft")
	h.key("tab")
	h.key("tab")
	h.typeText("activity.type ==")
	if out := h.plainFrame(); !strings.Contains(out, "▸ Condition") || !strings.Contains(out, "IDENTIFIER}") {
		t.Errorf("the condition and the end of its error are not in sight:\n%s", out)
	}
	h.key("tab") // consensus
	h.key("tab") // time
	h.key("tab")
	h.typeText("typed here")
	if out := h.plainFrame(); !strings.Contains(out, "▸ Notes") || !strings.Contains(out, "typed here█") {
		t.Errorf("Notes is typed in out of sight:\n%s", out)
	}
	h.key("tab")
	if out := h.plainFrame(); !strings.Contains(out, "▸ Simulate over") || !strings.Contains(out, "◂ the last activities loaded ▸") {
		t.Errorf("Simulate over is focused out of sight:\n%s", out)
	}
	for range 6 {
		h.key("shift+tab")
	}
	if out := h.plainFrame(); !strings.Contains(out, "▸ Name") || !strings.Contains(out, "draft█") {
		t.Errorf("back on Name, it is out of sight:\n%s", out)
	}
	if n := strings.Count(h.plainFrame(), "\n") + 1; n != minHeight {
		t.Errorf("the frame is %d lines in a window of %d", n, minHeight)
	}
}

// The ages on the Policies screen count up on the root's clock, as on
// Activities: UPDATED in the list, the open policy's detail, and AGE of the
// recent evaluations.
func TestPolicyAgesCountUpOnTheClock(t *testing.T) {
	fake := &fakeClient{activities: sampleActivities(), policies: []api.Policy{{PolicyID: "pol-new", PolicyName: "just made",
		Effect: api.EffectAllow, CreatedAt: api.NewTime(testNow), UpdatedAt: api.NewTime(testNow)}}}
	h, now := newClockedHarness(t, fake)
	h.gotoScreen("Policies")
	tick := func(d time.Duration) {
		*now = now.Add(d)
		h.send(clockMsg{})
	}
	if row := rowOf(t, h.frame(), "just made"); !strings.Contains(row, " 0s") {
		t.Fatalf("at load UPDATED is not 0s: %q", row)
	}
	tick(80 * time.Second)
	if row := rowOf(t, h.frame(), "just made"); !strings.Contains(row, " 1m") {
		t.Errorf("80 s later UPDATED still says: %q", row)
	}
	h.key("enter")
	if l := lineWith(t, h.frame(), "Updated"); !strings.Contains(l, "(1m ago)") {
		t.Fatalf("the detail's Updated lacks the age: %q", l)
	}
	tick(time.Hour)
	if l := lineWith(t, h.frame(), "Updated"); !strings.Contains(l, "(1h ago)") {
		t.Errorf("an hour later the open detail still says: %q", l)
	}
	h.key("esc")
	h.key("e")
	if out := h.frame(); !strings.Contains(out, "1h   create ALLOW policy") {
		t.Fatalf("the evaluations lack the age of act-policy (1h):\n%s", out)
	}
	tick(2 * time.Hour)
	if out := h.frame(); !strings.Contains(out, "3h   create ALLOW policy") {
		t.Errorf("two hours later the evaluations still say:\n%s", out)
	}
}

// lineWith is the first line of out holding s.
func lineWith(t *testing.T, out, s string) string {
	t.Helper()
	for _, l := range strings.Split(out, "\n") {
		if strings.Contains(l, s) {
			return l
		}
	}
	t.Fatalf("no line with %q in\n%s", s, out)
	return ""
}

// The editor simulates over the activities as they are when it opens, not as
// they were when the screen first loaded them.
func TestPolicyEditorSimulatesOverFreshActivities(t *testing.T) {
	fake := &fakeClient{activities: sampleActivities()}
	h := newHarness(t, fake, false, 0)
	p := openEditor(t, h)
	h.key("esc")
	fake.mu.Lock()
	id := fake.activities[0].ID
	fake.activities[0].Status = api.StatusRejected
	fake.mu.Unlock()
	h.key("n")
	found := false
	for _, ra := range p.editor.recent {
		if ra.act.ID == id {
			found = true
			if ra.act.Status != api.StatusRejected {
				t.Fatalf("the editor simulates over %s as %s, as first loaded", id, ra.act.Status)
			}
		}
	}
	if !found {
		t.Fatalf("%s is not among the %d activities the editor simulates over", id, len(p.editor.recent))
	}
}

// A rejected activity was settled by its rejection: no draft changes it, and
// it is neither a lock-out nor counted as a change.
func TestPolicyEditorSimulationLeavesRejectedActivities(t *testing.T) {
	acts := sampleActivities()
	acts[0].Status = api.StatusRejected
	fake := &fakeClient{activities: acts}
	h := newHarness(t, fake, false, 0)
	p := openEditor(t, h)
	h.typeText("Deny all")
	h.key("tab")
	h.key("right") // DENY, matching everything
	h.key("ctrl+r")
	for _, r := range p.editor.sim {
		if r.id == acts[0].ID && (r.today != "REJECTED" || r.withDraft != "REJECTED" || r.locksOut || rank(r) != rank(simRow{today: "x", withDraft: "x"})) {
			t.Errorf("the rejected activity: %+v", r)
		}
	}
}

// The evaluations load later than the policies: if that load fails, the view
// says it never loaded, not that nothing was evaluated.
func TestEvaluationsViewThatNeverLoadedSaysSo(t *testing.T) {
	fake := &fakeClient{activities: sampleActivities()}
	h := newHarness(t, fake, false, 0)
	h.toPolicies()
	fake.mu.Lock()
	fake.listErr = errors.New("connection refused")
	fake.mu.Unlock()
	h.key("e")
	out := h.plainFrame()
	if strings.Contains(out, "no recent activity has been evaluated") || !strings.Contains(out, "not loaded:") {
		t.Errorf("the evaluations view after a failed first load:\n%s", out)
	}
}
