package cli

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
)

// When the organization's features cannot be read, a feature change would
// go to the quorum without anyone knowing what it replaces: feature set
// submits nothing, says the read failed (with why) and what to do; with
// --replacing-unknown it submits, saying the replaced value is unknown.
func TestFeatureSetRefusesWhenWhatItReplacesCannotBeRead(t *testing.T) {
	e := newVerbEnv(t)
	target, err := url.Parse(e.demo.URL)
	if err != nil {
		t.Fatal(err)
	}
	proxy := httputil.NewSingleHostReverseProxy(target)
	const refusal = "the gateway refused to read the configs"
	gateway := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/"+api.QueryGetOrganizationConfigs) {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusForbidden)
			io.WriteString(w, `{"code":7,"message":"`+refusal+`","details":[]}`)
			return
		}
		body, err := io.ReadAll(r.Body)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		proxy.ServeHTTP(w, r)
	}))
	t.Cleanup(gateway.Close)
	config := e.configVia(gateway.URL, filepath.Join(t.TempDir(), "gateway.toml"))
	// The feature changes submitted so far.
	activities := func() int {
		t.Helper()
		list, err := e.client("alice").ListActivities(t.Context(), api.ListActivitiesOptions{Types: []string{api.TypeSetOrganizationFeature}, Limit: 100})
		if err != nil {
			t.Fatal(err)
		}
		return len(list)
	}
	env := map[string]string{"VIGIL_CONFIG": config}
	const hook = "https://hooks.example.com/vigil-unread"

	before := activities()
	code, out, errOut := runVigil(t, env, "", "feature", "set", "--value", hook, "webhook")
	wantExit(t, "feature set with the configs unreadable", code, exitFailure, out, errOut)
	for _, want := range []string{"nothing submitted", "could not be read", refusal, "again", "--replacing-unknown"} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr does not say %q:\n%s", want, errOut)
		}
	}
	if n := activities(); n != before {
		t.Errorf("feature set submitted with what it replaces unknown (%d activities, were %d)", n, before)
	}

	code, out, errOut = runVigil(t, env, "", "feature", "set", "--replacing-unknown", "--value", hook, "webhook")
	wantExit(t, "feature set --replacing-unknown", code, 0, out, errOut)
	if !strings.Contains(errOut, "unknown") || !strings.Contains(errOut, refusal) {
		t.Errorf("--replacing-unknown does not say the replaced value is unknown, and why:\n%s", errOut)
	}
	if n := activities(); n != before+1 {
		t.Errorf("feature set --replacing-unknown: %d activities, want %d", n, before+1)
	}
}
