package policy

import (
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
)

// A valid condition of the greatest length the service accepts, made of the
// characters Quote expands most (a control character is written \u0001),
// compiles, and its create_policy intent is shown whole: no line of it is
// cut, so approving it needs no --yes and the console does not warn.
func TestLongestConditionOfControlCharactersIsShownWhole(t *testing.T) {
	head := "activity.params.userTagName == '"
	cond := head + strings.Repeat("\x01", api.MaxExpressionLength-len(head)-1) + "'"
	if len(cond) != api.MaxExpressionLength {
		t.Fatalf("the condition is %d bytes, want %d", len(cond), api.MaxExpressionLength)
	}
	if _, err := CompileSource(Source{Condition: cond, Consensus: "true"}); err != nil {
		t.Fatalf("the condition does not compile: %v", err)
	}
	p := &api.CreatePolicyParams{PolicyName: "p", Effect: api.EffectAllow, Condition: cond, Consensus: "true"}
	if err := p.Validate(); err != nil {
		t.Fatalf("the service would refuse it: %v", err)
	}
	shown := api.ShowIntent(api.Intent{CreatePolicyIntentV3: p}, nil)
	if len(shown.Doubts) > 0 {
		t.Errorf("a valid condition is not shown whole: %v", shown.Doubts)
	}
	quoted := api.Quote(cond)
	found := false
	for _, l := range shown.Lines {
		found = found || strings.Contains(l, quoted)
	}
	if !found {
		t.Errorf("no line holds the whole condition, quoted (%d bytes)", len(quoted))
	}
}
