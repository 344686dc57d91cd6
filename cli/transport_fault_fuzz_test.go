package cli

import (
	"context"
	"fmt"
	"os"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/internal/faultproxy"
)

// TestCLIUnderTransportFaults puts a fault-injecting proxy (faultproxy)
// between the CLI's vote and submit verbs and the real local service.
//
// The default run is one seed of transportFuzzSteps (fewer under -race); a
// longer one, as the audit ran it:
//
//	VIGIL_FUZZ_SEED=1 VIGIL_FUZZ_SEEDS=6 VIGIL_FUZZ_STEPS=42 VIGIL_FUZZ_RATE=60 go test ./cli -run TestCLIUnderTransportFaults -count=1 -v
func TestCLIUnderTransportFaults(t *testing.T) {
	if testing.Short() {
		t.Skip("a fuzz; run without -short")
	}
	first, n, steps, rate := uint64(1), uint64(1), transportFuzzSteps, 50
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
			for k, v := range fuzzCLITransport(t, seed, steps, rate) {
				total[k] += v
			}
		})
	}
	t.Logf("fault tally over %d seeds × %d steps: %v", n, steps, total)
}

func countNamed(t *testing.T, e *verbEnv, name string) int {
	raw, err := e.client("alice").ListActivitiesRaw(context.Background(), api.ListActivitiesOptions{Limit: 100})
	if err != nil {
		t.Fatal(err)
	}
	return strings.Count(string(raw), `"`+name+`"`)
}

func fuzzCLITransport(t *testing.T, seed uint64, steps, rate int) map[string]int {
	e := newVerbEnv(t)
	var ids []string
	for i := 0; i < 6; i++ {
		ids = append(ids, openTag(t, e, fmt.Sprintf("tf%d-%d", seed, i)))
	}
	p, err := faultproxy.New(e.demo.URL, seed, rate)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	cfg := e.configVia(p.URL, t.TempDir()+"/faulty.toml")
	bobID := e.userID("bob")
	for step := 0; step < steps; step++ {
		evBefore := len(p.Events())
		var args []string
		kind := (step + int(seed)) % 7
		id := ids[(step*5+int(seed))%len(ids)]
		name := fmt.Sprintf("sub%d-%d", seed, step)
		var before *api.Vote
		switch kind {
		case 0:
			args = []string{"activity", "approve", "--yes", "--profile", "bob", id}
		case 1:
			args = []string{"activity", "reject", "--yes", "--profile", "bob", id}
		case 2:
			args = []string{"tag", "create", "--name", name}
		case 3:
			args = []string{"tag", "create", "--json", "--name", name}
		case 4:
			body := fmt.Sprintf(`{"type":"ACTIVITY_TYPE_CREATE_USER_TAG","timestampMs":"%d","organizationId":%q,"parameters":{"userTagName":%q,"userIds":[]}}`,
				time.Now().UnixMilli(), e.demo.Info.OrganizationID, name)
			args = []string{"request", "--path", "/public/v1/submit/create_user_tag", "--body", body}
		case 5:
			args = []string{"activity", "approve", "--yes", "--json", "--profile", "bob", id}
		case 6:
			a, err := e.client("alice").GetActivity(context.Background(), id)
			if err != nil {
				t.Fatal(err)
			}
			body := fmt.Sprintf(`{"type":"ACTIVITY_TYPE_APPROVE_ACTIVITY","timestampMs":"%d","organizationId":%q,"parameters":{"fingerprint":%q}}`,
				time.Now().UnixMilli(), e.demo.Info.OrganizationID, a.Fingerprint)
			args = []string{"request", "--profile", "bob", "--path", "/public/v1/submit/approve_activity", "--body", body}
		}
		isSubmit := kind >= 2 && kind <= 4
		isVote := !isSubmit
		approve := kind == 0 || kind == 5 || kind == 6
		if isVote {
			a, err := e.client("alice").GetActivity(context.Background(), id)
			if err != nil {
				t.Fatal(err)
			}
			if v := a.VoteOf(bobID); v != nil {
				vv := *v
				before = &vv
			}
		}
		var code int
		var out, errOut string
		start := time.Now()
		func() {
			defer func() {
				if r := recover(); r != nil {
					t.Fatalf("seed %d step %d %v: panic %v\n%s", seed, step, args, r, debug.Stack())
				}
			}()
			code, out, errOut = runVigil(t, map[string]string{"VIGIL_CONFIG": cfg}, "", args...)
		}()
		took := time.Since(start)
		evs := p.Events()[evBefore:]
		var faults []string
		for _, ev := range evs {
			faults = append(faults, fmt.Sprintf("%s %s fwd=%v st=%d %s", ev.Fault, strings.TrimPrefix(ev.Path, "/public/v1/"), ev.Forwarded, ev.Status, ev.Detail))
		}
		where := fmt.Sprintf("seed %d step %d %v (took %s)", seed, step, args, took.Round(time.Millisecond))
		fail := func(format string, a ...any) {
			t.Errorf("%s: %s\nexit %d\nstdout:\n%.1500s\nstderr:\n%.1500s\nrequests:\n  %s", where, fmt.Sprintf(format, a...), code, out, errOut, strings.Join(faults, "\n  "))
		}
		if os.Getenv("VIGIL_FUZZ_VERBOSE") != "" {
			t.Logf("%s exit %d\n  %s\n  stderr: %.400s", where, code, strings.Join(faults, "\n  "), errOut)
		}
		if raw := rawControls(out); len(raw) > 0 {
			fail("raw %q on stdout", raw)
		}
		if raw := rawControls(errOut); len(raw) > 0 {
			fail("raw %q on stderr", raw)
		}
		if code != 0 && code != 1 && code != 4 {
			fail("exit %d not documented here", code)
		}
		if code == 4 && !strings.Contains(errOut, "vigil activity") {
			fail("exit 4 without saying what to do (look with vigil activity list/get)")
		}
		if isSubmit {
			n := countNamed(t, e, name)
			switch {
			case n > 1:
				fail("%d activities recorded for one submit", n)
			case code == 0 && n != 1:
				fail("exit 0 but the service recorded %d activities", n)
			case code == 1 && n != 0 && !strings.Contains(errOut, "FAILED"):
				fail("exit 1 (not done) but the service recorded the activity")
			}
			continue
		}
		a, err := e.client("alice").GetActivity(context.Background(), id)
		if err != nil {
			t.Fatal(err)
		}
		after := a.VoteOf(bobID)
		want := api.VoteApproved
		if !approve {
			want = api.VoteRejected
		}
		switch code {
		case 0:
			if after == nil || after.Selection != want {
				fail("exit 0 but bob's recorded vote is %+v", after)
			}
		case 1:
			if before == nil && after != nil {
				fail("exit 1 (not done) but the service recorded bob's vote %s", after.Selection)
			}
		}
	}
	t.Logf("seed %d: tally %v", seed, p.Tally)
	return p.Tally
}
