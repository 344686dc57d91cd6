package api

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// A URL pasted with a trailing space (or a no-break space) would send every
// delivery to another path ("/hooks%20", "/hooks%C2%A0") than the operator
// meant, where a receiver answers a final 404. Any white space is refused, with
// an error that says where it is, and never trimmed.
func TestWebhookURLWithWhiteSpaceIsRefused(t *testing.T) {
	var requestURI string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { requestURI = r.RequestURI }))
	defer srv.Close()
	for _, c := range []struct{ value, where string }{
		{srv.URL + "/hooks ", "ends with a space"},
		{srv.URL + "/hooks\u00a0", "ends with white space (U+00A0)"},
		{srv.URL + "/hooks\t", "ends with white space (U+0009)"},
		{" " + srv.URL + "/hooks", "begins with a space"},
		{srv.URL + "/ho oks", `after "` + srv.URL + `/ho"`},
	} {
		err := CheckFeatureValue(FeatureWebhook, c.value)
		if err == nil {
			if resp, perr := http.Post(c.value, "application/json", nil); perr == nil {
				resp.Body.Close()
			}
			t.Errorf("CheckFeatureValue(WEBHOOK, %q) accepted it; a delivery's request line: %q", c.value, requestURI)
			continue
		}
		if !strings.Contains(err.Error(), c.where) || !strings.Contains(err.Error(), "remove it") {
			t.Errorf("CheckFeatureValue(WEBHOOK, %q): %v; want it to say it %s and to remove it", c.value, err, c.where)
		}
	}
	if err := CheckFeatureValue(FeatureWebhook, srv.URL+"/hooks"); err != nil {
		t.Errorf("the same URL without white space: %v", err)
	}
}
