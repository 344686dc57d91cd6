package api

import (
	"fmt"
	"slices"
	"strings"
	"time"
)

// LostPin is what a deletion does to one step of an MFA policy: a method
// pinned to a credential it takes, which no vote of the policy's user meets
// afterwards, or (KeyID empty) the step itself, which no method of it pinned
// to a deleted key, but which none of its methods can meet afterwards.
type LostPin struct {
	Policy MfaPolicy
	Step   int    // from 1
	KeyID  string // the deleted key the method pins; "" for the step as a whole
	// Dead is set when no method of the step could be met afterwards: from
	// then on every activity the policy covers waits for a vote that can
	// never be cast.
	Dead bool
}

// CanMeet reports whether a vote of u can meet m at now, by the rule the
// service decides a vote with: u holds a credential whose votes prove m.Type
// (AuthenticationTypeOf its type, a passkey's proving PASSKEY), the one m
// pins when it pins one, and that is not an API key expired at now (every
// request it stamps is refused, so it casts no vote).
func (u User) CanMeet(m AuthenticationMethod, now time.Time) bool {
	passkey := slices.ContainsFunc(u.Authenticators, func(a Authenticator) bool { return m.ID == "" || a.AuthenticatorID == m.ID })
	if passkey && AuthenticationTypeOf(CredentialWebAuthnAuthenticator) == m.Type {
		return true
	}
	return slices.ContainsFunc(u.APIKeys, func(k APIKey) bool {
		return (m.ID == "" || k.APIKeyID == m.ID) && AuthenticationTypeOf(k.Credential.Type) == m.Type && !k.Expired(now)
	})
}

// PinsLostBy is what deleting keyIDs of u does to pols (the MFA policies of
// u), judged at the service's now on u as it would be after the deletion
// (User.CanMeet): each pin to a deleted key met before and not after, and
// each step met before that no method meets after though none of its pins
// was lost. What was already unmeetable before is not the deletion's doing
// and is left out.
func PinsLostBy(pols []MfaPolicy, u User, keyIDs []string, now time.Time) []LostPin {
	after := u
	after.APIKeys = slices.DeleteFunc(slices.Clone(u.APIKeys), func(k APIKey) bool { return slices.Contains(keyIDs, k.APIKeyID) })
	metBy := func(u User) func(AuthenticationMethod) bool {
		return func(m AuthenticationMethod) bool { return u.CanMeet(m, now) }
	}
	was, is := metBy(u), metBy(after)
	var out []LostPin
	for _, p := range pols {
		if p.UserID != "" && p.UserID != u.UserID {
			continue
		}
		for i, s := range p.RequiredAuthenticationMethods {
			dead := !slices.ContainsFunc(s.Any, is)
			pinned := false
			for _, m := range s.Any {
				if m.ID != "" && slices.Contains(keyIDs, m.ID) && was(m) && !is(m) {
					out = append(out, LostPin{Policy: p, Step: i + 1, KeyID: m.ID, Dead: dead})
					pinned = true
				}
			}
			if dead && !pinned && slices.ContainsFunc(s.Any, was) {
				out = append(out, LostPin{Policy: p, Step: i + 1, Dead: true})
			}
		}
	}
	return out
}

// Note says what the deletion does to the policy, in one sentence.
func (p LostPin) Note() string {
	const never = "so every activity the policy covers would wait for a vote that can never be cast; edit the policy first"
	if p.KeyID == "" {
		types := make([]string, 0, len(p.step().Any))
		for _, m := range p.step().Any {
			if t := strings.TrimPrefix(Sanitize(m.Type), "AUTHENTICATION_TYPE_"); !slices.Contains(types, t) {
				types = append(types, t)
			}
		}
		return fmt.Sprintf("MFA policy %s asks in step %d for %s: after this deletion the user holds no credential that can meet it, %s",
			Quote(p.Policy.MfaPolicyName), p.Step, strings.Join(types, " or "), never)
	}
	s := fmt.Sprintf("MFA policy %s pins API key %s in step %d: no vote can meet that method once the key is deleted", Quote(p.Policy.MfaPolicyName), SanitizeID(p.KeyID), p.Step)
	if p.Dead {
		s += ", and no other method of the step could be met either, " + never
	}
	return s
}

// step is the policy's step p names; empty when there is none.
func (p LostPin) step() AuthenticationStep {
	if p.Step < 1 || p.Step > len(p.Policy.RequiredAuthenticationMethods) {
		return AuthenticationStep{}
	}
	return p.Policy.RequiredAuthenticationMethods[p.Step-1]
}
