package api

import (
	"context"
	"net/http"
	"sync/atomic"
	"testing"
	"time"
)

// The client judges the service's timestamps by the service's clock, which
// each reply's Date header tells (to the second).
func TestServiceNowFollowsTheRepliesDateHeader(t *testing.T) {
	var date atomic.Value // the Date header the next reply carries; "" sends none
	date.Store("")
	s := newTestService(t, func(_ int, _ recorded, w http.ResponseWriter) {
		w.Header()["Date"] = nil // net/http adds its own otherwise
		if d := date.Load().(string); d != "" {
			w.Header()["Date"] = []string{d}
		}
		writeJSON(w, 200, activityReply)
	})
	local := fixedNow.Truncate(time.Second)
	c := s.client(t, WithClock(func() time.Time { return local }))
	ctx := context.Background()
	get := func(header string) {
		t.Helper()
		date.Store(header)
		if _, err := c.GetActivity(ctx, "act-1"); err != nil {
			t.Fatal(err)
		}
	}
	httpDate := func(t time.Time) string { return t.UTC().Format(http.TimeFormat) }

	if skew, known := c.ClockSkew(); known || skew != 0 || !c.ServiceNow().Equal(local) {
		t.Fatalf("before any reply: skew %v known %v, ServiceNow %v; want this machine's clock, unknown skew", skew, known, c.ServiceNow())
	}
	get(httpDate(local.Add(-3 * time.Hour)))
	// Date is truncated to the second: its midpoint is the estimate.
	want := local.Add(-3*time.Hour + 500*time.Millisecond)
	if got := c.ServiceNow(); !got.Equal(want) {
		t.Errorf("service 3 h behind: ServiceNow %v, want %v", got, want)
	}
	if skew, known := c.ClockSkew(); !known || skew != want.Sub(local) {
		t.Errorf("ClockSkew = %v, %v; want %v, true", skew, known, want.Sub(local))
	}
	for _, bad := range []string{"", "yesterday at noon", "Mon, 99 Foo 2026 25:61:00 GMT"} {
		get(bad)
		if got := c.ServiceNow(); !got.Equal(want) {
			t.Errorf("a reply with Date %q moved ServiceNow to %v; want it left at %v", bad, got, want)
		}
	}
	// Within 2 s the clocks agree: the machine's own clock, exactly.
	get(httpDate(local.Add(time.Second)))
	if skew, known := c.ClockSkew(); !known || skew != 0 || !c.ServiceNow().Equal(local) {
		t.Errorf("service 1.5 s ahead: skew %v known %v, ServiceNow %v; want 0, true, this machine's clock", skew, known, c.ServiceNow())
	}
	get(httpDate(local.Add(time.Hour)))
	if got, want := c.ServiceNow(), local.Add(time.Hour+500*time.Millisecond); !got.Equal(want) {
		t.Errorf("service 1 h ahead: ServiceNow %v, want %v", got, want)
	}
}

// The console asks from several goroutines at once (run with -race).
func TestServiceClockIsSafeForConcurrentReplies(t *testing.T) {
	s := newTestService(t, func(_ int, _ recorded, w http.ResponseWriter) { writeJSON(w, 200, activityReply) })
	c := s.client(t)
	done := make(chan struct{})
	for range 4 {
		go func() {
			defer func() { done <- struct{}{} }()
			c.GetActivity(context.Background(), "act-1")
			c.ServiceNow()
			c.ClockSkew()
		}()
	}
	for range 4 {
		<-done
	}
	if _, known := c.ClockSkew(); !known {
		t.Error("replies with net/http's Date header left the skew unknown")
	}
}
