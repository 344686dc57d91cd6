package server

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
)

// FuzzRequests sends arbitrary bodies, correctly stamped, to every submit and
// query path: the service must answer with a 2xx JSON reply or a 4xx error
// body with a code and a message, never a 500 or a panic.
func FuzzRequests(f *testing.F) {
	e := newEnvWith(f, envOptions{threshold: 1})
	h := e.srv.Handler()
	org := e.org.ID
	f.Add(uint8(0), []byte(`{"type":"ACTIVITY_TYPE_CREATE_USER_TAG","timestampMs":"1","organizationId":"`+org+`","parameters":{}}`))
	f.Add(uint8(1), []byte(`{"organizationId":"`+org+`","activityId":"x"}`))
	f.Add(uint8(2), []byte(`{"organizationId":"`+org+`","paginationOptions":{"limit":"5","before":"x"}}`))
	f.Add(uint8(3), e.body(api.TypeCreatePolicyV3, map[string]any{"policyName": "p", "effect": "EFFECT_ALLOW", "notes": "", "condition": "activity.params.x[0] == 1"}, nil))
	f.Add(uint8(4), e.body(api.TypeOauth, map[string]any{"oidcToken": "a.b.c", "targetPublicKey": "04"}, nil))
	f.Add(uint8(5), []byte(`{"organizationId":"`+org+`","filterByStatus":[1]}`))
	f.Add(uint8(6), []byte(`[]`))
	var paths []string
	for _, op := range api.SubmitOperations() {
		paths = append(paths, api.SubmitPrefix+op.Path)
	}
	for _, q := range append(api.QueryOperations(), api.QueryListMfaPolicies) { // the alias is served too
		paths = append(paths, api.QueryPrefix+q)
	}
	f.Fuzz(func(t *testing.T, which uint8, body []byte) {
		path := paths[int(which)%len(paths)]
		req := httptest.NewRequest("POST", path, bytes.NewReader(body))
		name, value, err := e.keys["alice"].Stamp(body)
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set(name, value)
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code >= http.StatusInternalServerError {
			t.Fatalf("%s %q: HTTP %d %s", path, body, rec.Code, rec.Body.Bytes())
		}
		if !json.Valid(rec.Body.Bytes()) {
			t.Fatalf("%s %q: HTTP %d with a reply that is not JSON: %q", path, body, rec.Code, rec.Body.Bytes())
		}
		if rec.Code >= http.StatusBadRequest {
			var eb api.ErrorBody
			if err := json.Unmarshal(rec.Body.Bytes(), &eb); err != nil || eb.Code == 0 || strings.TrimSpace(eb.Message) == "" {
				t.Fatalf("%s %q: HTTP %d without an error saying what was wrong: %q", path, body, rec.Code, rec.Body.Bytes())
			}
		}
	})
}
