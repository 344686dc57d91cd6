package policy

import (
	"strings"
	"testing"
	"unicode/utf8"

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

// The limit counts characters, so the longest condition and consensus may be
// four times as many bytes when every character takes four. Made of a
// character Quote writes in 10 bytes (a combining mark, escaped), they
// compile, the service's Validate takes them, and their intent is still
// shown whole.
func TestLongestExpressionsOfFourByteCharactersAreShownWhole(t *testing.T) {
	expr := func(head string) string {
		return head + strings.Repeat("\U000101FD", api.MaxExpressionLength-utf8.RuneCountInString(head)-len("' != ''")) + "' != ''"
	}
	cond, cons := expr("activity.params.userTagName + '"), expr("true && '")
	if n := utf8.RuneCountInString(cond); n != api.MaxExpressionLength {
		t.Fatalf("the condition is %d characters, want %d", n, api.MaxExpressionLength)
	}
	if _, err := CompileSource(Source{Condition: cond, Consensus: cons}); err != nil {
		t.Fatalf("expressions of %d characters do not compile: %v", api.MaxExpressionLength, err)
	}
	p := &api.CreatePolicyParams{PolicyName: "p", Effect: api.EffectAllow, Condition: cond, Consensus: cons}
	if err := p.Validate(); err != nil {
		t.Fatalf("the service would refuse them: %v", err)
	}
	shown := api.ShowIntent(api.Intent{CreatePolicyIntentV3: p}, nil)
	if len(shown.Doubts) > 0 {
		t.Errorf("valid expressions are not shown whole: %v", shown.Doubts)
	}
}

// One character more than the limit is refused by the compiler too, in
// characters, whatever the script.
func TestExpressionOneCharacterOverTheLimitIsRefused(t *testing.T) {
	cond := "'" + strings.Repeat("é", api.MaxExpressionLength-len("'' != ''")+1) + "' != ''"
	_, err := CompileSource(Source{Condition: cond})
	if err == nil || !strings.Contains(err.Error(), "characters long") {
		t.Fatalf("a condition of %d characters: got %v, want refused for its length", utf8.RuneCountInString(cond), err)
	}
}
