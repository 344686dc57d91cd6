package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/vigil-console/vigil/api"
)

// stamped is a request stamped ahead of the phase that sends it, so that the
// load generator's signing does not compete with the server for the CPU. The
// server still verifies every stamp in full (it keeps no verdicts).
type stamped struct {
	path          string
	body          []byte
	header, value string
}

func stampEach(t target, useSubmitKey bool, path string, bodies [][]byte) ([]stamped, error) {
	k := t.queryKey
	if useSubmitKey {
		k = t.submitKey
	}
	out := make([]stamped, len(bodies))
	for i, b := range bodies {
		h, v, err := k.Stamp(b)
		if err != nil {
			return nil, err
		}
		out[i] = stamped{path, b, h, v}
	}
	return out, nil
}

// same repeats one body: ECDSA stamps of it still all differ.
func same(body []byte, n int) [][]byte {
	out := make([][]byte, n)
	for i := range out {
		out[i] = body
	}
	return out
}

func whoamiRequests(t target, n int) ([]stamped, error) {
	body, _ := json.Marshal(api.WhoamiRequest{OrganizationID: t.org})
	return stampEach(t, false, api.QueryPrefix+api.QueryWhoami, same(body, n))
}

// getActivityRequests fetch one activity of the organization (the newest),
// as the console's detail view and `vigil activity get` do.
func getActivityRequests(ctx context.Context, c *http.Client, t target, n int) ([]stamped, error) {
	body, _ := json.Marshal(api.ListActivitiesRequest{OrganizationID: t.org, PaginationOptions: &api.PaginationOptions{Limit: "1"}})
	list, err := stampEach(t, false, api.QueryPrefix+api.QueryListActivities, [][]byte{body})
	if err != nil {
		return nil, err
	}
	reply, err := sendFor(ctx, c, t.url, list[0])
	if err != nil {
		return nil, err
	}
	var page api.ListActivitiesResponse
	if err := json.Unmarshal(reply, &page); err != nil || len(page.Activities) == 0 {
		return nil, fmt.Errorf("find an activity to get: %d activities, %v", len(page.Activities), err)
	}
	body, _ = json.Marshal(api.GetActivityRequest{OrganizationID: t.org, ActivityID: page.Activities[0].ID})
	return stampEach(t, false, api.QueryPrefix+api.QueryGetActivity, same(body, n))
}

// pendingRequests is the console's default view: activities waiting for
// consensus, a page of 100.
func pendingRequests(t target, n int) ([]stamped, error) {
	body, _ := json.Marshal(api.ListActivitiesRequest{OrganizationID: t.org, FilterByStatus: []string{api.StatusConsensusNeeded},
		PaginationOptions: &api.PaginationOptions{Limit: "100"}})
	return stampEach(t, false, api.QueryPrefix+api.QueryListActivities, same(body, n))
}

// submitRequests are create_read_only_session submits, each a new activity
// (distinct timestamps) that the demo's policy completes at once.
func submitRequests(t target, n int) ([]stamped, error) {
	now := time.Now().UnixMilli()
	bodies := make([][]byte, n)
	for i := range bodies {
		bodies[i], _ = json.Marshal(api.ActivityRequest{Type: api.TypeCreateReadOnlySession, OrganizationID: t.org,
			TimestampMs: strconv.FormatInt(now+int64(i), 10), Parameters: json.RawMessage(`{}`)})
	}
	return stampEach(t, true, api.SubmitPrefix+"create_read_only_session", bodies)
}

// phaseResult is one phase's measurements.
type phaseResult struct {
	count     int
	elapsed   time.Duration
	p50, p99  time.Duration
	serverCPU time.Duration // 0 when the server's process is unknown
}

func (p phaseResult) rate() float64 {
	if p.elapsed <= 0 {
		return 0
	}
	return float64(p.count) / p.elapsed.Seconds()
}

// runPhase sends reqs from clients goroutines for d (each request once when
// once is set, as submits must be, else round robin) and measures.
func runPhase(ctx context.Context, c *http.Client, url string, reqs []stamped, clients int, d time.Duration, pid int, once bool) (phaseResult, error) {
	var next atomic.Int64
	var mu sync.Mutex
	var lat []time.Duration
	var firstErr error
	var wg sync.WaitGroup
	deadline := time.Now().Add(d)
	cpu0 := processCPU(pid)
	start := time.Now()
	for range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var mine []time.Duration
			defer func() { mu.Lock(); lat = append(lat, mine...); mu.Unlock() }()
			for time.Now().Before(deadline) {
				i := next.Add(1) - 1
				if once && i >= int64(len(reqs)) {
					return
				}
				r := reqs[i%int64(len(reqs))]
				t0 := time.Now()
				if err := send(ctx, c, url, r); err != nil {
					mu.Lock()
					if firstErr == nil {
						firstErr = err
					}
					mu.Unlock()
					return
				}
				mine = append(mine, time.Since(t0))
			}
		}()
	}
	wg.Wait()
	res := phaseResult{elapsed: time.Since(start)}
	if pid != 0 {
		res.serverCPU = processCPU(pid) - cpu0
	}
	if firstErr != nil {
		return res, firstErr
	}
	slices.Sort(lat)
	res.count = len(lat)
	if len(lat) > 0 {
		res.p50, res.p99 = lat[len(lat)/2], lat[min(len(lat)-1, len(lat)*99/100)]
	}
	return res, nil
}

func send(ctx context.Context, c *http.Client, url string, r stamped) error {
	_, err := sendFor(ctx, c, url, r)
	return err
}

// sendFor sends one stamped request and returns the reply's body.
func sendFor(ctx context.Context, c *http.Client, url string, r stamped) ([]byte, error) {
	req, err := http.NewRequestWithContext(ctx, "POST", url+r.path, bytes.NewReader(r.body))
	if err != nil {
		return nil, err
	}
	req.Header.Set(r.header, r.value)
	req.Header.Set("Content-Type", "application/json")
	resp, err := c.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("%s: HTTP %d: %.300s", r.path, resp.StatusCode, b)
	}
	return b, nil
}

// processCPU is a process's user+system CPU time from /proc (Linux); 0 if
// unknown.
func processCPU(pid int) time.Duration {
	if pid == 0 {
		return 0
	}
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0
	}
	// Fields after the command name (which may hold spaces) start after ")".
	s := string(b)
	fields := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	if len(fields) < 13 {
		return 0
	}
	utime, _ := strconv.ParseInt(fields[11], 10, 64)
	stime, _ := strconv.ParseInt(fields[12], 10, 64)
	const ticksPerSecond = 100 // USER_HZ on Linux
	return time.Duration(utime+stime) * time.Second / ticksPerSecond
}

// peakRSS is a process's peak resident set size (VmHWM), in bytes.
func peakRSS(pid int) int64 {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			return kb << 10
		}
	}
	return 0
}
