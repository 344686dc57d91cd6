package api

import (
	"cmp"
	"slices"
	"strings"
)

// MfaPoliciesInOrder is a copy of pols in evaluation order: by order, a tie
// kept in the order given (the service lists ties by creation). Every reader
// sorts with this, so the CLI, the console and the vote warnings name the same
// policy as the first whose condition holds, whatever order a reply is in.
func MfaPoliciesInOrder(pols []MfaPolicy) []MfaPolicy {
	if pols == nil {
		return nil // nil (not read) stays apart from [] (none)
	}
	out := slices.Clone(pols)
	// cmp.Compare, not a subtraction: a hostile order must not overflow.
	slices.SortStableFunc(out, func(a, b MfaPolicy) int { return cmp.Compare(a.Order, b.Order) })
	return out
}

// AuthTypeText shows MFA method type t for a reader: a known type without
// its AUTHENTICATION_TYPE_ prefix ("PASSKEY"); any other quoted whole, its
// look-alike letters escaped, and marked unknown, so a type no credential
// proves never reads as a known one ("API_KEY" spelt with a Cyrillic А).
func AuthTypeText(t string) string {
	if slices.Contains(AuthenticationTypes(), t) {
		return strings.TrimPrefix(t, "AUTHENTICATION_TYPE_")
	}
	return Quote(t) + " (unknown type: no vote vigil knows of proves it)"
}
