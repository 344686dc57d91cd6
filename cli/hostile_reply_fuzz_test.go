package cli

import (
	"context"
	"fmt"
	"os"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/internal/replyfuzz"
)

// TestCLIUnderHostileReplies runs bob's read and vote verbs through a proxy
// that mutates the service's replies structurally (replyfuzz), seeded.
// After every verb: no panic, stdout and stderr free of raw controls, a
// documented exit status; after a vote, the fingerprint signed is the asked
// activity's, and exit 0 only when the service recorded that vote.
// Knobs: VIGIL_FUZZ_SEED (one seed), VIGIL_FUZZ_SEEDS, VIGIL_FUZZ_STEPS,
// VIGIL_FUZZ_RATE (percent of replies mutated). The default run is
// hostileReplySeeds × hostileReplySteps (smaller under -race); without
// -race the test checks that every class of mutation ran.
//
//	VIGIL_FUZZ_SEED=3 go test ./cli -run TestCLIUnderHostileReplies -count=1 -v
func TestCLIUnderHostileReplies(t *testing.T) {
	first, n, steps, rate := uint64(1), uint64(hostileReplySeeds), hostileReplySteps, 60
	if s, ok := fuzzKnob(t, "VIGIL_FUZZ_SEED"); ok {
		first, n = s, 1
	}
	if s, ok := fuzzKnob(t, "VIGIL_FUZZ_SEEDS"); ok {
		n = s
	}
	if s, ok := fuzzKnob(t, "VIGIL_FUZZ_STEPS"); ok {
		steps = int(s)
	}
	if s, ok := fuzzKnob(t, "VIGIL_FUZZ_RATE"); ok {
		rate = int(s)
	}
	total := map[string]int{}
	for seed := first; seed < first+n; seed++ {
		t.Run(strconv.FormatUint(seed, 10), func(t *testing.T) {
			for k, v := range fuzzCLI(t, seed, steps, rate) {
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

// fuzzKnob is the positive whole number environment variable name holds,
// false when it is not set.
func fuzzKnob(t *testing.T, name string) (uint64, bool) {
	t.Helper()
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

func fuzzCLI(t *testing.T, seed uint64, steps, rate int) map[string]int {
	e := newVerbEnv(t)
	names := []string{"plain", "bidi\u202eevil", "ctl\x1b]0;pwned\x07", "c1\u009bX", "wide財務チーム"}
	var ids []string
	for i := 0; i < 8; i++ {
		ids = append(ids, openTag(t, e, names[i%len(names)]+strconv.Itoa(i)))
	}
	real := map[string]string{} // id -> fingerprint
	for _, id := range ids {
		a, err := e.client("alice").GetActivity(context.Background(), id)
		if err != nil {
			t.Fatal(err)
		}
		real[id] = a.Fingerprint
	}
	mut := replyfuzz.New(seed, rate)
	var mu sync.Mutex
	var signed []string
	hostile := e.via(func(op string, request, reply []byte) []byte {
		if fp, ok := replyfuzz.VotedFingerprint(op, request); ok {
			mu.Lock()
			signed = append(signed, op+" "+fp)
			mu.Unlock()
		}
		return mut.Rewrite(op, request, reply)
	})
	pick := func(i int) string { return ids[i%len(ids)] }
	bobID := e.userID("bob")
	for step := 0; step < steps; step++ {
		id := pick(step*7 + int(seed))
		var args []string
		switch (step*5 + int(seed)*3) % 15 {
		case 0:
			args = []string{"activity", "list"}
		case 1:
			args = []string{"activity", "list", "--json"}
		case 2:
			args = []string{"activity", "get", id}
		case 3:
			args = []string{"activity", "get", "--json", id}
		case 4:
			args = []string{"activity", "evaluations", id}
		case 5:
			args = []string{"activity", "approve", "--yes", id}
		case 6:
			args = []string{"activity", "reject", "--yes", id}
		case 7:
			args = []string{"policy", "list"}
		case 8:
			args = []string{"user", "list"}
		case 9:
			args = []string{"mfa", "status", id}
		case 10:
			args = []string{"activity", "approve", "--yes", "--json", id}
		case 11:
			args = []string{"activity", "reject", "--yes", "--json", id}
		case 12:
			args = []string{"activity", "list", "--status", "consensus-needed"}
		case 13:
			args = []string{"feature", "list"}
		case 14:
			args = []string{"mfa", "list", "--user", bobID}
		}
		args = append(args, "--profile", "bob")
		mu.Lock()
		before := len(signed)
		mu.Unlock()
		var code int
		var out, errOut string
		func() {
			defer func() {
				if p := recover(); p != nil {
					t.Fatalf("seed %d step %d %v: panic %v\n%s\nlast mutations:\n%s", seed, step, args, p, debug.Stack(), strings.Join(mut.LastLog(5), "\n"))
				}
			}()
			code, out, errOut = hostile.run("", args...)
		}()
		where := fmt.Sprintf("seed %d step %d %v", seed, step, args)
		fail := func(format string, a ...any) {
			t.Errorf("%s: %s\nexit %d\nstdout:\n%.3000s\nstderr:\n%.3000s\nlast mutations:\n%s", where, fmt.Sprintf(format, a...), code, out, errOut, strings.Join(mut.LastLog(4), "\n"))
		}
		if raw := rawControls(out); len(raw) > 0 {
			fail("raw %q on stdout", raw[:min(len(raw), 8)])
		}
		if raw := rawControls(errOut); len(raw) > 0 {
			fail("raw %q on stderr", raw[:min(len(raw), 8)])
		}
		if code != 0 && code != 1 && code != 4 && !(code == 2 && (args[1] == "approve" || args[1] == "reject")) {
			fail("exit %d is not documented for this verb", code)
		}
		if args[1] == "approve" || args[1] == "reject" {
			mu.Lock()
			news := append([]string(nil), signed[before:]...)
			mu.Unlock()
			for _, s := range news {
				if !strings.HasSuffix(s, " "+real[id]) && code == 0 {
					fail("signed %q, but %s's fingerprint is %s, and exit 0", s, id, real[id])
				}
			}
			if code == 0 {
				a, err := e.client("alice").GetActivity(context.Background(), id)
				if err != nil {
					t.Fatal(err)
				}
				v := a.VoteOf(bobID)
				want := api.VoteApproved
				if args[1] == "reject" {
					want = api.VoteRejected
				}
				if v == nil {
					fail("exit 0 but the service has no vote by bob on %s", id)
				} else if v.Selection != want {
					fail("exit 0 for %s but bob's recorded vote is %s", args[1], v.Selection)
				}
			}
		}
	}
	t.Logf("seed %d: tally %s", seed, mut.Summary())
	return mut.Tally()
}
