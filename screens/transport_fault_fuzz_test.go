package screens

import (
	"context"
	"fmt"
	"math/rand/v2"
	"regexp"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/internal/faultproxy"
	"github.com/vigil-console/vigil/internal/replyfuzz"
	"github.com/vigil-console/vigil/ui/theme"
)

// TestConsoleUnderTransportFaults is TestConsoleUnderRandomInput with bob's
// console talking to the real service through faultproxy (transport faults
// per request). After the steps, faults stop and the console must recover.
//
// The default run is short (transportFuzzSeeds and …Steps, fewer under
// -race); a longer one, as the audit ran it:
//
//	VIGIL_FUZZ_SEED=1 VIGIL_FUZZ_SEEDS=8 VIGIL_FUZZ_STEPS=100 VIGIL_FUZZ_VOTES=40 VIGIL_FUZZ_RATE=50 go test ./screens -run TestConsoleUnderTransportFaults -count=1 -v
func TestConsoleUnderTransportFaults(t *testing.T) {
	if testing.Short() {
		t.Skip("a fuzz; run without -short")
	}
	first, n, steps, votes := uint64(1), uint64(transportFuzzSeeds), transportFuzzSteps, transportFuzzVotes
	if s, ok := fuzzKnob(t, "VIGIL_FUZZ_SEED"); ok {
		first, n = s, 1
	}
	if s, ok := fuzzKnob(t, "VIGIL_FUZZ_SEEDS"); ok {
		n = s
	}
	if s, ok := fuzzKnob(t, "VIGIL_FUZZ_STEPS"); ok {
		steps = int(s)
	}
	rate := 40
	if s, ok := fuzzKnob(t, "VIGIL_FUZZ_RATE"); ok {
		rate = int(s)
	}
	if s, ok := fuzzKnob(t, "VIGIL_FUZZ_VOTES"); ok {
		votes = int(s)
	}
	total := map[string]int{}
	for seed := first; seed < first+n; seed++ {
		t.Run(strconv.FormatUint(seed, 10), func(t *testing.T) {
			for k, v := range fuzzTransportConsole(t, seed, steps, rate, votes) {
				total[k] += v
			}
		})
	}
	t.Logf("fault tally over %d seeds × %d steps: %v", n, steps, total)
}

func fuzzTransportConsole(t *testing.T, seed uint64, steps, rate, votes int) map[string]int {
	d := fuzzDemo(t)
	p, err := faultproxy.New(d.URL, seed, rate)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	bob := d.ClientAt(p.URL, "bob", api.WithExactStrings())
	bobID := memberID(t, d, "bob")
	before := votesBy(t, d, bobID)
	h := newHarnessWith(t, bob, bob, theme.Options{Dark: true, NoColor: true}, 0)
	f := &fuzzer{t: t, h: h, demo: d, rng: rand.New(rand.NewPCG(seed, 7)), w: 100, hh: 30, asked: map[string]bool{}}
	where := "before the first step"
	faultLog := func() string {
		evs := p.Events()
		var b []string
		for _, ev := range evs[max(0, len(evs)-10):] {
			b = append(b, fmt.Sprintf("%s %s fwd=%v st=%d %s", ev.Fault, ev.Path, ev.Forwarded, ev.Status, ev.Detail))
		}
		return strings.Join(b, "\n")
	}
	defer func() {
		if r := recover(); r != nil {
			t.Fatalf("%s: panic: %v\n%s\nlast steps %v\nlast faults:\n%s", where, r, debug.Stack(), f.lastSteps(), faultLog())
		}
	}()
	checked, logged, judged := 0, 0, 0
	counted := regexp.MustCompile(`^(approved|rejected) ([0-9a-f-]+) \(`)
	other := regexp.MustCompile(`^(approve|reject) ([0-9a-f-]+): (.*)$`)
	bobVote := func(id string) *api.Vote {
		a, err := d.Client("alice").GetActivity(context.Background(), id)
		if err != nil {
			t.Fatalf("read %s: %v", id, err)
		}
		return a.VoteOf(bobID)
	}
	checkLog := func(where string) {
		entries := f.h.root.log.entries
		for _, e := range entries[min(logged, len(entries)):] {
			if m := counted.FindStringSubmatch(e.text); m != nil {
				judged++
				want := api.VoteSelection(m[1] == "approved")
				if v := bobVote(m[2]); v == nil || v.Selection != want {
					t.Errorf("%s: the console says %q, but the service has bob's vote %+v\nlast steps %v\nlast faults:\n%s", where, e.text, v, f.lastSteps(), faultLog())
				}
			} else if m := other.FindStringSubmatch(e.text); m != nil && (strings.Contains(m[3], "not counted") || strings.Contains(m[3], "too late") || strings.Contains(m[3], "not recorded")) {
				judged++
				want := api.VoteSelection(m[1] == "approve")
				if v := bobVote(m[2]); v != nil && v.Selection == want {
					t.Errorf("%s: the console says %q, but the service recorded bob's %s\nlast steps %v\nlast faults:\n%s", where, e.text, v.Selection, f.lastSteps(), faultLog())
				}
			}
		}
		logged = len(entries)
	}
	var lastDialog, lastFrame string
	for i := range steps {
		if cd, ok := f.h.root.dialogs.Top().(*ConfirmDialog); ok && f.h.voteDialogOpen() {
			lastDialog = strings.Join(cd.confirm.Lines, "\n")
			lastFrame = f.h.root.Render()
		}
		where = fmt.Sprintf("seed %d, step %d (%s)", seed, i+1, f.step())
		f.check(where)
		checkLog(where)
		evs := p.Events()
		for _, ev := range evs[checked:] {
			op := strings.TrimPrefix(ev.Path, "/public/v1/")
			if fp, ok := replyfuzz.VotedFingerprint(op, ev.Request); ok {
				if fp == "" || !strings.Contains(lastDialog, fp) {
					t.Fatalf("%s: %s signs fingerprint %q, not in the vote dialog answered:\n%s\nframe:\n%s\nlast steps %v\nlast faults:\n%s",
						where, op, fp, lastDialog, lastFrame, f.lastSteps(), faultLog())
				}
			}
		}
		checked = len(evs)
	}
	where = fmt.Sprintf("seed %d, the replies left after step %d", seed, steps)
	for len(f.pending) > 0 {
		m := f.pending[0]
		f.pending = f.pending[1:]
		f.deliver(m)
		f.check(where)
		checkLog(where)
	}
	// Directed votes under faults: open a pending row, a or x, y, every reply.
	// (A window the random steps left too small ignores keys, by design.)
	f.w, f.hh = 100, 30
	f.deliver(tea.WindowSizeMsg{Width: f.w, Height: f.hh})
	drain := func(where string) {
		for len(f.pending) > 0 {
			m := f.pending[0]
			f.pending = f.pending[1:]
			f.deliver(m)
			f.check(where)
			checkLog(where)
		}
	}
	for i := range votes {
		where = fmt.Sprintf("seed %d, directed vote %d", seed, i)
		for n := 0; f.h.root.dialogs.Len() > 0; n++ {
			if n == 20 {
				t.Fatalf("%s: esc 20 times, and a dialog %T is still open:\n%s\nlast steps %v\nlast faults:\n%s", where, f.h.root.dialogs.Top(), f.h.root.Render(), f.lastSteps(), faultLog())
			}
			f.deliver(f.key("esc"))
			drain(where)
		}
		f.deliver(f.key("1"))
		drain(where)
		if f.h.activities().detail != nil {
			f.deliver(f.key("esc"))
			drain(where)
		}
		if i%5 == 0 {
			f.world()
			f.deliver(f.key("r"))
			drain(where)
		}
		for range f.rng.IntN(4) {
			f.deliver(f.key("j"))
		}
		k := "a"
		if f.rng.IntN(3) == 0 {
			k = "x"
		}
		f.deliver(f.key(k))
		drain(where)
		f.h.armDialogs()
		if f.h.voteDialogOpen() {
			if cd, ok := f.h.root.dialogs.Top().(*ConfirmDialog); ok {
				lastDialog = strings.Join(cd.confirm.Lines, "\n")
			}
			if a := f.h.activities(); a.asking != nil {
				f.asked[askedVote(a.asking.vote.id, a.asking.vote.approve)] = true
			}
			f.deliver(f.key("y"))
			drain(where)
		}
		evs := p.Events()
		for _, ev := range evs[checked:] {
			op := strings.TrimPrefix(ev.Path, "/public/v1/")
			if fp, ok := replyfuzz.VotedFingerprint(op, ev.Request); ok && (fp == "" || !strings.Contains(lastDialog, fp)) {
				t.Fatalf("%s: %s signs fingerprint %q, not in the vote dialog answered:\n%s\nlast faults:\n%s", where, op, fp, lastDialog, faultLog())
			}
		}
		checked = len(evs)
	}
	// Faults stop: the console recovers without restart.
	p.Off(true)
	for f.h.root.dialogs.Len() > 0 {
		f.deliver(f.key("esc"))
		if f.h.root.dialogs.Len() > 0 {
			f.deliver(f.key("ctrl+c"))
			break
		}
	}
	f.deliver(f.key("1"))
	f.deliver(f.key("r"))
	for len(f.pending) > 0 {
		m := f.pending[0]
		f.pending = f.pending[1:]
		f.deliver(m)
	}
	frame := f.h.root.Render()
	if strings.Contains(frame, "stale") || strings.Contains(frame, "failed") {
		t.Errorf("seed %d: after faults stopped and r, the console still shows a failure:\n%s", seed, frame)
	}
	for key := range votesBy(t, d, bobID) {
		if before[key] {
			continue
		}
		if !f.asked[key] {
			t.Errorf("seed %d: bob's vote %s was never asked in a vote dialog; asked %v; last steps %v", seed, key, f.asked, f.lastSteps())
		}
	}
	t.Logf("seed %d: %d vote results judged against the service; tally %v", seed, judged, p.Tally)
	return p.Tally
}
