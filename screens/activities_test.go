package screens

import (
	"bytes"
	"fmt"
	"image/color"
	"log/slog"

	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/vigil-console/vigil/ui/theme"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/ui"
)

func TestPendingIsTheDefaultView(t *testing.T) {
	fake := &fakeClient{activities: sampleActivities()}
	h := newHarness(t, fake, false, 0)
	if len(fake.lists) != 1 {
		t.Fatalf("start made %d list calls, want 1", len(fake.lists))
	}
	got := fake.lists[0]
	if len(got.Statuses) != 1 || got.Statuses[0] != api.StatusConsensusNeeded {
		t.Errorf("first list filters statuses %v, want only %s", got.Statuses, api.StatusConsensusNeeded)
	}
	out := ansi.Strip(h.root.Render())
	for _, want := range []string{`create ALLOW policy "allow treasury"`, "set feature WEBHOOK", "delete 1 API key of carol", "bob", "carol", "1/2", "Acme", "alice"} {
		if !strings.Contains(out, want) {
			t.Errorf("frame lacks %q:\n%s", want, out)
		}
	}
}

func TestApproveAsksThenVotesWithThatActivitysFingerprint(t *testing.T) {
	acts := sampleActivities()
	fake := &fakeClient{activities: acts}
	h := newHarness(t, fake, false, 0)
	h.key("a")
	if !h.voteDialogOpen() {
		t.Fatal("a did not open the confirm dialog")
	}
	frame := ansi.Strip(h.root.Render())
	for _, want := range []string{"Approve this activity?", "CREATE_POLICY_V3", `policy:      "allow treasury"`, "effect:      ALLOW", "bob", acts[0].Fingerprint[:20]} {
		if !strings.Contains(frame, want) {
			t.Errorf("dialog does not restate %q:\n%s", want, frame)
		}
	}
	h.key("y")
	if _, n, _ := fake.counts(); n != 1 {
		t.Fatalf("%d approvals sent, want 1", n)
	}
	if fake.approvals[0] != acts[0].Fingerprint {
		t.Errorf("approved fingerprint %q, want the selected activity's %q", fake.approvals[0], acts[0].Fingerprint)
	}
	// The reply refreshes the row.
	if st := h.activities().items[0].Status; st != api.StatusCompleted {
		t.Errorf("row status after the vote = %s, want COMPLETED", st)
	}
	if !strings.Contains(ansi.Strip(h.root.Render()), "COMPLETED") {
		t.Error("the row does not show COMPLETED after the vote")
	}
}

func TestConfirmDefaultsToNo(t *testing.T) {
	for _, k := range []string{"enter", "esc", "n", "q"} {
		fake := &fakeClient{activities: sampleActivities()}
		h := newHarness(t, fake, false, 0)
		h.key("a")
		h.key(k)
		if h.voteDialogOpen() {
			t.Errorf("%s left the dialog open", k)
		}
		if _, n, _ := fake.counts(); n != 0 {
			t.Errorf("%s sent a vote; only y confirms", k)
		}
		if h.quit() {
			t.Errorf("%s in the dialog quit the console", k)
		}
	}
	// Other keys neither answer nor act.
	fake := &fakeClient{activities: sampleActivities()}
	h := newHarness(t, fake, false, 0)
	h.key("a")
	h.key("j")
	h.key("Y")
	if !h.voteDialogOpen() {
		t.Error("an unrelated key closed the dialog")
	}
	if _, n, _ := fake.counts(); n != 0 {
		t.Error("an unrelated key sent a vote")
	}
}

func TestVoteUsesTheActivityCapturedWhenTheDialogOpened(t *testing.T) {
	acts := sampleActivities()
	fake := &fakeClient{activities: acts}
	h := newHarness(t, fake, false, 0)
	h.key("a") // about acts[0]
	// A refresh lands while the dialog is open: the first row is now another activity.
	act := h.activities()
	h.send(activitiesLoadedMsg{gen: act.listGen, items: []api.Activity{acts[1], acts[2]}, at: testNow})
	if act.list.Table.SelectedID() == acts[0].ID {
		t.Fatal("test setup: the selection should have moved")
	}
	h.key("y")
	if len(fake.approvals) != 1 || fake.approvals[0] != acts[0].Fingerprint {
		t.Errorf("approved %v, want exactly the fingerprint the dialog was opened for (%s)", fake.approvals, acts[0].Fingerprint)
	}
}

func TestRejectSendsReject(t *testing.T) {
	acts := sampleActivities()
	fake := &fakeClient{activities: acts}
	h := newHarness(t, fake, false, 0)
	h.key("j")
	h.key("x")
	if !strings.Contains(ansi.Strip(h.root.Render()), "Reject this activity?") {
		t.Fatal("x did not ask to reject")
	}
	h.key("y")
	if len(fake.rejections) != 1 || fake.rejections[0] != acts[1].Fingerprint || len(fake.approvals) != 0 {
		t.Errorf("rejections %v approvals %v; want one rejection of %s", fake.rejections, fake.approvals, acts[1].Fingerprint)
	}
}

func TestVoteKeysDisabledWhenTheServerSaysNo(t *testing.T) {
	acts := sampleActivities()
	acts[0].CanApprove = false
	fake := &fakeClient{activities: acts}
	h := newHarness(t, fake, false, 0)
	a := h.activities()
	if a.keys.Approve.Enabled() {
		t.Error("approve is enabled although canApprove is false")
	}
	if !a.keys.Reject.Enabled() {
		t.Error("reject is disabled although canReject is true")
	}
	h.key("a")
	if h.voteDialogOpen() {
		t.Error("a opened a dialog for an activity you cannot approve")
	}
	if _, n, _ := fake.counts(); n != 0 {
		t.Error("a vote was sent")
	}
}

func TestReadOnlySaysSoInsteadOfVoting(t *testing.T) {
	fake := &fakeClient{activities: sampleActivities()}
	h := newHarness(t, fake, true, 0)
	a := h.activities()
	if h.root.common.Submitter != nil {
		t.Fatal("read-only console holds a submitter")
	}
	if a.keys.Approve.Enabled() || a.keys.Reject.Enabled() {
		t.Error("vote keys enabled in read-only mode")
	}
	frame := ansi.Strip(h.root.Render())
	if !strings.Contains(frame, "READ-ONLY") {
		t.Error("status bar does not say READ-ONLY")
	}
	// The YOU column says read-only where it would say vote.
	if !strings.Contains(frame, "read-only") || strings.Contains(frame, " vote ") {
		t.Errorf("YOU column does not say read-only:\n%s", frame)
	}
	before := len(h.msgs)
	h.key("a")
	if h.voteDialogOpen() {
		t.Fatal("a opened a vote dialog in read-only mode")
	}
	if !toasted(h.msgs[before:], "read-only") {
		t.Errorf("a in read-only mode did not say why nothing happens: %v", h.msgs[before:])
	}
	before = len(h.msgs)
	h.key("x")
	if !toasted(h.msgs[before:], "read-only") {
		t.Error("x in read-only mode did not say why nothing happens")
	}
	h.key("enter")
	if a.detail == nil {
		t.Fatal("enter did not open the detail")
	}
	if d := ansi.Strip(h.root.Render()); !strings.Contains(d, "you can:") || !strings.Contains(d, "read-only: this console cannot vote") {
		t.Errorf("detail's \"you can\" does not say read-only:\n%s", d)
	}
	h.key("a")
	h.key("y")
	h.key("x")
	h.key("y")
	if _, n, m := fake.counts(); n+m != 0 {
		t.Errorf("read-only sent %d votes", n+m)
	}
}

// toasted reports whether one of msgs is a toast containing text.
func toasted(msgs []tea.Msg, text string) bool {
	for _, m := range msgs {
		if t, ok := m.(ui.ToastMsg); ok && strings.Contains(t.Text, text) {
			return true
		}
	}
	return false
}

func TestSecondVoteKeyWhileInFlightSendsNothing(t *testing.T) {
	acts := sampleActivities()
	fake := &fakeClient{activities: acts}
	h := newHarness(t, fake, false, 0)
	a := h.activities()
	h.key("a")
	// Answer yes, but hold the reply: y starts the vote at once and returns
	// its command, which is not run yet.
	h.armDialogs() // a moment passes: y counts
	_, cmd := h.root.Update(keyPress("y"))
	if a.voting == "" {
		t.Fatal("no vote in flight after y")
	}
	if a.keys.Approve.Enabled() || a.keys.Reject.Enabled() {
		t.Error("vote keys still enabled while a vote is in flight")
	}
	for _, k := range []string{"a", "y", "x", "y", "j", "a", "y"} {
		h.key(k)
	}
	h.run(cmd) // the reply arrives
	if _, n, m := fake.counts(); n != 1 || m != 0 {
		t.Errorf("sent %d approvals and %d rejections, want exactly one approval", n, m)
	}
	if a.voting != "" {
		t.Error("vote still marked in flight after the reply")
	}
}

func TestVoteFailureIsReported(t *testing.T) {
	fake := &fakeClient{activities: sampleActivities(), voteErr: errors.New("permission denied: you are not a root user")}
	h := newHarness(t, fake, false, 0)
	h.key("a")
	h.key("y")
	st := h.activities().Status()
	if !strings.Contains(st.Err, "permission denied") {
		t.Errorf("status error %q does not carry the failure", st.Err)
	}
	if h.activities().voting != "" {
		t.Error("a failed vote left the keys locked")
	}
}

func TestRefreshFailureKeepsDataAndReportsOnce(t *testing.T) {
	fake := &fakeClient{activities: sampleActivities()}
	h := newHarness(t, fake, false, time.Second)
	a := h.activities()
	fetched := a.fetched
	fake.listErr = errors.New("connection refused")
	toastsBefore := h.root.toasts.Len()
	for range 3 {
		h.send(activitiesTickMsg{gen: a.autoGen})
	}
	if len(a.items) != 3 {
		t.Errorf("a failed refresh dropped the data: %d items left", len(a.items))
	}
	if !a.fetched.Equal(fetched) {
		t.Error("last-fetched time changed although the refresh failed")
	}
	if !strings.Contains(a.Status().Err, "connection refused") {
		t.Errorf("status error = %q", a.Status().Err)
	}
	if h.root.toasts.Len() != toastsBefore {
		t.Error("failed refreshes raised toasts; one status-bar error is enough")
	}
	out := ansi.Strip(h.root.Render())
	if !strings.Contains(out, "refreshed 12:00:00") || strings.Count(out, "connection refused") != 1 {
		t.Errorf("frame should keep the last fetch time and show the error once:\n%s", out)
	}
}

func TestRefreshKeyAndAutoRefreshToggle(t *testing.T) {
	fake := &fakeClient{activities: sampleActivities()}
	h := newHarness(t, fake, false, time.Second)
	a := h.activities()
	n0, _, _ := fake.counts()
	h.key("r")
	if n, _, _ := fake.counts(); n != n0+1 {
		t.Fatalf("r made %d list calls, want 1", n-n0)
	}
	h.send(activitiesTickMsg{gen: a.autoGen})
	if n, _, _ := fake.counts(); n != n0+2 {
		t.Fatalf("an auto-refresh tick made %d list calls, want 1", n-n0-1)
	}
	old := a.autoGen
	h.key("p") // pause
	if a.Status().AutoRefresh != 0 {
		t.Error("status still shows auto-refresh after p")
	}
	if out := h.frame(); !strings.Contains(out, "auto paused (p resumes)") {
		t.Errorf("the status bar does not say p paused the auto-refresh:\n%s", out)
	}
	h.send(activitiesTickMsg{gen: old})
	h.send(activitiesTickMsg{gen: a.autoGen})
	if n, _, _ := fake.counts(); n != n0+2 {
		t.Error("a tick refreshed while auto-refresh was paused")
	}
	h.key("p") // resume
	if a.Status().AutoRefresh != time.Second {
		t.Error("p did not resume auto-refresh")
	}
	h.send(activitiesTickMsg{gen: old})
	if n, _, _ := fake.counts(); n != n0+2 {
		t.Error("a tick of the old chain refreshed (two chains would double the rate)")
	}
}

func TestAutoRefreshOffWhenProfileSaysZero(t *testing.T) {
	fake := &fakeClient{activities: sampleActivities()}
	h := newHarness(t, fake, false, 0)
	a := h.activities()
	if a.keys.AutoRefresh.Enabled() {
		t.Error("auto-refresh toggle enabled with refresh = 0")
	}
	if out := h.frame(); !strings.Contains(out, "auto off") || strings.Contains(out, "paused") {
		t.Errorf("with no auto-refresh in the profile the status bar should say auto off, not paused:\n%s", out)
	}
	h.send(activitiesTickMsg{gen: a.autoGen})
	if n, _, _ := fake.counts(); n != 1 {
		t.Error("a tick refreshed although auto-refresh is off")
	}
}

func TestCopyIDAndFingerprint(t *testing.T) {
	acts := sampleActivities()
	h := newHarness(t, &fakeClient{activities: acts}, false, 0)
	h.key("j")
	h.key("y")
	h.key("Y")
	got := h.clipboard()
	if len(got) != 2 || got[0] != acts[1].ID || got[1] != acts[1].Fingerprint {
		t.Errorf("clipboard writes %q, want [%s %s]", got, acts[1].ID, acts[1].Fingerprint)
	}
}

func TestOpenDetailFetchesEvaluationsAndBackWithEsc(t *testing.T) {
	acts := sampleActivities()
	fake := &fakeClient{activities: acts}
	h := newHarness(t, fake, false, 0)
	h.send(tea.WindowSizeMsg{Width: 100, Height: 70}) // the whole record on screen
	h.key("enter")
	a := h.activities()
	if a.detail == nil {
		t.Fatal("enter did not open the detail")
	}
	if len(fake.evalCalls) != 1 || fake.evalCalls[0] != acts[0].ID {
		t.Errorf("policy evaluations fetched for %v, want [%s]", fake.evalCalls, acts[0].ID)
	}
	out := ansi.Strip(h.root.Render())
	for _, want := range []string{acts[0].Fingerprint, "allow treasury", "approvers.count() >= 2", "REQUIRES_CONSENSUS", "approve: yes, reject: yes"} {
		if !strings.Contains(out, want) {
			t.Errorf("detail lacks %q:\n%s", want, out)
		}
	}
	// Approve from the detail.
	h.key("a")
	h.key("y")
	if len(fake.approvals) != 1 || fake.approvals[0] != acts[0].Fingerprint {
		t.Errorf("approve from the detail sent %v", fake.approvals)
	}
	if !strings.Contains(ansi.Strip(h.root.Render()), "ACTIVITY_STATUS_COMPLETED") {
		t.Error("detail not refreshed by the vote's reply")
	}
	h.key("esc")
	if a.detail != nil {
		t.Error("esc did not go back to the list")
	}
}

func TestAllViewFiltersAndPages(t *testing.T) {
	var many []api.Activity
	for i := range pageSize + 5 {
		a := pendingActivity("act-"+string(rune('a'+i%26))+strings.Repeat("x", i/26), "bob", time.Duration(i)*time.Minute,
			api.Intent{CreateReadOnlySessionIntent: &api.CreateReadOnlySessionParams{}}, api.TypeCreateReadOnlySession)
		a.Status = api.StatusCompleted
		many = append(many, a)
	}
	fake := &fakeClient{activities: many}
	h := newHarness(t, fake, false, 0)
	h.key("v")
	last := fake.lists[len(fake.lists)-1]
	if len(last.Statuses) != 0 || last.Limit != pageSize {
		t.Errorf("All view lists %+v, want no status filter and limit %d", last, pageSize)
	}
	typeKeys := func(text string) {
		for _, r := range text {
			h.key(string(r))
		}
	}
	// s opens a picker: tick two statuses, apply both at once.
	h.key("s")
	if top := h.root.dialogs.Top(); top == nil || top.ID() != "status-filter" {
		t.Fatal("s did not open the status picker")
	}
	typeKeys("rej")
	h.key("space")
	for range 3 {
		h.key("backspace")
	}
	typeKeys("comp")
	h.key("space")
	before := len(fake.lists)
	h.key("enter")
	last = fake.lists[len(fake.lists)-1]
	if len(fake.lists) != before+1 || !slices.Equal(last.Statuses, []string{api.StatusCompleted, api.StatusRejected}) {
		t.Errorf("picked statuses %v, want [COMPLETED REJECTED]", last.Statuses)
	}
	if !strings.Contains(h.frame(), "status: COMPLETED, REJECTED") {
		t.Errorf("the heading does not show the filter:\n%s", h.frame())
	}
	// Cancelling changes nothing; ctrl+x clears back to any.
	h.key("s")
	h.key("space")
	h.key("esc")
	if len(fake.lists) != before+1 || h.root.dialogs.Len() != 0 {
		t.Errorf("esc applied the picker (%d lists) or left it open", len(fake.lists)-before)
	}
	h.key("s")
	h.key("ctrl+x")
	h.key("enter")
	last = fake.lists[len(fake.lists)-1]
	if len(last.Statuses) != 0 || !strings.Contains(h.frame(), "status: any") {
		t.Errorf("ctrl+x, enter left statuses %v", last.Statuses)
	}
	// With nothing ticked, enter takes the match under the cursor.
	h.key("t")
	typeKeys("delete_api")
	h.key("enter")
	last = fake.lists[len(fake.lists)-1]
	if !slices.Equal(last.Types, []string{api.TypeDeleteAPIKeys}) || len(last.Statuses) != 0 {
		t.Errorf("t delete_api enter: %+v, want types [%s] and no status", last, api.TypeDeleteAPIKeys)
	}
	h.key("t")
	h.key("ctrl+x")
	h.key("enter")
	h.key("]")
	last = fake.lists[len(fake.lists)-1]
	if last.After != many[pageSize-1].ID || last.Before != "" {
		t.Errorf("]: before=%q after=%q, want after the last id %q (older)", last.Before, last.After, many[pageSize-1].ID)
	}
	h.key("[")
	last = fake.lists[len(fake.lists)-1]
	if last.Before != many[pageSize].ID || last.After != "" {
		t.Errorf("[: before=%q after=%q, want before the older page's first id %q (newer)", last.Before, last.After, many[pageSize].ID)
	}
	h.key("v")
	last = fake.lists[len(fake.lists)-1]
	if len(last.Statuses) != 1 || last.Before != "" || last.After != "" {
		t.Errorf("back to Pending lists %+v", last)
	}
}

func TestStaleListReplyIsDropped(t *testing.T) {
	acts := sampleActivities()
	h := newHarness(t, &fakeClient{activities: acts}, false, 0)
	a := h.activities()
	h.send(activitiesLoadedMsg{gen: a.listGen - 1, items: nil, at: testNow})
	if len(a.items) != 3 {
		t.Error("a superseded reply replaced the list")
	}
}

func TestFilterTakesLettersAndCtrlCStillQuits(t *testing.T) {
	h := newHarness(t, &fakeClient{activities: sampleActivities()}, false, 0)
	h.key("/")
	for _, k := range []string{"h", "o", "o", "q"} { // q types, does not quit
		h.key(k)
	}
	if h.quit() {
		t.Fatal("q quit while typing in the filter")
	}
	a := h.activities()
	if a.list.Table.Visible() != 0 {
		t.Errorf("filter 'hooq' shows %d rows", a.list.Table.Visible())
	}
	h.key("backspace")
	if a.list.Table.Visible() != 1 || a.items[a.list.Table.Selected()].ID != "act-feature" {
		t.Errorf("filter 'hoo' shows %d rows", a.list.Table.Visible())
	}
	h.key("ctrl+c")
	if !h.quit() {
		t.Error("ctrl+c did not quit from the filter")
	}
}

func TestFilterEscClearsThenEnterKeeps(t *testing.T) {
	h := newHarness(t, &fakeClient{activities: sampleActivities()}, false, 0)
	a := h.activities()
	h.key("/")
	h.key("b")
	h.key("o")
	h.key("b")
	h.key("enter")
	if a.Capturing() || a.list.Table.Visible() != 2 {
		t.Fatalf("enter should keep the filter 'bob' (2 rows) and stop typing; capturing=%v rows=%d", a.Capturing(), a.list.Table.Visible())
	}
	h.key("a") // now a command again: approve the first bob activity
	if !h.voteDialogOpen() {
		t.Error("a after the filter did not open the dialog")
	}
	h.key("n")
	h.key("esc")
	if a.list.Table.Visible() != 3 {
		t.Error("esc did not clear the kept filter")
	}
}

func TestRootKeys(t *testing.T) {
	h := newHarness(t, &fakeClient{activities: sampleActivities()}, false, 0)
	h.key("tab")
	if h.root.ActiveTitle() != "Boot proofs" {
		t.Errorf("tab went to %s", h.root.ActiveTitle())
	}
	h.key("tab")
	if h.root.ActiveTitle() != "Organization" {
		t.Errorf("second tab went to %s", h.root.ActiveTitle())
	}
	out := ansi.Strip(h.root.Render())
	if !strings.Contains(out, "Root quorum: 2 of 3") {
		t.Errorf("organization screen:\n%s", out)
	}
	h.key("shift+tab")
	h.key("shift+tab")
	if h.root.ActiveTitle() != "Activities" {
		t.Errorf("shift+tab twice went to %s", h.root.ActiveTitle())
	}
	h.key("3")
	if h.root.ActiveTitle() != "Organization" {
		t.Errorf("3 went to %s", h.root.ActiveTitle())
	}
	h.key("9") // no such screen: stays
	if h.root.ActiveTitle() != "Organization" {
		t.Error("9 moved away")
	}
	h.key("1")
	h.key("?")
	if !strings.Contains(ansi.Strip(h.root.Render()), "copy fingerprint") {
		t.Error("? did not show the full help")
	}
	h.key("?")
	if strings.Contains(ansi.Strip(h.root.Render()), "copy fingerprint") {
		t.Error("? did not close the full help")
	}
	if h.quit() {
		t.Fatal("quit too early")
	}
	h.key("q")
	if !h.quit() {
		t.Error("q did not quit")
	}
}

func TestWindowTitle(t *testing.T) {
	h := newHarness(t, &fakeClient{activities: sampleActivities()}, false, 0)
	v := h.root.View()
	if v.WindowTitle != "vigil — Acme (demo)" {
		t.Errorf("title %q", v.WindowTitle)
	}
	h.root.common.Org.Name = "Evil\x1b]0;pwned\x07\u202e"
	if got := h.root.View().WindowTitle; got != `vigil — Evil\u001b]0;pwned\u0007\u202e (demo)` {
		t.Errorf("hostile org name gives title %q", got)
	}
}

var _ tea.Model = (*Root)(nil)

// The real client is what the console runs on.
var (
	_ Reader    = (*api.Client)(nil)
	_ Submitter = (*api.Client)(nil)
)

func TestDisabledKeysShowStruckThroughInHelp(t *testing.T) {
	h := newHarness(t, &fakeClient{activities: sampleActivities()}, true, 0)
	th := h.root.common.Theme
	out := h.root.Render()
	if !strings.Contains(out, th.Disabled.Render("a approve: read-only")) || !strings.Contains(out, th.Disabled.Render("x reject: read-only")) {
		t.Errorf("read-only help does not strike approve and reject through, saying read-only:\n%q", out)
	}
	h2 := newHarness(t, &fakeClient{activities: sampleActivities()}, false, 0)
	if strings.Contains(h2.root.Render(), th.Disabled.Render("a approve")) {
		t.Error("approve struck through although it is possible")
	}
}

func TestBackgroundColourPicksLightOrDark(t *testing.T) {
	h := newHarnessFor(t, &fakeClient{activities: sampleActivities()}, theme.Options{Dark: true}, 0)
	dark := h.root.Render()
	h.send(tea.BackgroundColorMsg{Color: color.White})
	if h.root.ThemeOptions().Dark {
		t.Fatal("a white background left the dark theme on")
	}
	if h.root.Render() == dark {
		t.Error("the frame did not change with the light theme")
	}
	h.send(tea.BackgroundColorMsg{Color: color.Black})
	if !h.root.ThemeOptions().Dark {
		t.Error("a black background did not bring the dark theme back")
	}
}

func TestResizeAtAnyMoment(t *testing.T) {
	h := newHarness(t, &fakeClient{activities: sampleActivities()}, false, 0)
	for _, k := range []string{"", "enter", "a"} {
		if k != "" {
			h.key(k)
		}
		for _, size := range [][2]int{{20, 5}, {1, 1}, {300, 100}, {80, 24}} {
			h.send(tea.WindowSizeMsg{Width: size[0], Height: size[1]})
			out := h.root.Render()
			lines := strings.Split(out, "\n")
			if len(lines) != size[1] {
				t.Errorf("after %q at %dx%d: %d lines", k, size[0], size[1], len(lines))
			}
			for _, l := range lines {
				if w := ansi.StringWidth(l); w > size[0] {
					t.Errorf("after %q at %dx%d: a line is %d wide", k, size[0], size[1], w)
					break
				}
			}
		}
	}
}

func TestVotesCountOnlyRootQuorumApprovals(t *testing.T) {
	acts := sampleActivities()
	// operator (not in the quorum) started it; bob (root) approved.
	at := acts[0].CreatedAt
	acts[0].Votes = []api.Vote{
		{UserID: "u-operator", User: api.User{UserName: "operator"}, Selection: api.VoteApproved, CreatedAt: at},
		{UserID: "u-bob", User: api.User{UserName: "bob"}, Selection: api.VoteApproved, CreatedAt: at},
		{UserID: "u-carol", User: api.User{UserName: "carol"}, Selection: api.VoteRejected, CreatedAt: at},
	}
	h := newHarness(t, &fakeClient{activities: acts}, false, 0)
	row := h.activities().list.Table.View()
	line := strings.Split(ansi.Strip(row), "\n")[1]
	if !strings.Contains(line, "operator") || !strings.Contains(line, " 1/2 ") {
		t.Errorf("row %q: want requester operator and 1/2 (only bob is a root approver)", line)
	}
}

// Once an activity's first voting round has ended, the service sends only
// the current round's votes: their first voter is not who asked for it. The
// list and the vote dialog must not name that member as the requester (the
// dialog's "requester:" line is what a root member reads before approving).
func TestALaterRoundsFirstVoterIsNotNamedTheRequester(t *testing.T) {
	acts := sampleActivities()
	later := api.NewTime(acts[0].CreatedAt.Time().Add(25 * time.Hour))
	acts[0].Votes = []api.Vote{
		{UserID: "u-carol", User: api.User{UserName: "carol"}, Selection: api.VoteApproved, CreatedAt: later},
	}
	h := newHarness(t, &fakeClient{activities: acts}, false, 0)
	line := strings.Split(ansi.Strip(h.activities().list.Table.View()), "\n")[1]
	if strings.Contains(line, "carol") {
		t.Errorf("row %q names carol, who voted in a later round, as the requester", line)
	}
	if got := requesterQuoted(h.activities().c, &acts[0]); strings.Contains(got, "carol") || !strings.Contains(got, "later voting round") {
		t.Errorf("the vote dialog's requester is %q; want it unknown, saying the votes are of a later round", got)
	}
}

func TestNumberKeyWithoutTextDoesNotPanic(t *testing.T) {
	h := newHarness(t, &fakeClient{activities: sampleActivities()}, false, 0)
	h.send(tea.KeyPressMsg{Code: '3'}) // no Text, as some terminals report keypad keys
	if h.root.ActiveTitle() != "Organization" {
		t.Errorf("3 without text went to %s", h.root.ActiveTitle())
	}
}

func TestOpenDetailFetchesTheFreshRecord(t *testing.T) {
	fake := &fakeClient{activities: sampleActivities()}
	h := newHarness(t, fake, false, 0)
	// carol approved after the list was fetched.
	fake.mu.Lock()
	fake.activities[0].Votes = append(fake.activities[0].Votes, api.Vote{UserID: "u-carol", User: api.User{UserName: "carol"}, Selection: api.VoteApproved})
	fake.mu.Unlock()
	h.send(tea.WindowSizeMsg{Width: 100, Height: 70})
	h.key("enter")
	out := ansi.Strip(h.root.Render())
	if !strings.Contains(out, "2/2 root quorum approvals") || !strings.Contains(out, "carol (u-carol)") {
		t.Errorf("detail does not show the fresh record:\n%s", out)
	}
	h.key("esc")
	if !strings.Contains(ansi.Strip(h.root.Render()), "2/2") {
		t.Error("the list row was not updated from the fresh record")
	}
}

func TestVoteWithUnknownOutcomeRefreshes(t *testing.T) {
	fake := &fakeClient{activities: sampleActivities(), voteErr: fmt.Errorf("approve: %w", api.ErrOutcomeUnknown)}
	h := newHarness(t, fake, false, 0)
	before, _, _ := fake.counts()
	h.key("a")
	h.key("y")
	if after, _, _ := fake.counts(); after != before+1 {
		t.Errorf("an unknown outcome made %d list calls, want 1 to find out what happened", after-before)
	}
}

func TestAgesCountUpBetweenRefreshes(t *testing.T) {
	now := testNow
	fake := &fakeClient{activities: sampleActivities()}
	r := NewRoot(Options{Reader: fake, Submitter: fake, Theme: theme.Options{NoColor: true}, Static: true,
		Now: func() time.Time { return now }, Tick: func(time.Duration, func(time.Time) tea.Msg) tea.Cmd { return nil }})
	h := &harness{t: t, root: r}
	h.send(tea.WindowSizeMsg{Width: 100, Height: 30})
	h.run(r.Init())
	if !strings.Contains(ansi.Strip(r.Render()), "5m   create ALLOW policy") {
		t.Fatalf("start:\n%s", ansi.Strip(r.Render()))
	}
	now = now.Add(2 * time.Hour)
	h.send(clockMsg{})
	out := ansi.Strip(r.Render())
	if !strings.Contains(out, "2h   create ALLOW policy") || !strings.Contains(out, "(2h ago)") {
		t.Errorf("two hours later the frame still says:\n%s", out)
	}
}

func TestVotesAndFirstRefreshFailureAreLogged(t *testing.T) {
	var buf bytes.Buffer
	fake := &fakeClient{activities: sampleActivities()}
	r := NewRoot(Options{Reader: fake, Submitter: fake, Theme: theme.Options{NoColor: true}, Static: true, Now: func() time.Time { return testNow },
		Tick: func(time.Duration, func(time.Time) tea.Msg) tea.Cmd { return nil }, Refresh: time.Second,
		Logger: slog.New(slog.NewTextHandler(&buf, nil))})
	h := &harness{t: t, root: r}
	h.run(r.Init())
	h.key("a")
	h.key("y")
	fake.listErr = errors.New("connection refused")
	for range 3 {
		h.send(activitiesTickMsg{gen: h.activities().autoGen})
	}
	log := buf.String()
	if !strings.Contains(log, "vote sent") || !strings.Contains(log, sampleActivities()[0].Fingerprint) {
		t.Errorf("log lacks the vote:\n%s", log)
	}
	if n := strings.Count(log, "refresh failed"); n != 1 {
		t.Errorf("%d refresh failures logged, want the first only:\n%s", n, log)
	}
}

// WHAT says what each activity would do; o and O sort the list by any column
// (AGE sorts by time, youngest first) and the header shows which; the keys are
// rebindable like every other.
func TestActivitiesListSortsAndSaysWhat(t *testing.T) {
	h := newHarness(t, &fakeClient{activities: sampleActivities()}, false, 0)
	rows := func() []string {
		var out []string
		for _, l := range strings.Split(h.frame(), "\n") {
			for _, what := range []string{`create ALLOW policy "allow treasury"`, "set feature WEBHOOK", "delete 1 API key of carol"} {
				if strings.Contains(l, what) {
					out = append(out, what[:3])
				}
			}
		}
		return out
	}
	if got := strings.Join(rows(), ","); got != "cre,set,del" {
		t.Fatalf("rows %s, want the service's order", got)
	}
	h.key("O") // AGE descending: oldest first
	if got := strings.Join(rows(), ","); got != "del,set,cre" || !strings.Contains(h.frame(), "AGE ▼") {
		t.Errorf("after O: rows %s\n%s", got, h.frame())
	}
	h.key("o") // WHAT ascending
	if got := strings.Join(rows(), ","); got != "cre,del,set" || !strings.Contains(h.frame(), "WHAT ▲") {
		t.Errorf("after o: rows %s\n%s", got, h.frame())
	}
	if err := h.root.Rebind(map[string][]string{"activities.sort": {"S"}}); err != nil {
		t.Fatal(err)
	}
	h.key("o")
	if !strings.Contains(h.frame(), "WHAT ▲") {
		t.Error("o still sorts after rebinding sort to S")
	}
	h.key("S")
	if !strings.Contains(h.frame(), "REQUESTER ▲") {
		t.Errorf("S does not sort:\n%s", h.frame())
	}
}

// A key that cannot act in this view says why instead of doing nothing.
func TestKeysThatCannotActSaySo(t *testing.T) {
	h := newHarness(t, &fakeClient{activities: sampleActivities()}, false, 0)
	for k, want := range map[string]string{
		"s": "filters are for the All view",
		"t": "filters are for the All view",
		"]": "no older pending activities",
		"[": "this is the newest page",
	} {
		before := len(h.root.log.entries)
		h.key(k)
		if got := h.root.log.entries[before:]; len(got) != 1 || !strings.Contains(got[0].text, want) {
			t.Errorf("%s in the Pending view: %+v, want a notice %q", k, got, want)
		}
	}
	h.key("v")
	before := len(h.root.log.entries)
	h.key("[")
	if got := h.root.log.entries[before:]; len(got) != 1 || !strings.Contains(got[0].text, "newest page") {
		t.Errorf("[ on the first page: %+v", got)
	}
	empty := newHarness(t, &fakeClient{}, false, 0)
	for _, k := range []string{"y", "Y"} {
		before := len(empty.root.log.entries)
		empty.key(k)
		if got := empty.root.log.entries[before:]; len(got) != 1 || !strings.Contains(got[0].text, "nothing selected") {
			t.Errorf("%s with nothing selected: %+v", k, got)
		}
	}
}

// One pending activity with a very long WHAT (a 250-character policy name) must
// not squeeze the small columns of every row: at 120 columns STATUS, VOTES and
// the sort mark show in full, and WHAT is the one cut.
func TestLongWhatDoesNotSqueezeTheOtherColumns(t *testing.T) {
	acts := sampleActivities()
	acts[0].Intent.CreatePolicyIntentV3.PolicyName = strings.Repeat("treasury-limit-", 17)[:250]
	acts[0].Votes = append(acts[0].Votes, api.Vote{ID: "v-x", UserID: "u-carol", User: api.User{UserName: "carol"},
		ActivityID: acts[0].ID, Selection: api.VoteRejected, CreatedAt: acts[0].CreatedAt})
	h := newHarness(t, &fakeClient{activities: acts}, false, 0)
	h.send(tea.WindowSizeMsg{Width: 120, Height: 30})
	h.key("o") // sort by AGE
	out := h.plainFrame()
	for _, want := range []string{"AGE ▲", "CONSENSUS_NEEDED", "1/2 ✗1", `create ALLOW policy "treasury-limit-`} {
		if !strings.Contains(out, want) {
			t.Errorf("the list lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "CONSENSU…") || strings.Contains(out, "AGE…") {
		t.Errorf("a small column is cut:\n%s", out)
	}
}
