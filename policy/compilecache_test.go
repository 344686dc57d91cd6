package policy

import (
	"testing"

	"github.com/vigil-console/vigil/api"
)

// The cache key must tell apart texts that only differ in where the
// condition ends: a valid condition may contain any character, NUL too.
func TestCompileKeySeparatesConditionFromConsensus(t *testing.T) {
	pairs := [][2]string{{"a\x00", "b"}, {"a", "\x00b"}, {"a\x00\x00b", ""}, {"", "a\x00\x00b"}, {"1:a", ""}, {"", "1:a"}}
	seen := map[string][2]string{}
	for _, p := range pairs {
		k := compileKey(p[0], p[1])
		if prev, ok := seen[k]; ok {
			t.Errorf("condition %q, consensus %q and condition %q, consensus %q share the key %q", prev[0], prev[1], p[0], p[1], k)
		}
		seen[k] = p
	}
}

// A policy read again is not compiled again, whether it comes alone or in
// an organization's records, and a policy that differs only in its time is
// a policy of its own.
func TestCompileCacheCompilesEachTextOnce(t *testing.T) {
	c := NewCompileCache(64 << 20)
	records := []api.Policy{
		{PolicyID: "p1", Effect: api.EffectAllow, Condition: "activity.type == 'ACTIVITY_TYPE_CREATE_USER_TAG'"},
		{PolicyID: "p2", Effect: api.EffectAllow, Condition: "activity.type == 'ACTIVITY_TYPE_CREATE_USER_TAG'", Time: "time.now >= Timestamp('2020-01-01T00:00:00Z')"},
		{PolicyID: "p3", Effect: api.EffectDeny, Condition: "true", Consensus: "approvers.count() >= 2"},
	}
	first, errs := c.PoliciesOf(records)
	if len(errs) != 0 || len(first) != len(records) {
		t.Fatalf("first read: %d policies, errors %v", len(first), errs)
	}
	compiled := c.Compiles()
	if compiled != len(records) {
		t.Fatalf("first read of %d distinct policies compiled %d texts", len(records), compiled)
	}
	again, _ := c.PoliciesOf(records)
	if got := c.Compiles() - compiled; got != 0 {
		t.Errorf("reading the same policies again compiled %d texts", got)
	}
	for i := range again {
		if again[i].Compiled != first[i].Compiled || again[i].ID != records[i].PolicyID {
			t.Errorf("policy %d read again is not the one compiled first", i)
		}
	}
	if first[0].Compiled == first[1].Compiled {
		t.Error("two policies that differ only in their time share one compiled program")
	}
}
