package policy

import "testing"

// Warnings parses the condition once for all its walks, and type-checks it
// at most once: each parse of a long condition costs milliseconds, and far
// more while it does not parse (mid-term as it is typed).
func TestWarningsParseTheConditionOnce(t *testing.T) {
	before := conditionParses.Load()
	cond := "activity.params.userTagName == 'x' && activity.action != 'CREAT' && " +
		"solana.tx.instructions.any(i, i.parsed_instruction_data.named_accounts.size() > 0)"
	ws := Warnings(Source{Condition: cond})
	if n := conditionParses.Load() - before; n != 1 {
		t.Errorf("the condition was parsed %d times for its warnings, want 1", n)
	}
	if len(ws) < 2 {
		t.Errorf("warnings %+v", ws)
	}
}
