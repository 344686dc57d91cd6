package api

import (
	"context"
	"net/http"
	"strings"
	"testing"
)

// The real service's v1Policy carries `time?: string`: decoding a policy
// keeps it, so the screens and commands that show or evaluate the policy do
// not take it as active at any time.
func TestPolicyTimeExpressionIsKept(t *testing.T) {
	s := newTestService(t, func(_ int, _ recorded, w http.ResponseWriter) {
		writeJSON(w, 200, `{"policy":{"policyId":"p1","policyName":"business hours only","effect":"EFFECT_ALLOW",
		 "condition":"true","consensus":"approvers.count() >= 1","notes":"",
		 "time":"now.getHours() >= 9 && now.getHours() < 17",
		 "createdAt":{"seconds":"1","nanos":"0"},"updatedAt":{"seconds":"1","nanos":"0"}}}`)
	})
	p, err := s.client(t).GetPolicy(context.Background(), "p1")
	if err != nil {
		t.Fatal(err)
	}
	b, err := Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), "getHours") {
		t.Errorf("the policy's time expression was dropped while decoding: %s", b)
	}
}
