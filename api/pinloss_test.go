package api

import (
	"strings"
	"testing"
	"time"
)

func pinTo(id string) AuthenticationMethod { return AuthenticationMethod{Type: AuthAPIKey, ID: id} }

func oneStep(name string, methods ...AuthenticationMethod) MfaPolicy {
	return MfaPolicy{MfaPolicyName: name, UserID: "u", RequiredAuthenticationMethods: []AuthenticationStep{{Any: methods}}}
}

// An expired API key signs nothing: a pin to it was unmeetable before the
// deletion, so deleting it (routine cleanup of expired keys) loses nothing
// and must not be flagged "every activity would wait for a vote that can
// never be cast; edit the policy first". Conversely, a step whose only other
// method is pinned to an expired key IS dead once its live key goes.
func TestPinsLostByCountsAnExpiredKeyAsUnmeetable(t *testing.T) {
	now := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	old := NewTime(now.Add(-48 * time.Hour))
	u := User{UserID: "u", APIKeys: []APIKey{
		{APIKeyID: "expired", CreatedAt: old, ExpirationSeconds: "3600", Credential: Credential{Type: CredentialAPIKeyP256}},
		{APIKeyID: "live", CreatedAt: old, Credential: Credential{Type: CredentialAPIKeyP256}},
	}}
	if lost := PinsLostBy([]MfaPolicy{oneStep("old", pinTo("expired"))}, u, []string{"expired"}, now); len(lost) != 0 {
		t.Errorf("deleting an expired key whose pin was already unmeetable is flagged: %q", lost[0].Note())
	}
	lost := PinsLostBy([]MfaPolicy{oneStep("both", pinTo("live"), pinTo("expired"))}, u, []string{"live"}, now)
	if len(lost) != 1 || !lost[0].Dead || !strings.Contains(lost[0].Note(), "can never be cast") {
		t.Errorf("deleting the live key leaves only a pin to an expired key, yet the step is not said dead: %+v", lost)
	}
	// Before it expired, the same key met its pin: deleting it then is a loss.
	if lost := PinsLostBy([]MfaPolicy{oneStep("old", pinTo("expired"))}, u, []string{"expired"}, now.Add(-47*time.Hour-time.Minute)); len(lost) != 1 || !lost[0].Dead {
		t.Errorf("deleting a key before it expires, its pin the step's only method: %+v", lost)
	}
}

// A method that pins no key is met by any credential of its type the user
// holds, and by none once the last goes: the step [pin k1, any API key] is
// dead when k1, the user's only API key, is deleted, and so is a step of
// unpinned methods only, though no pin names the key.
func TestPinsLostByCountsAnUnpinnedMethodOnlyWithACredentialOfItsType(t *testing.T) {
	now := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	k1 := APIKey{APIKeyID: "k1", Credential: Credential{Type: CredentialAPIKeyP256}}
	u := User{UserID: "u", APIKeys: []APIKey{k1}}
	anyKey := AuthenticationMethod{Type: AuthAPIKey}
	lost := PinsLostBy([]MfaPolicy{oneStep("p", pinTo("k1"), anyKey)}, u, []string{"k1"}, now)
	if len(lost) != 1 || !lost[0].Dead || !strings.Contains(lost[0].Note(), "can never be cast") {
		t.Errorf("deleting the user's only API key leaves no way to meet [pin k1, any API key], yet: %+v", lost)
	}
	lost = PinsLostBy([]MfaPolicy{oneStep("any", anyKey)}, u, []string{"k1"}, now)
	if len(lost) != 1 || !lost[0].Dead || !strings.Contains(lost[0].Note(), `"any"`) || !strings.Contains(lost[0].Note(), "can never be cast") {
		t.Errorf("deleting the user's only API key under [any API key]: %+v", lost)
	}
	if len(lost) == 1 && strings.Contains(lost[0].Note(), "pins") {
		t.Errorf("a step that pins nothing is said to pin: %q", lost[0].Note())
	}

	// Another API key of theirs, or a passkey the step also takes, still meets it.
	kept := u
	kept.APIKeys = append(kept.APIKeys, APIKey{APIKeyID: "k2", Credential: Credential{Type: CredentialAPIKeyP256}})
	if lost := PinsLostBy([]MfaPolicy{oneStep("any", anyKey)}, kept, []string{"k1"}, now); len(lost) != 0 {
		t.Errorf("the user keeps API key k2, yet: %q", lost[0].Note())
	}
	passkey := u
	passkey.Authenticators = []Authenticator{{AuthenticatorID: "a1"}}
	if lost := PinsLostBy([]MfaPolicy{oneStep("either", anyKey, AuthenticationMethod{Type: AuthPasskey})}, passkey, []string{"k1"}, now); len(lost) != 0 {
		t.Errorf("the user keeps a passkey the step takes, yet: %q", lost[0].Note())
	}
	// An OAuth key proves OAUTH, not API_KEY: it does not keep the step alive.
	oauth := u
	oauth.APIKeys = append(oauth.APIKeys, APIKey{APIKeyID: "o1", Credential: Credential{Type: CredentialOauthKeyP256}})
	if lost := PinsLostBy([]MfaPolicy{oneStep("any", anyKey)}, oauth, []string{"k1"}, now); len(lost) != 1 || !lost[0].Dead {
		t.Errorf("the user keeps only an OAuth key, which proves another method: %+v", lost)
	}
}
