package proof

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/vigil-console/vigil/api"
)

// Subject is the activity an app proof must be about. A signature by the
// attested key shows only that the enclave signed the payload; the payload must
// also name this activity, or any old proof could be replayed onto any activity.
// Empty fields (and a nil Result) are not compared: `vigil proof verify
// --activity ID` knows only the id.
type Subject struct {
	ActivityID     string
	Type           string
	Fingerprint    string
	OrganizationID string
	// Result is the activity's result as received; its SHA-256 (as vigil
	// encodes it) is compared with the payload's resultHash.
	Result *api.Result
}

// SubjectOf is the subject of an activity as the service returned it.
func SubjectOf(a api.Activity) *Subject {
	r := a.Result
	return &Subject{ActivityID: a.ID, Type: a.Type, Fingerprint: a.Fingerprint, OrganizationID: a.OrganizationID, Result: &r}
}

// ResultHash is the SHA-256 of a result as vigil encodes it: what the local
// service puts in an app proof's resultHash (DESIGN.md §4).
func ResultHash(r api.Result) (string, error) {
	b, err := json.Marshal(r)
	if err != nil {
		return "", fmt.Errorf("encode the result: %w", err)
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:]), nil
}

const nameBinding = "App proof is about this activity"

// IntentNotCovered is shown beside an app proof bound to its activity, where
// the activity's intent is shown too. The payload binds only the activity's
// id, type, fingerprint and result; the fingerprint is the SHA-256 of the
// exact request body (DESIGN.md), which the service does not return, so vigil
// cannot recompute it from the intent: a hostile service could show another
// intent beside a genuine proof.
const IntentNotCovered = "not covered: this proof binds the activity's id, type, fingerprint and result, not its intent; the intent shown is the service's (the fingerprint hashes the exact request body, which the service does not return, so it cannot be checked against the intent)"

// BindingCheckID is the ID of the check that app proof i is about the subject.
func BindingCheckID(i int) string { return fmt.Sprintf("app-proof[%d].activity", i) }

// BindAppProof says whether the payload of p is about s (nil: no activity to
// compare with, always NotApplicable). Pass: the payload names the activity and
// every field given matches. Fail: it names another activity or organization,
// or a field differs or is missing (a resultHash too, when s.Result is
// given), or it is not a JSON object. NotApplicable with s set: the
// payload names no activity (the real service's address-derivation proofs), so
// it cannot show it is about this one. The payload's signature is not checked
// here (VerifyBootProof does that).
func BindAppProof(p api.AppProof, s *Subject) (Status, string) {
	var fields map[string]json.RawMessage
	err := api.CheckStrictJSON([]byte(p.ProofPayload))
	if err == nil {
		err = json.Unmarshal([]byte(p.ProofPayload), &fields)
	}
	if err != nil || fields == nil {
		if err == nil {
			err = fmt.Errorf("it is null")
		}
		if s == nil {
			return NotApplicable, "not compared: no activity given; the payload is not a JSON object"
		}
		return Fail, fmt.Sprintf("the payload is not a JSON object (%v), so it cannot say which activity it is about", err)
	}
	str := func(m map[string]json.RawMessage, key string) (string, bool) {
		var v string
		raw, ok := m[key]
		return v, ok && json.Unmarshal(raw, &v) == nil
	}
	typ, _ := str(fields, "type")
	id, hasID := str(fields, "activityId")
	if _, present := fields["activityId"]; present && (!hasID || id == "") {
		// Present but not an id (a number, a list, an object, null, ""): a
		// payload that tries to name an activity and names none is not one of
		// the service's address proofs that name no activity at all.
		if s == nil {
			return NotApplicable, "not compared: no activity given; the payload's activityId is not a non-empty string"
		}
		return Fail, "the payload's activityId is not a non-empty string (" + show(string(fields["activityId"])) + "), so it cannot say which activity it is about"
	}
	if !hasID {
		return bindWithoutActivity(fields, typ, s)
	}
	about := fmt.Sprintf("activity %s (%s)", show(id), show(shortType(typ)))
	if s == nil {
		return NotApplicable, "not compared: no activity given; the payload is about " + about
	}
	if s.ActivityID != "" && id != s.ActivityID {
		return Fail, "this proof is for " + about + ", not this one"
	}
	var bad, compared, skipped []string
	compare := func(name, key, want, differs string) {
		if want == "" {
			skipped = append(skipped, name)
			return
		}
		got, ok := str(fields, key)
		switch {
		case !ok || got == "":
			bad = append(bad, "the payload has no "+name)
		case got != want:
			bad = append(bad, fmt.Sprintf(differs, show(got), show(want)))
		default:
			compared = append(compared, name)
		}
	}
	compare("type", "type", s.Type, "the payload's type is %s, this activity's is %s")
	compare("fingerprint", "fingerprint", s.Fingerprint, "the payload's fingerprint %s is not this activity's (%s): the enclave signed for another request")
	if s.Result == nil {
		skipped = append(skipped, "result")
	} else if want, herr := ResultHash(*s.Result); herr != nil {
		bad = append(bad, herr.Error())
	} else if got, ok := str(fields, "resultHash"); !ok || got == "" {
		// As a missing type or fingerprint: a payload naming the activity
		// without its result would let any result be shown beside it.
		bad = append(bad, "the payload has no resultHash, so the result shown is not bound to what the enclave signed")
	} else {
		compare("result hash", "resultHash", want, "the payload's resultHash %s is not the SHA-256 of this activity's result as received (%s): the result shown is not the one the enclave signed")
	}
	if len(bad) > 0 {
		return Fail, "the payload names this activity, but " + strings.Join(bad, "; ")
	}
	reason := "the payload names this activity"
	if len(compared) > 0 {
		reason += "; its " + strings.Join(compared, ", ") + " match"
	}
	if len(skipped) > 0 {
		reason += "; not compared (not given): " + strings.Join(skipped, ", ")
	}
	return Pass, reason
}

// bindWithoutActivity handles a payload that names no activity: its
// organization, when it names one, must still be the activity's.
func bindWithoutActivity(fields map[string]json.RawMessage, typ string, s *Subject) (Status, string) {
	kind := "the payload"
	if typ != "" {
		kind = "the payload (type " + show(typ) + ")"
	}
	if s == nil {
		return NotApplicable, "not compared: no activity given; " + kind + " names no activity"
	}
	for _, org := range payloadOrganizations(fields) {
		switch {
		case !org.ok:
			// As with activityId: a payload that tries to name an
			// organization and names none could hide the one it names
			// elsewhere, so it is not an address proof that names none.
			return Fail, "the payload's " + org.where + " is not a non-empty string (" + show(org.raw) + "), so it cannot say which organization it is about"
		case s.OrganizationID != "" && org.id != s.OrganizationID:
			return Fail, fmt.Sprintf("this proof is for organization %s (%s), not this activity's (%s)", show(org.id), org.where, show(s.OrganizationID))
		}
	}
	return NotApplicable, kind + " names no activity, so it cannot show it is about this one (it proves only what it says, e.g. an address derivation)"
}

// payloadOrg is one organizationId found in a payload: where it is, and its
// value when it is a non-empty string (ok).
type payloadOrg struct {
	where, id, raw string
	ok             bool
}

// payloadOrganizations is every organizationId of the payload, at the top and
// one object down (the real service nests it, as in addressDerivationProof),
// in key order. Every one is returned, not the first readable one: a null or
// a first nested object naming this organization must not hide another.
func payloadOrganizations(fields map[string]json.RawMessage) []payloadOrg {
	var out []payloadOrg
	add := func(where string, raw json.RawMessage) {
		var id string
		ok := raw != nil && string(raw) != "null" && json.Unmarshal(raw, &id) == nil && id != ""
		out = append(out, payloadOrg{where: where, id: id, raw: string(raw), ok: ok})
	}
	if raw, ok := fields["organizationId"]; ok {
		add("organizationId", raw)
	}
	for _, k := range slices.Sorted(maps.Keys(fields)) {
		var inner map[string]json.RawMessage
		if json.Unmarshal(fields[k], &inner) != nil {
			continue
		}
		if raw, ok := inner["organizationId"]; ok {
			add(k+".organizationId", raw)
		}
	}
	return out
}

func shortType(t string) string { return strings.TrimPrefix(t, "ACTIVITY_TYPE_") }

// show is a value from the payload or the activity for a reason: clipped, and
// quoted when it is empty (callers sanitize reasons when they print them).
func show(s string) string {
	if s == "" {
		return `""`
	}
	return clip(s)
}
