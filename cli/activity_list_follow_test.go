package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
)

// A full page of the service's default 10 says on stderr that older
// activities follow, with the --after id that shows them, for --json as for
// the table; stdout stays what a script parses. 12 activities wait for votes
// here: without the note a root member scripting "what waits for me" would
// miss the two oldest.
func TestActivityListSaysWhenOlderOnesFollow(t *testing.T) {
	e := newVerbEnv(t)
	for i := range 7 {
		code, out, errOut := e.run("", "tag", "create", "--profile", "operator", "--name", fmt.Sprintf("t%d", i))
		wantExit(t, "tag create", code, 0, out, errOut)
	}
	code, all, errOut := e.run("", "activity", "list", "--status", "consensus-needed", "--limit", "100")
	wantExit(t, "list all", code, 0, all, errOut)
	if strings.Contains(errOut, "follow") {
		t.Errorf("the whole list says more follow: %q", errOut)
	}
	n := strings.Count(all, "CONSENSUS_NEEDED")
	code, out, errOut := e.run("", "activity", "list", "--status", "consensus-needed")
	wantExit(t, "list", code, 0, out, errOut)
	shown := strings.Count(out, "CONSENSUS_NEEDED")
	if shown >= n {
		t.Fatalf("the default page shows %d of %d: the test needs more than a page", shown, n)
	}
	m := regexp.MustCompile(`older ones follow: --after (\S+)`).FindStringSubmatch(errOut)
	if m == nil {
		t.Fatalf("%d of %d pending activities listed and nothing says older ones follow:\nstdout:\n%s\nstderr: %q", shown, n, out, errOut)
	}
	if strings.Contains(out, "follow") {
		t.Errorf("the note is on stdout, where scripts read the table:\n%s", out)
	}
	code, rest, errOut := e.run("", "activity", "list", "--status", "consensus-needed", "--after", m[1])
	wantExit(t, "list --after", code, 0, rest, errOut)
	if got := strings.Count(rest, "CONSENSUS_NEEDED"); shown+got != n {
		t.Errorf("the page after the note's id holds %d; with the first page's %d that is not all %d", got, shown, n)
	}
	if strings.Contains(errOut, "follow") {
		t.Errorf("the last page says more follow: %q", errOut)
	}

	code, js, errOut := e.run("", "activity", "list", "--json", "--status", "consensus-needed")
	wantExit(t, "list --json", code, 0, js, errOut)
	var page struct {
		Activities []json.RawMessage `json:"activities"`
	}
	if err := json.Unmarshal([]byte(js), &page); err != nil || len(page.Activities) != shown {
		t.Errorf("--json is not the page of %d as JSON (%v):\n%s", shown, err, js)
	}
	if !strings.Contains(errOut, "older ones follow: --after "+m[1]) {
		t.Errorf("--json says nothing on stderr of the older ones: %q", errOut)
	}

	// Paging back towards newer ones: the note names --before and the page's
	// newest id.
	code, back, errOut := e.run("", "activity", "list", "--status", "consensus-needed", "--limit", "2", "--before", m[1])
	wantExit(t, "list --before", code, 0, back, errOut)
	newest := strings.Fields(strings.Split(back, "\n")[1])[0]
	if !strings.Contains(errOut, "newer ones follow: --before "+newest) {
		t.Errorf("a page towards newer ones does not say newer ones follow from %s: %q\n%s", newest, errOut, back)
	}
}

// When the look for more activities fails, stderr says so, with the flag
// that would show them: silence would read as "this is all there is".
func TestActivityListSaysWhenItCouldNotCheckForMore(t *testing.T) {
	e := newVerbEnv(t)
	target, err := url.Parse(e.demo.URL)
	if err != nil {
		t.Fatal(err)
	}
	proxy := httputil.NewSingleHostReverseProxy(target)
	// A gateway in front of the service that fails the look (a page of one,
	// which `activity list` does not ask for here) and passes the rest.
	gateway := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(r.Body)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		if strings.HasSuffix(r.URL.Path, "/"+api.QueryListActivities) && strings.Contains(string(body), `"limit":"1"`) {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusBadRequest)
			io.WriteString(w, `{"code":3,"message":"the gateway refused this page","details":[]}`)
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		proxy.ServeHTTP(w, r)
	}))
	t.Cleanup(gateway.Close)
	config := e.configVia(gateway.URL, filepath.Join(t.TempDir(), "gateway.toml"))

	code, out, errOut := runVigil(t, map[string]string{"VIGIL_CONFIG": config}, "", "activity", "list")
	wantExit(t, "activity list", code, 0, out, errOut)
	rows := strings.Split(strings.TrimSpace(out), "\n")
	if len(rows) < 2 {
		t.Fatalf("no activities listed:\n%s", out)
	}
	oldest := strings.Fields(rows[len(rows)-1])[0]
	for _, want := range []string{"could not check whether more follow", "the gateway refused this page", "--after " + oldest} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr does not say %q: %q", want, errOut)
		}
	}
}
