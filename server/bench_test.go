package server

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/vigil-console/vigil/api"
)

// latencies collects per-request durations for a p99.
type latencies struct {
	mu sync.Mutex
	d  []time.Duration
}

func (l *latencies) add(d time.Duration) {
	l.mu.Lock()
	l.d = append(l.d, d)
	l.mu.Unlock()
}

func (l *latencies) report(b *testing.B, elapsed time.Duration) {
	slices.Sort(l.d)
	if len(l.d) == 0 {
		return
	}
	p99 := l.d[min(len(l.d)-1, len(l.d)*99/100)]
	b.ReportMetric(float64(p99.Microseconds())/1000, "p99-ms")
	b.ReportMetric(float64(len(l.d))/elapsed.Seconds(), "req/s")
}

// benchTransport keeps enough idle connections for the parallel clients.
func benchHTTP() *http.Client {
	return &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 128}}
}

// BenchmarkStampedQuery: get_activity, stamped (P-256) and verified, over real
// HTTP on loopback, against a file-backed store.
func BenchmarkStampedQuery(b *testing.B) {
	e := newEnvWith(b, envOptions{threshold: 1, dataDir: b.TempDir()})
	ctx := ctxT(b)
	c, err := api.NewClient(e.http.URL, e.org.ID, e.keys["alice"], api.WithHTTPClient(benchHTTP()))
	if err != nil {
		b.Fatal(err)
	}
	act, err := c.CreateUserTag(ctx, api.CreateUserTagParams{UserTagName: "bench", UserIDs: []string{e.user("bob")}})
	if err != nil {
		b.Fatal(err)
	}
	var lat latencies
	b.SetParallelism(4)
	b.ResetTimer()
	start := time.Now()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			t0 := time.Now()
			if _, err := c.GetActivity(ctx, act.ID); err != nil {
				b.Error(err)
				return
			}
			lat.add(time.Since(t0))
		}
	})
	lat.report(b, time.Since(start))
}

// BenchmarkStampedSubmit: create_invitations completing at once (root quorum of
// one), each a new activity, over real HTTP, durable (WAL, synchronous=FULL).
func BenchmarkStampedSubmit(b *testing.B) {
	e := newEnvWith(b, envOptions{threshold: 1, dataDir: benchDir(b)})
	ctx := ctxT(b)
	c, err := api.NewClient(e.http.URL, e.org.ID, e.keys["alice"], api.WithHTTPClient(benchHTTP()))
	if err != nil {
		b.Fatal(err)
	}
	bob := e.user("bob")
	var n atomic.Int64
	var lat latencies
	// Many clients at once: their writes share commits (group commit).
	b.SetParallelism(16)
	b.ResetTimer()
	start := time.Now()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			t0 := time.Now()
			name := "guest" + strconv.FormatInt(n.Add(1), 10)
			act, err := c.CreateInvitations(ctx, api.CreateInvitationsParams{Invitations: []api.Invitation{{ReceiverUserName: name,
				ReceiverUserEmail: name + "@example.com", AccessType: api.AccessTypeAPI, SenderUserID: bob}}})
			if err != nil || act.Status != api.StatusCompleted {
				b.Errorf("%v %+v", err, act)
				return
			}
			lat.add(time.Since(t0))
		}
	})
	lat.report(b, time.Since(start))
}

func benchDir(b *testing.B) string {
	if os.Getenv("VIGIL_BENCH_MEMORY") != "" {
		return ""
	}
	return b.TempDir()
}

// BenchmarkStampedQueryPrestamped measures the server alone: the same
// get_activity requests, stamped once up front (queries carry no timestamp, so a
// stamp stays valid) and sent as raw HTTP, so that the client's signing and
// decoding do not share the CPU with the server. Every request is still
// verified and authorized in full.
func BenchmarkStampedQueryPrestamped(b *testing.B) {
	e := newEnvWith(b, envOptions{threshold: 1, dataDir: b.TempDir()})
	ctx := ctxT(b)
	act, err := e.clients["alice"].CreateUserTag(ctx, api.CreateUserTagParams{UserTagName: "bench", UserIDs: []string{e.user("bob")}})
	if err != nil {
		b.Fatal(err)
	}
	type stamped struct {
		body         []byte
		header, stmp string
	}
	var reqs []stamped
	for range 64 {
		body, _ := json.Marshal(api.GetActivityRequest{OrganizationID: e.org.ID, ActivityID: act.ID})
		h, v, err := e.keys["alice"].Stamp(body)
		if err != nil {
			b.Fatal(err)
		}
		reqs = append(reqs, stamped{body, h, v})
	}
	client := benchHTTP()
	url := e.http.URL + api.QueryPrefix + api.QueryGetActivity
	var n atomic.Int64
	var lat latencies
	b.SetParallelism(4)
	b.ResetTimer()
	start := time.Now()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			r := reqs[n.Add(1)%int64(len(reqs))]
			req, _ := http.NewRequest("POST", url, bytes.NewReader(r.body))
			req.Header.Set(r.header, r.stmp)
			t0 := time.Now()
			resp, err := client.Do(req)
			if err != nil {
				b.Error(err)
				return
			}
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			if resp.StatusCode != 200 {
				b.Errorf("HTTP %d", resp.StatusCode)
				return
			}
			lat.add(time.Since(t0))
		}
	})
	lat.report(b, time.Since(start))
}
