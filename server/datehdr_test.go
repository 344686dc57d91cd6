package server

import (
	"net/http"
	"testing"
	"time"

	"github.com/vigil-console/vigil/api"
)

// A service's Date header is its clock: clients judge its timestamps by it,
// so the local service run on another clock must say so.
func TestRepliesCarryTheServiceClockAsDate(t *testing.T) {
	e := newEnv(t)
	e.skew.Store(int64(3 * time.Hour))
	for _, req := range []struct{ method, path string }{
		{http.MethodGet, api.JWKSPath},
		{http.MethodPost, api.QueryPrefix + "no_such_query"}, // an error reply too
	} {
		resp, err := http.DefaultClient.Do(mustRequest(t, req.method, e.http.URL+req.path))
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		date, err := http.ParseTime(resp.Header.Get("Date"))
		if err != nil {
			t.Fatalf("%s %s: Date %q: %v", req.method, req.path, resp.Header.Get("Date"), err)
		}
		if skew := time.Until(date); skew < 3*time.Hour-time.Minute || skew > 3*time.Hour+time.Minute {
			t.Errorf("%s %s: Date is %v from this machine's clock; the service's clock is 3h ahead", req.method, req.path, skew.Round(time.Second))
		}
	}
}

func mustRequest(t *testing.T, method, url string) *http.Request {
	t.Helper()
	req, err := http.NewRequest(method, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	return req
}
