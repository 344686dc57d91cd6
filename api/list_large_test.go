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
// 400 kB. Twenty-two such interfaces of escaped quotes (each twice its size on
// the wire) make a page of 100 larger than the client reads. The list must
// stay readable: a shorter page, and every activity reachable by paging on.
func TestListActivitiesStaysReadableWhenActivitiesAreLarge(t *testing.T) {
	demo := servertest.StartDemo(t)
	ctx := context.Background()
	operator, alice := demo.Client("operator"), demo.Client("alice")
	big := `["` + strings.Repeat(`\"`, (400_000-4)/2) + `"]`
	const n = 22
	for i := range n {
		if _, err := operator.CreateSmartContractInterface(ctx, api.CreateSmartContractInterfaceParams{
			SmartContractAddress: "0xabc", SmartContractInterface: big, Type: api.SmartContractInterfaceEthereum, Label: "large"}); err != nil {
			t.Fatalf("submit %d: %v", i, err)
		}
	}

	first, err := alice.ListActivities(ctx, api.ListActivitiesOptions{Limit: 100})
	if err != nil {
		t.Fatalf("a page of 100 after %d large activities: %v", n, err)
	}
	if len(first) == 0 || len(first) >= n {
		t.Fatalf("the page holds %d activities; want a shorter page than %d (the whole would not fit in %d MiB)", len(first), n, api.MaxReplyBytes>>20)
	}
	raw, err := alice.ListActivitiesRaw(ctx, api.ListActivitiesOptions{Limit: 100})
	if err != nil || len(raw) > api.MaxReplyBytes {
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
