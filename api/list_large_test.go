package api_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/server/servertest"
)

// The tests of large activities below shrink both the largest interface
// (400 kB) and the least reply bound a client takes (MinReplyBytes, 4 MiB) by
// scaleDown: the client halves, remembers and grows a page by comparing its
// reply with its bound, so the proportions are what matters, and each byte
// listed is parsed several times on both sides, which the race detector makes
// ten times dearer. Eight activities still make a page over the bound, and
// one page under it.
const (
	scaleDown          = 8
	maxReplyScaled     = api.MinReplyBytes / scaleDown
	largeBytesScaled   = servertest.LargeInterfaceBytes / scaleDown
	largeInterfacesNum = 8
)

// submitLargeScaled has the operator submit largeInterfacesNum interfaces of
// largeBytesScaled and returns them and a client of alice's reading at most
// maxReplyScaled, with opts.
func submitLargeScaled(t *testing.T, demo *servertest.Demo, opts ...api.Option) (*api.Client, []*api.Activity) {
	t.Helper()
	alice := demo.ClientAt(demo.URL, "alice", append([]api.Option{api.WithMaxReplyBytesBelowTheLeast(maxReplyScaled)}, opts...)...)
	return alice, demo.SubmitInterfaces(largeInterfacesNum, servertest.InterfaceOfSize(largeBytesScaled), "operator")
}

// A member who may not create anything can still fill the activity list:
// each refused activity is kept, repeating its intent, and an interface may be
// 400 kB (twice that on the wire when it is all escaped quotes). A page of
// them can be larger than the client reads. The list must stay readable: a
// shorter page, and every activity reachable by paging on. Eight activities
// of an eighth of 400 kB under a bound of an eighth of 4 MiB (the least a
// client takes) show what twenty-two of 400 kB would at the default 16 MiB.
func TestListActivitiesStaysReadableWhenActivitiesAreLarge(t *testing.T) {
	demo := servertest.StartDemo(t)
	ctx := context.Background()
	const maxReply = maxReplyScaled
	const n = largeInterfacesNum
	alice, _ := submitLargeScaled(t, demo)
	big := servertest.InterfaceOfSize(largeBytesScaled)
	if whole, err := demo.Client("alice").ListActivitiesRaw(ctx, api.ListActivitiesOptions{Limit: 100}); err != nil || len(whole) <= maxReply {
		t.Fatalf("the whole page is %d bytes (%v); the test needs it over %d", len(whole), err, maxReply)
	}

	first, err := alice.ListActivities(ctx, api.ListActivitiesOptions{Limit: 100})
	if err != nil {
		t.Fatalf("a page of 100 after %d large activities: %v", n, err)
	}
	if len(first) == 0 || len(first) >= n {
		t.Fatalf("the page holds %d activities; want a shorter page than %d (the whole would not fit in %d bytes)", len(first), n, maxReply)
	}
	raw, err := alice.ListActivitiesRaw(ctx, api.ListActivitiesOptions{Limit: 100})
	if err != nil || len(raw) > maxReply {
		t.Fatalf("the raw page of 100: %d bytes, %v", len(raw), err)
	}

	// Paging on from the shorter page reaches every large activity, once.
	seen := map[string]bool{}
	large := 0
	page := first
	for len(page) > 0 {
		for _, a := range page {
			if seen[a.ID] {
				t.Fatalf("activity %s listed twice while paging", a.ID)
			}
			seen[a.ID] = true
			if in := a.Intent.CreateSmartContractInterfaceIntent; in != nil && in.SmartContractInterface == big {
				large++
			}
		}
		page, err = alice.ListActivities(ctx, api.ListActivitiesOptions{Limit: 100, After: page[len(page)-1].ID})
		if err != nil {
			t.Fatalf("paging on after %d activities: %v", len(seen), err)
		}
	}
	if large != n {
		t.Errorf("paging reached %d of the %d large activities", large, n)
	}
}

func TestWithMaxReplyBytesRefusesLessThanOneActivity(t *testing.T) {
	if _, err := api.NewClient("http://127.0.0.1:1", "org", nil, api.WithMaxReplyBytes(2<<20)); err == nil || !strings.Contains(err.Error(), "at least 4194304 bytes") {
		t.Errorf("a 2 MiB reply limit: %v; want a refusal saying the least", err)
	}
}

// listCounter counts the list_activities requests a client sends, hence the
// service receives, and the page each asked for.
type listCounter struct {
	mu    sync.Mutex
	pages []int // the limit each request asked for (0: none)
}

func (l *listCounter) RoundTrip(r *http.Request) (*http.Response, error) {
	if strings.HasSuffix(r.URL.Path, "/"+api.QueryListActivities) {
		body, err := io.ReadAll(r.Body)
		if err != nil {
			return nil, err
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		var req api.ListActivitiesRequest
		if err := json.Unmarshal(body, &req); err != nil {
			return nil, err
		}
		limit := 0
		if req.PaginationOptions != nil && req.PaginationOptions.Limit != "" {
			limit, _ = strconv.Atoi(req.PaginationOptions.Limit)
		}
		l.mu.Lock()
		l.pages = append(l.pages, limit)
		l.mu.Unlock()
	}
	return http.DefaultTransport.RoundTrip(r)
}

// since returns the pages asked for from the n-th request on.
func (l *listCounter) since(n int) []int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.pages[n:])
}

// The console lists the same activities every few seconds. Once a page had to
// be halved to fit, the next list must ask for the page that fit at once
// rather than halve down to it again, reading up to the whole reply limit at
// each step; and once the large activities have left the window, pages must
// grow back.
func TestListActivitiesRemembersThePageThatFit(t *testing.T) {
	demo := servertest.StartDemo(t)
	ctx := context.Background()
	counter := &listCounter{}
	alice, large := submitLargeScaled(t, demo, api.WithHTTPClient(&http.Client{Transport: counter}))

	first, err := alice.ListActivities(ctx, api.ListActivitiesOptions{Limit: 100})
	if err != nil {
		t.Fatal(err)
	}
	halving := counter.since(0)
	if len(halving) < 2 {
		t.Fatalf("the first list asked for pages %v; the test needs it to halve", halving)
	}
	fitted := halving[len(halving)-1]

	second, err := alice.ListActivities(ctx, api.ListActivitiesOptions{Limit: 100})
	if err != nil {
		t.Fatal(err)
	}
	if asked := counter.since(len(halving)); !slices.Equal(asked, []int{fitted}) {
		t.Errorf("the second list asked for pages %v; want only %d, the page the first found to fit after %v", asked, fitted, halving)
	}
	if len(second) != len(first) || second[0].ID != first[0].ID {
		t.Errorf("the second list holds %d activities from %s; want the first's %d from %s", len(second), second[0].ID, len(first), first[0].ID)
	}
	raw, err := alice.ListActivitiesRaw(ctx, api.ListActivitiesOptions{Limit: 100})
	if err != nil || len(raw) > maxReplyScaled {
		t.Fatalf("the raw page: %d bytes, %v", len(raw), err)
	}
	if asked := counter.since(len(halving) + 1); !slices.Equal(asked, []int{fitted}) {
		t.Errorf("the raw list asked for pages %v; want only %d", asked, fitted)
	}

	// Another filter keeps its own page: pending activities are not the large ones.
	before := len(counter.since(0))
	if _, err := alice.ListActivities(ctx, api.ListActivitiesOptions{Limit: 100, Statuses: []string{api.StatusPending}}); err != nil {
		t.Fatal(err)
	}
	if asked := counter.since(before); !slices.Equal(asked, []int{100}) {
		t.Errorf("listing pending activities asked for pages %v; want 100 at once", asked)
	}

	// Older than the large activities, the demo's own small ones: the page
	// doubles after each reply well under the limit, back to what the caller asks.
	oldest := large[0].ID
	before = len(counter.since(0))
	for range 8 {
		if _, err := alice.ListActivities(ctx, api.ListActivitiesOptions{Limit: 100, After: oldest}); err != nil {
			t.Fatal(err)
		}
	}
	grown := counter.since(before)
	want := []int{fitted}
	for p := fitted * 2; p < 100; p *= 2 {
		want = append(want, p)
	}
	for len(want) < len(grown) {
		want = append(want, 100)
	}
	if !slices.Equal(grown, want) {
		t.Errorf("listing the small activities asked for pages %v; want %v (doubling back to 100)", grown, want)
	}

}

// TestWalkActivitiesSaysWhenItStoppedShort: pages of large activities are cut
// short, so a walk bounded by pages may stop with older activities unread. It
// says so (ErrWalkCutShort) rather than passing the newest for all of them, and
// a walk that reaches the end says nothing.
func TestWalkActivitiesSaysWhenItStoppedShort(t *testing.T) {
	demo := servertest.StartDemo(t)
	ctx := context.Background()
	const n = largeInterfacesNum
	alice, _ := submitLargeScaled(t, demo)
	opts := api.ListActivitiesOptions{Types: []string{api.TypeCreateSmartContractInterface}}
	walk := func(maxPages int) (int, error) {
		seen := 0
		err := api.WalkActivities(ctx, alice, opts, maxPages, func(api.Activity) { seen++ })
		return seen, err
	}
	total, err := walk(100)
	if err != nil || total < n {
		t.Fatalf("a walk to the end: %d visited (%d submitted here), %v; want no error", total, n, err)
	}
	if seen, err := walk(1); !errors.Is(err, api.ErrWalkCutShort) || seen == 0 || seen >= total {
		t.Fatalf("one page of %d large activities: %d visited, %v; want fewer than all and ErrWalkCutShort", total, seen, err)
	}
}
