package screens

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"reflect"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/server/servertest"
	"github.com/vigil-console/vigil/ui/theme"
)

// TestConsoleUnderRandomInput drives bob's console (the real Root) on the
// real local service with seeded random input: every key of the keymaps,
// odd runes, pastes, clicks and wheel turns anywhere (outside the window
// too), window sizes from 0x0 to 300 wide or tall, command replies delivered
// late, out of order and twice, and alice and carol proposing and voting
// meanwhile. Activity names hold escapes, C1 and bidi controls and wide
// text; odd seeds read through a rewriting proxy that makes one of them
// 12,000 characters of those, longer than the service would store.
//
// After every step: no panic; the frame is exactly the window's height and no
// line is wider; no escape but SGR, and no C0, C1 or bidi control in the
// frame or the window title; a vote dialog opens only over the activity it
// votes on. At the end: every vote bob cast was answered in a vote dialog for
// that activity and direction.
//
// A failure names its seed and step, and lists the last steps; the run is
// deterministic, so the seed alone replays it:
//
//	VIGIL_FUZZ_SEED=7 go test ./screens -run TestConsoleUnderRandomInput -count=1 -v
//
// Looking for new failures: more seeds and steps, e.g. VIGIL_FUZZ_SEED=100
// VIGIL_FUZZ_SEEDS=50 VIGIL_FUZZ_STEPS=1500.
//
// Knobs (environment):
//
//	VIGIL_FUZZ_SEED   first seed to run (default 1)
//	VIGIL_FUZZ_SEEDS  how many seeds from the first (default fuzzSeeds; 1 when VIGIL_FUZZ_SEED is set)
//	VIGIL_FUZZ_STEPS  steps per seed (default fuzzSteps)
//
// The defaults are smaller under the race detector (console_fuzz_race_test.go).
func TestConsoleUnderRandomInput(t *testing.T) {
	first, n, steps := uint64(1), uint64(fuzzSeeds), fuzzSteps
	if s, ok := fuzzKnob(t, "VIGIL_FUZZ_SEED"); ok {
		first, n = s, 1
	}
	if s, ok := fuzzKnob(t, "VIGIL_FUZZ_SEEDS"); ok {
		n = s
	}
	if s, ok := fuzzKnob(t, "VIGIL_FUZZ_STEPS"); ok {
		steps = int(s)
	}
	votes := 0
	for seed := first; seed < first+n; seed++ {
		ok := t.Run(strconv.FormatUint(seed, 10), func(t *testing.T) {
			votes += fuzzConsole(t, seed, steps)
		})
		if !ok {
			t.Logf("replay: VIGIL_FUZZ_SEED=%d VIGIL_FUZZ_STEPS=%d go test ./screens -run TestConsoleUnderRandomInput -count=1 -v", seed, steps)
		}
	}
	// The vote property holds trivially when bob never votes: a change that
	// makes votes unreachable must bias the keys anew, not pass silently.
	if !t.Failed() && n*uint64(steps) >= fuzzSeeds*fuzzSteps && votes == 0 {
		t.Errorf("%d seeds of %d steps cast no vote: the run no longer reaches the vote dialog's y", n, steps)
	}
}

// fuzzKnob reads a positive number from the environment variable name.
func fuzzKnob(t *testing.T, name string) (uint64, bool) {
	s := os.Getenv(name)
	if s == "" {
		return 0, false
	}
	v, err := strconv.ParseUint(s, 10, 64)
	if err != nil || v == 0 {
		t.Fatalf("%s=%q: want a positive whole number", name, s)
	}
	return v, true
}

// fuzzHostileNames are the names the service stores and the console shows.
var fuzzHostileNames = []string{"plain-tag", strings.Repeat("L", 256), "bidi\u202eevil",
	"ctl\x1b]0;pwned\x07", "c1\u009bX", "wide財務チーム財務チーム財務チーム"}

// fuzzDemo is the real local service with activities pending for bob, some
// with long or hostile names.
func fuzzDemo(t *testing.T) *servertest.Demo {
	d := servertest.StartDemo(t)
	alice := d.Client("alice")
	ctx := context.Background()
	member := d.Info.Members[0].UserID
	for _, n := range fuzzHostileNames {
		if _, err := alice.CreateUserTag(ctx, api.CreateUserTagParams{UserTagName: n, UserIDs: []string{member}}); err != nil {
			t.Fatalf("propose tag %q: %v", n, err)
		}
		p := api.CreatePolicyParams{PolicyName: n, Effect: api.EffectAllow, Condition: "true", Consensus: "approvers.count() >= 1", Notes: n}
		if _, err := alice.CreatePolicy(ctx, p); err != nil {
			t.Fatalf("propose policy %q: %v", n, err)
		}
	}
	for i := range 20 {
		if _, err := alice.CreateUserTag(ctx, api.CreateUserTagParams{UserTagName: "bulk-" + strconv.Itoa(i), UserIDs: []string{member}}); err != nil {
			t.Fatal(err)
		}
	}
	return d
}

// fuzzConsole runs one seed and returns how many votes bob cast.
func fuzzConsole(t *testing.T, seed uint64, steps int) int {
	d := fuzzDemo(t)
	bob := d.Client("bob")
	if seed%2 == 1 {
		// Longer than the service stores: only a hostile service sends it.
		long := strings.Repeat(`W財\u202e\u001b]0;pwned\u0007\u009b`, 500) + strings.Repeat("L", 5000)
		bob = d.ClientAt(d.Rewriting(func(_ string, _, reply []byte) []byte {
			return []byte(strings.ReplaceAll(string(reply), "plain-tag", long))
		}), "bob", api.WithExactStrings())
	}
	bobID := memberID(t, d, "bob")
	before := votesBy(t, d, bobID)
	h := newHarnessWith(t, bob, bob, theme.Options{Dark: true, NoColor: true}, 0)
	f := &fuzzer{t: t, h: h, demo: d, rng: rand.New(rand.NewPCG(seed, 7)), w: 100, hh: 30, asked: map[string]bool{}}
	where := "before the first step"
	defer func() {
		if p := recover(); p != nil {
			t.Fatalf("%s: panic: %v\n%s\nlast steps %v", where, p, debug.Stack(), f.lastSteps())
		}
	}()
	for i := range steps {
		where = fmt.Sprintf("seed %d, step %d (%s)", seed, i+1, f.step())
		f.check(where)
	}
	where = fmt.Sprintf("seed %d, the replies left after step %d", seed, steps)
	for len(f.pending) > 0 { // every reply still on its way arrives
		m := f.pending[0]
		f.pending = f.pending[1:]
		f.deliver(m)
	}
	votes := 0
	for key := range votesBy(t, d, bobID) {
		if before[key] {
			continue
		}
		votes++
		if !f.asked[key] {
			t.Errorf("seed %d: bob's vote %s was never asked in a vote dialog; dialogs answered %v; last steps %v", seed, key, f.asked, f.lastSteps())
		}
	}
	t.Logf("seed %d: %d votes by bob, %d vote dialogs answered", seed, votes, len(f.asked))
	return votes
}

// votesBy is "activity id/approved" of every vote userID cast on an activity
// someone else proposed (a proposer's approval comes with the proposal).
func votesBy(t *testing.T, d *servertest.Demo, userID string) map[string]bool {
	out := map[string]bool{}
	err := api.WalkActivities(context.Background(), d.Client("alice"), api.ListActivitiesOptions{}, 100, func(a api.Activity) {
		for i, v := range a.Votes {
			if v.UserID == userID && i > 0 {
				out[askedVote(a.ID, v.Selection == api.VoteApproved)] = true
			}
		}
	})
	if err != nil {
		t.Fatalf("list activities: %v", err)
	}
	return out
}

func askedVote(id string, approve bool) string { return fmt.Sprintf("%s/%v", id, approve) }

// fuzzer feeds one console random input and keeps what the checks need.
type fuzzer struct {
	t       *testing.T
	h       *harness
	demo    *servertest.Demo
	rng     *rand.Rand
	w, hh   int
	pending []tea.Msg       // replies not yet delivered
	seen    []tea.Msg       // read replies delivered, to deliver again
	asked   map[string]bool // askedVote of every vote dialog y was pressed in
	log     []string
	shown   *ConfirmDialog // the vote dialog on top after the last step
	tags    int
}

func (f *fuzzer) lastSteps() []string { return f.log[max(0, len(f.log)-40):] }

// fuzzKeys is every key of the keymaps and then some.
var fuzzKeys = strings.Fields(`? tab l shift+tab h 1 2 3 4 5 6 7 8 9 esc : m a x r p v s t ] [ y Y up k down j / n space
	i d u U e ctrl+r ctrl+s left right enter backspace o O pgup pgdown ctrl+b ctrl+f home g end G delete ctrl+a ctrl+e
	ctrl+k ctrl+u ctrl+w ctrl+z ctrl+l ctrl+n ctrl+p ctrl+o ctrl+x ctrl+v f1 insert rune`)

// fuzzVoteKeys are the keys that reach votes, pressed more often: uniform
// keys seldom open a vote dialog and answer it.
var fuzzVoteKeys = strings.Fields("a x y y Y j k enter esc r v 1 down up p G g")

// fuzzSizes are windows a console is used in, and fuzzOddSizes the ones too
// small to show more than a notice (or anything), where keys do nothing.
var (
	fuzzSizes    = [][2]int{{80, 24}, {100, 30}, {60, 18}, {200, 60}, {73, 20}}
	fuzzOddSizes = [][2]int{{0, 0}, {1, 1}, {10, 3}, {300, 5}, {5, 300}, {40, 12}, {120, 8}, {59, 18}, {60, 17}}
)

var fuzzPastes = []string{"bob", "line1\nline2", "\x1b[31mred", strings.Repeat("p", 3000), "a\u202eb", "1"}

func (f *fuzzer) key(s string) tea.KeyPressMsg {
	switch s {
	case "pgup":
		return tea.KeyPressMsg{Code: tea.KeyPgUp}
	case "pgdown":
		return tea.KeyPressMsg{Code: tea.KeyPgDown}
	case "home":
		return tea.KeyPressMsg{Code: tea.KeyHome}
	case "end":
		return tea.KeyPressMsg{Code: tea.KeyEnd}
	case "delete":
		return tea.KeyPressMsg{Code: tea.KeyDelete}
	case "f1":
		return tea.KeyPressMsg{Code: tea.KeyF1}
	case "insert":
		return tea.KeyPressMsg{Code: tea.KeyInsert}
	case "rune":
		runes := []rune{'é', '財', '\u202e', 'Z', '0', '-', '"', '\'', '\\', '👍', '\u00a0', '\u200b'}
		r := runes[f.rng.IntN(len(runes))]
		return tea.KeyPressMsg{Code: r, Text: string(r)}
	}
	return keyPress(s)
}

// redeliverable reports whether m is a read reply a retried or repeated
// request may deliver twice.
func redeliverable(m tea.Msg) bool {
	switch m.(type) {
	case activitiesLoadedMsg, apiKeyLoadedMsg, activityDetailMsg, activityMfaMsg, activitySettledMsg,
		appProofVerifiedMsg, bootProofLoadedMsg, explainedMsg, loginKitLoadedMsg, mfaLoadedMsg, opFormLoadedMsg,
		orgLoadedMsg, pendingDeletesLoadedMsg, policiesLoadedMsg, policiesRecentMsg, policySimulatedMsg,
		usersLoadedMsg, voteRecheckedMsg:
		return true
	}
	return false
}

// world has another member act on the service meanwhile.
func (f *fuzzer) world() string {
	ctx := context.Background()
	if f.rng.IntN(3) == 0 {
		f.tags++
		name := fmt.Sprintf("w-%d", f.tags)
		if _, err := f.demo.Client("alice").CreateUserTag(ctx, api.CreateUserTagParams{UserTagName: name, UserIDs: []string{f.demo.Info.Members[0].UserID}}); err != nil {
			f.t.Fatalf("alice proposes %s: %v", name, err)
		}
		return "alice proposes " + name
	}
	voter := []string{"alice", "carol"}[f.rng.IntN(2)]
	c := f.demo.Client(voter)
	acts, err := c.ListActivities(ctx, api.ListActivitiesOptions{Statuses: []string{api.StatusConsensusNeeded}, Limit: 100})
	if err != nil {
		f.t.Fatalf("%s lists pending activities: %v", voter, err)
	}
	if len(acts) == 0 {
		return "nothing pending for " + voter
	}
	a := acts[f.rng.IntN(len(acts))]
	// Refused when voter already voted: that is part of the world too.
	if f.rng.IntN(2) == 0 {
		c.ApproveActivity(ctx, a.Fingerprint)
	} else {
		c.RejectActivity(ctx, a.Fingerprint)
	}
	return voter + " votes on " + a.ID
}

// exec runs cmd now, as the program would, and holds its messages back to
// deliver them later in any order.
func (f *fuzzer) exec(cmd tea.Cmd) {
	msgs, err := collectUntil(cmd, f.h.commandWait())
	if err != nil {
		f.t.Fatal(err)
	}
	for _, m := range msgs {
		if reflect.TypeOf(m).PkgPath() == "charm.land/bubbletea/v2" {
			continue // quit and terminal requests, which the program handles
		}
		f.pending = append(f.pending, m)
	}
}

func (f *fuzzer) deliver(m tea.Msg) {
	desc := fmt.Sprintf("%T", m)
	if k, ok := m.(tea.KeyPressMsg); ok {
		desc = "key " + k.String()
	}
	f.log = append(f.log, fmt.Sprintf("%s@screen%d/dialogs%d", desc, f.h.root.active, f.h.root.dialogs.Len()))
	_, cmd := f.h.root.Update(m)
	f.exec(cmd)
}

// step does one random thing and says what.
func (f *fuzzer) step() string {
	rng := f.rng
	switch n := rng.IntN(100); {
	case n < 30 && len(f.pending) > 0: // a reply arrives, in any order
		i := rng.IntN(len(f.pending))
		m := f.pending[i]
		f.pending = append(f.pending[:i], f.pending[i+1:]...)
		if redeliverable(m) {
			f.seen = append(f.seen, m)
		}
		f.deliver(m)
		return fmt.Sprintf("reply %T", m)
	case n < 33 && len(f.seen) > 0:
		m := f.seen[rng.IntN(len(f.seen))]
		f.deliver(m)
		return fmt.Sprintf("reply %T again", m)
	case n < 35:
		w := f.world()
		f.log = append(f.log, w)
		return w
	case n < 38:
		sz := fuzzSizes[rng.IntN(len(fuzzSizes))]
		if rng.IntN(3) == 0 {
			sz = fuzzOddSizes[rng.IntN(len(fuzzOddSizes))]
		}
		f.w, f.hh = sz[0], sz[1]
		f.deliver(tea.WindowSizeMsg{Width: f.w, Height: f.hh})
		return fmt.Sprintf("size %dx%d", f.w, f.hh)
	case n < 44:
		x, y := rng.IntN(f.w+20)-5, rng.IntN(f.hh+20)-5
		if rng.IntN(2) == 0 {
			f.deliver(tea.MouseClickMsg{X: x, Y: y, Button: tea.MouseLeft})
			return fmt.Sprintf("click %d,%d", x, y)
		}
		b := tea.MouseWheelUp
		if rng.IntN(2) == 0 {
			b = tea.MouseWheelDown
		}
		f.deliver(tea.MouseWheelMsg{X: x, Y: y, Button: b})
		return fmt.Sprintf("wheel %d,%d", x, y)
	case n < 47:
		p := fuzzPastes[rng.IntN(len(fuzzPastes))]
		f.deliver(tea.PasteMsg{Content: p})
		return fmt.Sprintf("paste %q", p[:min(len(p), 12)])
	}
	k := fuzzKeys[rng.IntN(len(fuzzKeys))]
	if rng.IntN(3) != 0 {
		k = fuzzVoteKeys[rng.IntN(len(fuzzVoteKeys))]
	}
	if f.h.voteDialogOpen() && rng.IntN(4) == 0 {
		k = "y" // else the dialog is mostly closed unanswered
	}
	msg := f.key(k)
	f.h.armDialogs() // time passes before a person's key
	if a := f.h.activities(); k == "y" && f.h.voteDialogOpen() && a.asking != nil {
		f.asked[askedVote(a.asking.vote.id, a.asking.vote.approve)] = true
	}
	f.deliver(msg)
	return "key " + msg.String()
}

// check fails the test if the console broke a property after the step
// where.
func (f *fuzzer) check(where string) {
	t := f.t
	var top *ConfirmDialog
	if cd, ok := f.h.root.dialogs.Top().(*ConfirmDialog); ok && f.h.voteDialogOpen() && cd.withdrawn == "" {
		top = cd // (one withdrawn before it arrived answers nothing)
	}
	if top != nil && top != f.shown {
		a := f.h.activities()
		sel := a.selected()
		if a.asking == nil || sel == nil || a.asking.vote.id != sel.ID || a.asking.shown.ID != sel.ID {
			sid, vid := "<none>", "<none>"
			if sel != nil {
				sid = sel.ID
			}
			if a.asking != nil {
				vid = a.asking.vote.id
			}
			t.Fatalf("%s: vote dialog for %s opened while %s is highlighted; last steps %v", where, vid, sid, f.lastSteps())
		}
	}
	f.shown = top
	if err := frameFault(f.h, f.w, f.hh); err != nil {
		t.Fatalf("%s: %v\nlast steps %v", where, err, f.lastSteps())
	}
}

// frameFault says how the console's frame does not fit a w×hh window, or
// what in it or the window title a terminal would act on; nil if nothing.
func frameFault(h *harness, w, hh int) error {
	frame := h.root.Render()
	plain := ansi.Strip(frame)
	lines := strings.Split(plain, "\n")
	if len(lines) != max(hh, 1) {
		return fmt.Errorf("at %dx%d the frame has %d lines:\n%s", w, hh, len(lines), plain)
	}
	for i, l := range lines {
		if lw := ansi.StringWidth(l); lw > max(w, 1) {
			return fmt.Errorf("at %dx%d line %d is %d wide: %q", w, hh, i, lw, l)
		}
	}
	if m := notSGR.FindString(frame); m != "" {
		return fmt.Errorf("escape %q in the frame", m)
	}
	for _, r := range plain {
		if r == '\x1b' || r == '\r' || r == 0x07 || r == 0x08 || r == 0x7f || terminalControl(r) {
			return fmt.Errorf("control %U in the frame:\n%s", r, plain)
		}
	}
	title := h.root.WindowTitle()
	for _, r := range title {
		if r < 0x20 || r == 0x7f || terminalControl(r) {
			return fmt.Errorf("control %U in the window title %q", r, title)
		}
	}
	return nil
}

// terminalControl reports a C1 control or a bidi override, embedding,
// isolate or mark: code points that reorder or take over what follows.
func terminalControl(r rune) bool {
	return r >= 0x80 && r <= 0x9f || r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069 || r == 0x200e || r == 0x200f
}
