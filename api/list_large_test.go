package api_test

import (
	"context"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/server/servertest"
)

// A member who may not create anything can still fill the activity list:
// each refused activity is kept, repeating its intent, and an interface may be
// 400 kB (twice that on the wire when it is all escaped quotes). A page of
// them can be larger than the client reads. The list must stay readable: a
// shorter page, and every activity reachable by paging on. The client here
// reads at most 4 MiB, so that eight such activities show what twenty-two
// would at the default 16 MiB.
func TestListActivitiesStaysReadableWhenActivitiesAreLarge(t *testing.T) {
	demo := servertest.StartDemo(t)
	ctx := context.Background()
	const maxReply = api.MinReplyBytes
	alice := demo.ClientAt(demo.URL, "alice", api.WithMaxReplyBytes(maxReply))
	const n = 8
	demo.SubmitLargeInterfaces(n, "operator")
	big := servertest.LargeInterface()
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
