package server

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/vigil-console/vigil/api"
)

// FuzzRequests sends arbitrary bodies, correctly stamped, to every submit and
// query path: the service must answer with a 2xx or a 4xx error body, never a
// 500 or a panic.
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
	})
}
