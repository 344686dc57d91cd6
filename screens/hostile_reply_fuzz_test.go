package screens

import (
	"fmt"
	"math/rand/v2"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/internal/replyfuzz"
	"github.com/vigil-console/vigil/ui/theme"
)

// TestConsoleUnderHostileReplies is TestConsoleUnderRandomInput with bob's
// console reading through a proxy that mutates the service's replies
// structurally (replyfuzz). Besides that test's checks, every vote the proxy
// sees must sign the fingerprint shown in the vote dialog answered with y.
// Knobs: VIGIL_FUZZ_SEED (one seed), VIGIL_FUZZ_SEEDS, VIGIL_FUZZ_STEPS,
// VIGIL_FUZZ_RATE (percent of replies mutated). The default run is
// hostileReplySeeds × hostileReplySteps (smaller under -race); without
// -race the test checks that every class of mutation ran.
//
//	VIGIL_FUZZ_SEED=3 go test ./screens -run TestConsoleUnderHostileReplies -count=1 -v
func TestConsoleUnderHostileReplies(t *testing.T) {
	first, n, steps := uint64(1), uint64(hostileReplySeeds), hostileReplySteps
	if s, ok := fuzzKnob(t, "VIGIL_FUZZ_SEED"); ok {
		first, n = s, 1
	}
	if s, ok := fuzzKnob(t, "VIGIL_FUZZ_SEEDS"); ok {
		n = s
	}
	if s, ok := fuzzKnob(t, "VIGIL_FUZZ_STEPS"); ok {
		steps = int(s)
	}
	total := map[string]int{}
	for seed := first; seed < first+n; seed++ {
		t.Run(strconv.FormatUint(seed, 10), func(t *testing.T) {
			for k, v := range fuzzHostileConsole(t, seed, steps) {
				total[k] += v
			}
		})
	}
	t.Logf("mutation tally over %d seeds × %d steps: %v", n, steps, total)
	if t.Failed() || !hostileReplyEveryClass {
		return
	}
	for _, class := range replyfuzz.Unapplied(total) {
		t.Errorf("no reply was mutated by %s in %d seeds × %d steps: the run did not test it (raise VIGIL_FUZZ_STEPS or VIGIL_FUZZ_RATE)", class, n, steps)
	}
}

type seenSubmit struct {
	op, fingerprint string
}

func fuzzHostileConsole(t *testing.T, seed uint64, steps int) map[string]int {
	d := fuzzDemo(t)
	rate := 35
	if s, ok := fuzzKnob(t, "VIGIL_FUZZ_RATE"); ok {
		rate = int(s)
	}
	mut := replyfuzz.New(seed, rate)
	var mu sync.Mutex
	var submits []seenSubmit
	proxy := d.Rewriting(func(op string, request, reply []byte) []byte {
		if fp, ok := replyfuzz.VotedFingerprint(op, request); ok {
			mu.Lock()
			submits = append(submits, seenSubmit{op, fp})
			mu.Unlock()
		}
		return mut.Rewrite(op, request, reply)
	})
	bob := d.ClientAt(proxy, "bob", api.WithExactStrings())
	h := newHarnessWith(t, bob, bob, theme.Options{Dark: true, NoColor: true}, 0)
	f := &fuzzer{t: t, h: h, demo: d, rng: rand.New(rand.NewPCG(seed, 7)), w: 100, hh: 30, asked: map[string]bool{}}
	where := "before the first step"
	defer func() {
		if p := recover(); p != nil {
			t.Fatalf("%s: panic: %v\n%s\nlast steps %v\nlast mutations:\n%s", where, p, debug.Stack(), f.lastSteps(), strings.Join(mut.LastLog(8), "\n"))
		}
	}()
	checked := 0
	var lastDialog, lastFrame string
	for i := range steps {
		// what a y would answer, as on screen now
		if cd, ok := f.h.root.dialogs.Top().(*ConfirmDialog); ok && f.h.voteDialogOpen() {
			lastDialog = strings.Join(cd.confirm.Lines, "\n")
			lastFrame = f.h.root.Render()
		}
		where = fmt.Sprintf("seed %d, step %d (%s)", seed, i+1, f.step())
		f.check(where)
		mu.Lock()
		news := submits[checked:]
		checked = len(submits)
		mu.Unlock()
		for _, s := range news {
			if s.fingerprint == "" || !strings.Contains(lastDialog, s.fingerprint) {
				t.Fatalf("%s: %s signs fingerprint %q, not in the vote dialog answered:\n%s\nframe:\n%s\nlast steps %v\nlast mutations:\n%s",
					where, s.op, s.fingerprint, lastDialog, lastFrame, f.lastSteps(), strings.Join(mut.LastLog(8), "\n"))
			}
		}
	}
	where = fmt.Sprintf("seed %d, the replies left after step %d", seed, steps)
	for len(f.pending) > 0 {
		m := f.pending[0]
		f.pending = f.pending[1:]
		f.deliver(m)
		f.check(where)
	}
	t.Logf("seed %d: %d votes sent, tally %s", seed, len(submits), mut.Summary())
	return mut.Tally()
}
