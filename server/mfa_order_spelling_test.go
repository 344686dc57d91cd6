package server

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
)

// An MFA policy's order has one spelling (docs/local-service.md), so that the
// signed bytes read one way: -0 is refused as 1.0 and 1e0 are, not stored as
// an intent saying 0 that is not what was signed (and a second fingerprint
// for one request).
func TestMfaOrderMinusZeroIsRefused(t *testing.T) {
	e := newEnv(t)
	steps := []any{map[string]any{"any": []any{map[string]any{"type": api.AuthAPIKey}}}}
	params := map[string]any{"userId": e.user("bob"), "mfaPolicyName": "m", "condition": "true",
		"order": json.RawMessage("-0"), "requiredAuthenticationMethods": steps}
	body := e.body(api.TypeCreateMfaPolicy, params, nil)
	if !strings.Contains(string(body), `"order":-0`) {
		t.Fatalf("test body lacks -0: %s", body)
	}
	r := e.post(e.submitPath("create_mfa_policy"), body, e.keys["alice"])
	if r.status != 400 {
		t.Fatalf("order -0 was accepted (HTTP %d): %s", r.status, r.body)
	}
	if !strings.Contains(string(r.body), "not -0") {
		t.Errorf("the refusal does not say what to write instead: %s", r.body)
	}
}
