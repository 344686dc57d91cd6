package server

import (
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/vigil-console/vigil/api"
)

// shortLivedUser creates pat with one API key of a 60 s lifetime, and
// returns pat's id and that key's id.
func shortLivedUser(t *testing.T, e *testEnv) (user, key string) {
	t.Helper()
	ctx := ctxT(t)
	k := e.newKey("pat short")
	user, err := e.srv.CreateUser(ctx, e.org.ID, UserSpec{Name: "pat",
		APIKeys: []APIKeySpec{{Name: "short-lived", PublicKey: k.PublicKeyHex(), ExpirationSeconds: 60}}})
	if err != nil {
		t.Fatal(err)
	}
	u, err := e.clients["alice"].GetUser(ctx, user)
	if err != nil || len(u.APIKeys) != 1 {
		t.Fatalf("pat: %+v %v", u, err)
	}
	return user, u.APIKeys[0].APIKeyID
}

func pinnedToAPIKey(user, key string) api.CreateMfaPolicyParams {
	return api.CreateMfaPolicyParams{UserID: user, MfaPolicyName: "pinned to one API key", Condition: "true",
		RequiredAuthenticationMethods: []api.AuthenticationStep{{Any: []api.AuthenticationMethod{{Type: api.AuthAPIKey, ID: key}}}}}
}

// An MFA policy pinned to an API key that has expired could never be met:
// every request the key stamps is refused (API_KEY_EXPIRED), so it casts no
// vote, and an MFA policy cannot be removed. The submission is refused with
// a 400 that names the key and says it expired.
func TestCreateMfaPolicyRefusesAPinToAnExpiredKey(t *testing.T) {
	e := newEnv(t)
	ctx := ctxT(t)
	pat, key := shortLivedUser(t, e)
	e.skew.Store(int64(2 * time.Minute)) // the key has expired
	_, err := e.skewed("alice").CreateMfaPolicy(ctx, pinnedToAPIKey(pat, key))
	var refused *api.Error
	if !errors.As(err, &refused) || refused.StatusCode != http.StatusBadRequest {
		t.Fatalf("an MFA policy pinned to pat's expired API key %s: %v, want a 400", key, err)
	}
	for _, want := range []string{"requiredAuthenticationMethods[0].any[0].id", key, "expired"} {
		if !strings.Contains(refused.Message, want) {
			t.Errorf("the refusal should say %q: %s", want, refused.Message)
		}
	}
}

// The pin is judged again when the policy is created: a key that expires
// while the policy waits for votes makes the activity fail, saying so, and
// no policy is stored.
func TestCreateMfaPolicyFailsWhenItsPinnedKeyExpiresMeanwhile(t *testing.T) {
	e := newEnv(t)
	ctx := ctxT(t)
	pat, key := shortLivedUser(t, e)
	alice := e.skewed("alice")
	pending, err := alice.CreateMfaPolicy(ctx, pinnedToAPIKey(pat, key))
	if err != nil {
		t.Fatal(err)
	}
	if pending.Status != api.StatusConsensusNeeded {
		t.Fatalf("create_mfa_policy is %s, want it waiting for bob's vote", pending.Status)
	}
	e.skew.Store(int64(2 * time.Minute)) // the key expires while it waits
	act, err := e.skewed("bob").ApproveActivity(ctx, pending.Fingerprint)
	checkFailed(t, act, err, key)
	if !strings.Contains(act.Failure.Message, "expired") {
		t.Errorf("the failure should say the key expired: %s", act.Failure.Message)
	}
	if ps, err := alice.GetMfaPolicies(ctx, pat); err != nil || len(ps) != 0 {
		t.Errorf("pat's MFA policies: %+v %v, want none", ps, err)
	}
}
