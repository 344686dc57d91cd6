package ui

import (
	"testing"

	"github.com/vigil-console/vigil/api"
)

// On the forms' named-value fields every choice shares a prefix (ACCESS_TYPE_,
// EFFECT_, FEATURE_NAME_, ...): a letter jumps by what follows it, so "w" on
// Access type chooses ACCESS_TYPE_WEB (it once matched only the prefix's "a").
func TestALetterOnNamedValuesJumpsByWhatFollowsTheirSharedPrefix(t *testing.T) {
	f := NewForm("Invite", Field{Key: "accessType", Label: "Access type", Choices: api.AccessTypes()})
	f, _ = f.Update(typed('a')) // WEB -> API
	f, _ = f.Update(typed('w'))
	if got := f.Values()["accessType"]; got != api.AccessTypeWeb {
		t.Errorf("w on Access type chose %q, want %s (error shown: %q)", got, api.AccessTypeWeb, f.Errors()["accessType"])
	}
	g := NewForm("Policy", Field{Key: "effect", Label: "Effect", Choices: api.Effects()})
	g, _ = g.Update(typed('d'))
	if got := g.Values()["effect"]; got != api.EffectDeny {
		t.Errorf("d on Effect chose %q, want %s (error shown: %q)", got, api.EffectDeny, g.Errors()["effect"])
	}
}

// A letter that starts every choice as shown (e on EFFECT_ALLOW, EFFECT_DENY)
// steps through them rather than being refused as matching none.
func TestALetterOfTheSharedPrefixStillSteps(t *testing.T) {
	f := NewForm("Policy", Field{Key: "effect", Label: "Effect", Choices: api.Effects()})
	before := f.Values()["effect"]
	f, _ = f.Update(typed('e'))
	if e := f.Errors()["effect"]; e != "" || f.Values()["effect"] == before {
		t.Errorf("e on Effect: error %q, choice %q (was %q)", e, f.Values()["effect"], before)
	}
}
