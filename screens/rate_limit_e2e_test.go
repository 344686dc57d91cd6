package screens

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/vigil-console/vigil/server/servertest"
	"github.com/vigil-console/vigil/ui/theme"
)

// A gateway in front of the service answers 429 with a Retry-After longer
// than the console's per-call limit: the console says at once that the
// service is rate limiting and how long it asked to wait, not, after the
// whole limit, that the service did not answer in time.
func TestRateLimitPastTheCallLimitIsSaidAsSuch(t *testing.T) {
	d := servertest.StartDemo(t)
	gateway := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Retry-After", "30")
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusTooManyRequests)
		_, _ = w.Write([]byte(`{"code":8,"message":"too many requests"}`))
	}))
	defer gateway.Close()
	bob := d.ClientAt(gateway.URL, "bob")
	h := newSlowHarness(t, bob, bob, theme.Options{Dark: true, NoColor: true}, 0, 2*time.Second)
	frame := strings.Join(strings.Fields(h.frame()), " ")
	if strings.Contains(frame, "did not answer in time") {
		t.Errorf("a 429 answered at once is said as a timeout:\n%s", h.frame())
	}
	if !strings.Contains(frame, "rate limiting; it asks to wait 30s") {
		t.Errorf("want the list to say the service is rate limiting and for how long:\n%s", h.frame())
	}
}
