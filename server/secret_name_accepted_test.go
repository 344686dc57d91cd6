package server

import (
	"testing"

	"github.com/vigil-console/vigil/api"
)

// The refusal of a private key pasted into a name or notes is the client's
// (api.SecretInFreeText): the real service takes any text there, and so
// must the local one, sent raw.
func TestServiceAcceptsKeyLookingNames(t *testing.T) {
	e := newEnv(t)
	const hexKey = "7fd4d14adaee3004c7864d901064f664be6e8be00ad206476763ac4187fe6bc5"
	tag := e.post(e.submitPath("create_user_tag"), e.body(api.TypeCreateUserTag,
		api.CreateUserTagParams{UserTagName: hexKey, UserIDs: []string{}}, nil), e.keys["alice"])
	if tag.status != 200 || tag.act.Intent.CreateUserTagIntent == nil || tag.act.Intent.CreateUserTagIntent.UserTagName != hexKey {
		t.Fatalf("create_user_tag named with 64 hex digits: status %d, %s; want it recorded as sent", tag.status, tag.body)
	}
	pol := e.post(e.submitPath("create_policy"), e.body(api.TypeCreatePolicyV3,
		api.CreatePolicyParams{PolicyName: "p", Effect: api.EffectAllow, Notes: hexKey}, nil), e.keys["alice"])
	if pol.status != 200 || pol.act.Intent.CreatePolicyIntentV3 == nil || pol.act.Intent.CreatePolicyIntentV3.Notes != hexKey {
		t.Fatalf("create_policy with 64 hex digits as notes: status %d, %s; want it recorded as sent", pol.status, pol.body)
	}
}
