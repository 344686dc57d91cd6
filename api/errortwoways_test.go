package api_test

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/server/servertest"
)

// twoWaysErrorBody is an error body JSON readers read two ways: "details"
// and "DETAILS" both fold to Go's one field.
const twoWaysErrorBody = `{"code":5,"message":"m","details":[{"errorCode":"X"}],"DETAILS":[{"errorCode":"Y"}]}`

// A 404 whose body reads two ways came from the service (the URL reached
// it), so it is not blamed on base_url; it still is a not-found by its
// status line, and its hint says how to see the reply exactly.
func TestTwoWays404IsNotBlamedOnTheURL(t *testing.T) {
	d := servertest.StartDemo(t)
	url := d.Rewriting(func(op string, request, reply []byte) []byte {
		if op == "query/"+api.QueryGetActivity {
			return []byte(twoWaysErrorBody)
		}
		return reply
	})
	_, err := d.ClientAt(url, "alice").GetActivity(context.Background(), "no-such-activity")
	var e *api.Error
	if !errors.As(err, &e) || e.StatusCode != http.StatusNotFound || !strings.Contains(err.Error(), "read two ways") {
		t.Fatalf("set-up: want a two-ways 404, got %v", err)
	}
	if strings.Contains(err.Error(), "base_url") {
		t.Errorf("a two-ways 404 from the service is blamed on base_url: %q", err)
	}
	if !strings.Contains(err.Error(), "vigil request") {
		t.Errorf("a two-ways 404 does not say how to see the reply: %q", err)
	}
	if !errors.Is(err, api.ErrNotFound) || !api.TwoWays(err) {
		t.Errorf("a two-ways 404 is a not-found by its status, and marked two ways: %v", err)
	}
}
