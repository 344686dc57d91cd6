package cli

import (
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strings"
	"testing"
)

// A submitting verb whose request the service recorded but whose 2xx reply
// does not say which activity (a proxy page, {"activity":{}}, [], {}) exits
// 4, outcome unknown (api.SubmitRaw, as the typed methods): it exited 0
// printing an empty activity, or 1 ("nothing was recorded, safe to run
// again"), and a script following the exit statuses created a second
// activity.
func TestSubmitVerbWhoseRecordedActivityHasAnUnreadableReplyExitsOutcomeUnknown(t *testing.T) {
	for _, tc := range []struct{ name, reply string }{
		{"no-activity", `{"activity":{}}`},
		{"empty-object", `{}`},
		{"array", `[]`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newVerbEnv(t)
			target, _ := url.Parse(e.demo.URL)
			proxy := httputil.NewSingleHostReverseProxy(target)
			gw := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if r.URL.Path != "/public/v1/submit/create_user_tag" {
					proxy.ServeHTTP(w, r)
					return
				}
				proxy.ServeHTTP(httptest.NewRecorder(), r) // recorded by the service
				w.Header().Set("Content-Type", "application/json")
				io.WriteString(w, tc.reply)
			}))
			t.Cleanup(gw.Close)
			e.configVia(gw.URL, e.config)
			code, out, errOut := e.run("", "tag", "create", "--name", "ops-"+tc.name, e.userID("operator"))
			if code != exitOutcomeUnknown {
				t.Errorf("tag create whose recorded activity's 2xx reply is %s: exit %d, want 4 (outcome unknown)\nstdout: %s\nstderr: %s",
					tc.reply, code, out, strings.TrimSpace(errOut))
			}
		})
	}
}
