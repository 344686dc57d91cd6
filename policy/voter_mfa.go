package policy

import (
	"slices"
	"strings"
	"time"

	"github.com/vigil-console/vigil/api"
)

// APIKeyVoteShortOfMfa is the voter's own MFA policy (of pols, theirs) that
// applies to act and that one vote signed with an API key — the console's
// and the CLI's — cannot meet, nil when none applies or the vote meets it.
// A service that enforces MFA holds such an activity as
// AUTHENTICATORS_NEEDED whatever the consensus; vigil's local service lets
// the votes decide. own is the key the voter signs with, as far as it is
// known: sure is false when the policy's one step is an API_KEY pinned to
// one key and which key the voter signs with is not known. An unread intent
// gives nil: the condition would be judged on empty params.
func APIKeyVoteShortOfMfa(pols []api.MfaPolicy, act api.Activity, now time.Time, own SigningKey) (p *api.MfaPolicy, sure bool) {
	if act.IntentUnread() {
		return nil, false
	}
	pols = api.MfaPoliciesInOrder(pols)
	p, _ = ApplicableMfaPolicy(pols, InputOfActivity(act, nil, now), CompileMfaCondition)
	if p == nil {
		return nil, false
	}
	meets, sure := apiKeyVoteMeets(p.RequiredAuthenticationMethods, own)
	if meets {
		return nil, false
	}
	return p, sure
}

// MfaUnchecked is what a vote warning (the CLI's approve, the console's
// approve dialog) says when the voter's MFA policies could not be read
// (err why): not nothing, which would read as "none applies".
func MfaUnchecked(err error) string {
	return "your MFA policies could not be checked, so whether one of them holds this activity back is not known: " + api.Sanitize(err.Error())
}

// SigningKey is what a voter knows of the API key it signs with: Known
// when its user's keys were read and its public key is known, ID the id of
// the one among them it is ("" when none is), and Proves the MFA method
// type a vote signed with it proves (api.AuthenticationTypeOf its
// credential type: an OAuth login's key proves OAUTH, not API_KEY).
type SigningKey struct {
	Known  bool
	ID     string
	Proves string
}

// SigningKeyOf finds the API key of u (the signed-in user) whose public key
// is publicKey on the curve of scheme, the signer's (api.APIKey.HasPublicKey):
// one user may hold the same bytes as a P-256 and a secp256k1 key, two keys.
// Not Known when either is missing (the user's keys did not load, or the
// signer's public key cannot be read), nor when the scheme is not known and
// keys of more than one curve have those bytes.
func SigningKeyOf(u *api.User, scheme, publicKey string) SigningKey {
	if u == nil || publicKey == "" {
		return SigningKey{}
	}
	found := SigningKey{Known: true}
	for _, k := range u.APIKeys {
		if !k.HasPublicKey(scheme, publicKey) {
			continue
		}
		if found.ID != "" {
			return SigningKey{}
		}
		found = SigningKey{Known: true, ID: k.APIKeyID, Proves: api.AuthenticationTypeOf(k.Credential.Type)}
	}
	return found
}

// Is reports whether id is k's id; sure is false when that cannot be told.
func (k SigningKey) Is(id string) (is, sure bool) {
	if !k.Known {
		return false, false
	}
	return id != "" && id == k.ID, true
}

// proves is the method type a vote signed with k proves: API_KEY when that
// is not known, the type of every key vigil makes itself.
func (k SigningKey) proves() string {
	if k.Known && k.Proves != "" {
		return k.Proves
	}
	return api.AuthAPIKey
}

// ProvesLabel names what a vote signed with k proves, for a warning: "an
// API key", or the method type.
func (k SigningKey) ProvesLabel() string {
	if t := k.proves(); t != api.AuthAPIKey {
		return "a key that proves " + strings.TrimPrefix(t, "AUTHENTICATION_TYPE_")
	}
	return "an API key"
}

// apiKeyVoteMeets reports whether one vote signed with the voter's key
// (own) meets steps: a vote proves one credential, and the service matches
// proofs to steps in sequence, each once, so it meets at most a one-step
// policy that accepts what the key proves: any key of that type, or own by
// its id. sure is false when that cannot be told: the step is pinned to a
// key, or asks for a type another key of the voter's could prove, and which
// key the voter signs with is not known.
func apiKeyVoteMeets(steps []api.AuthenticationStep, own SigningKey) (meets, sure bool) {
	switch len(steps) {
	case 0:
		return true, true
	case 1:
	default:
		return false, true
	}
	proves := own.proves()
	unsure := false
	for _, m := range steps[0].Any {
		if m.Type != proves {
			// Another type a key could prove (an OAuth login's key, a
			// session key) may be the voter's, when its key is not known.
			unsure = unsure || (!own.Known && keyProves(m.Type))
			continue
		}
		if is, _ := own.Is(m.ID); m.ID == "" || is {
			return true, true
		}
		unsure = unsure || !own.Known
	}
	return false, !unsure
}

// keyProves reports whether a vote signed with some API key (of some
// credential type) proves method type t.
func keyProves(t string) bool {
	return slices.ContainsFunc(api.CredentialTypesProving(t), func(c string) bool { return c != api.CredentialWebAuthnAuthenticator })
}
