package api

import (
	"fmt"
	"slices"
)

// LostPin is a method of an MFA policy pinned to a credential a deletion
// takes: no vote of the policy's user meets it afterwards.
type LostPin struct {
	Policy MfaPolicy
	Step   int // from 1
	KeyID  string
	// Dead is set when no method of the step could be met afterwards: from
	// then on every activity the policy covers waits for a vote that can
	// never be cast.
	Dead bool
}

// PinsLostBy are the pins of pols (the MFA policies of u) that deleting
// keyIDs of u leaves unmeetable, judged as the clients judge a pin after the
// fact (CredentialMethodTypes): on u as it would be after the deletion. A pin
// already unmeetable before is not the deletion's doing and is left out.
func PinsLostBy(pols []MfaPolicy, u User, keyIDs []string) []LostPin {
	after := u
	after.APIKeys = slices.DeleteFunc(slices.Clone(u.APIKeys), func(k APIKey) bool { return slices.Contains(keyIDs, k.APIKeyID) })
	was, now := CredentialMethodTypes(u), CredentialMethodTypes(after)
	met := func(proves map[string]string, m AuthenticationMethod) bool {
		return m.ID == "" || proves[m.ID] == m.Type
	}
	var out []LostPin
	for _, p := range pols {
		if p.UserID != "" && p.UserID != u.UserID {
			continue
		}
		for i, s := range p.RequiredAuthenticationMethods {
			dead := !slices.ContainsFunc(s.Any, func(m AuthenticationMethod) bool { return met(now, m) })
			for _, m := range s.Any {
				if m.ID != "" && met(was, m) && !met(now, m) {
					out = append(out, LostPin{Policy: p, Step: i + 1, KeyID: m.ID, Dead: dead})
				}
			}
		}
	}
	return out
}

// Note says what the deletion does to the policy, in one sentence.
func (p LostPin) Note() string {
	s := fmt.Sprintf("MFA policy %s pins API key %s in step %d: no vote can meet that method once the key is deleted", Quote(p.Policy.MfaPolicyName), SanitizeID(p.KeyID), p.Step)
	if p.Dead {
		s += ", and the step has no other method, so every activity the policy covers would wait for a vote that can never be cast; edit the policy first"
	}
	return s
}
