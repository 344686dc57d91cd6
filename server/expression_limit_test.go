package server

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/vigil-console/vigil/api"
)

// docs/local-service.md "Limits": condition, consensus and time are limited
// to 16384 characters, as api.Validate and the console's editors count them.
// A condition of 9,000 two-byte characters is within that limit, so the
// service must take it, not refuse it as too many bytes.
func TestConditionLimitCountsCharacters(t *testing.T) {
	e := newEnv(t)
	cond := "'" + strings.Repeat("é", 9000) + "' != ''" // 9,007 characters, 18,007 bytes
	if n := utf8.RuneCountInString(cond); n > api.MaxExpressionLength {
		t.Fatalf("test condition is %d characters", n)
	}
	p := api.CreatePolicyParams{PolicyName: "p", Effect: api.EffectAllow, Condition: cond, Notes: ""}
	if err := p.Validate(); err != nil {
		t.Fatalf("client refuses: %v", err)
	}
	r := e.post(e.submitPath("create_policy"), e.body(api.TypeCreatePolicyV3, p, nil), e.keys["alice"])
	if r.status != 200 {
		t.Fatalf("a condition of %d characters (within the documented 16384-character limit) was refused: HTTP %d %s",
			utf8.RuneCountInString(cond), r.status, r.body)
	}
}

// One character over the limit is refused with the limits table's code,
// INVALID_PARAMETER naming the field, whatever the script.
func TestConditionOverLimitIsInvalidParameter(t *testing.T) {
	e := newEnv(t)
	cond := "'" + strings.Repeat("é", api.MaxExpressionLength) + "' != ''"
	p := api.CreatePolicyParams{PolicyName: "p", Effect: api.EffectAllow, Condition: cond, Notes: ""}
	r := e.post(e.submitPath("create_policy"), e.body(api.TypeCreatePolicyV3, p, nil), e.keys["alice"])
	if r.status != 400 || !strings.Contains(string(r.body), "INVALID_PARAMETER") || !strings.Contains(string(r.body), "condition") {
		t.Fatalf("a condition of %d characters: HTTP %d %s, want 400 INVALID_PARAMETER naming condition",
			utf8.RuneCountInString(cond), r.status, r.body)
	}
}
