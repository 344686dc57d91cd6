package api

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"

	"github.com/vigil-console/vigil/keys"
)

// A 2xx reply to a submit is taken as that submit's outcome only if the
// activity it carries is this request's: a cached, misrouted or hostile 200
// naming another activity says nothing of what became of the request.

// BodyFingerprint is the fingerprint the service gives the activity of a
// submit body: "sha256:" and the lowercase hex SHA-256 of the exact bytes
// (docs/local-service.md, "Replays").
func BodyFingerprint(body []byte) string {
	sum := sha256.Sum256(body)
	return "sha256:" + hex.EncodeToString(sum[:])
}

// replyBinding is what the activity of a submit's reply must show.
type replyBinding struct {
	org         string // the organization the body names; "" checks nothing
	typ         string // the activity type; "" for a vote, whose reply is the target
	fingerprint string
}

// bindingOf reads what the reply to body must show: for a vote, the voted
// activity (its fingerprint and organization); for any other submit, the
// activity of these bytes. A body that is not an envelope (a raw send) binds
// the reply to its fingerprint only.
func bindingOf(body []byte) replyBinding {
	typ, org, voted, ok := envelopeHead(body)
	if !ok {
		return replyBinding{fingerprint: BodyFingerprint(body)}
	}
	if typ == TypeApproveActivity || typ == TypeRejectActivity {
		return replyBinding{org: org, fingerprint: voted}
	}
	return replyBinding{org: org, typ: typ, fingerprint: BodyFingerprint(body)}
}

// envelopeHead reads a submit body's type, organization and parameters'
// fingerprint (the activity a vote is on); ok is false when the body is not
// a JSON envelope.
func envelopeHead(body []byte) (typ, org, fingerprint string, ok bool) {
	var req struct {
		Type           string `json:"type"`
		OrganizationID string `json:"organizationId"`
		Parameters     struct {
			Fingerprint string `json:"fingerprint"`
		} `json:"parameters"`
	}
	if json.Unmarshal(body, &req) != nil {
		return "", "", "", false
	}
	return req.Type, req.OrganizationID, req.Parameters.Fingerprint, true
}

// VoteOfBody reads a vote from a submit body: the fingerprint voted on, the
// organization, and whether it approves. ok is false for any other body.
func VoteOfBody(body []byte) (fingerprint, org string, approve, ok bool) {
	typ, org, fp, ok := envelopeHead(body)
	switch {
	case !ok:
		return "", "", false, false
	case typ == TypeApproveActivity:
		return fp, org, true, true
	case typ == TypeRejectActivity:
		return fp, org, false, true
	}
	return "", "", false, false
}

// mismatch says how a differs from what the reply must show, or "" when it
// is the request's activity.
func (b replyBinding) mismatch(a *Activity) string {
	var diffs []string
	if b.org != "" && !sameID(a.OrganizationID, b.org) {
		diffs = append(diffs, fmt.Sprintf("its organization is %s, not %s", shown(a.OrganizationID), shown(b.org)))
	}
	if b.typ != "" && !sameOperation(a.Type, b.typ) {
		diffs = append(diffs, fmt.Sprintf("its type is %s, not %s", shown(a.Type), shown(b.typ)))
	}
	if b.fingerprint != "" && !sameID(a.Fingerprint, b.fingerprint) {
		what := "the request's"
		if b.typ == "" && b.org != "" {
			what = "the one voted on"
		}
		diffs = append(diffs, fmt.Sprintf("its fingerprint is %s, not %s %s", shown(a.Fingerprint), what, shown(b.fingerprint)))
	}
	if len(diffs) == 0 {
		return ""
	}
	return fmt.Sprintf("the reply is about another activity (%s): %s", shown(a.ID), strings.Join(diffs, "; "))
}

// checkReply is the error of a submit whose 2xx reply carries another
// activity than cl's: the request was accepted, so it may have been
// recorded, and the reply does not say as what.
func (cl call) checkReply(a *Activity) error {
	if why := bindingOf(cl.body).mismatch(a); why != "" {
		return cl.outcomeUnknown(&unreadableReplyError{fmt.Errorf("%s: %s; a cache or proxy may have answered for the service", cl.op, why)})
	}
	return nil
}

// SubmitReplyMismatch says how the activity of reply, a 2xx to the submit
// body sent, is not that request's (another organization, type or
// fingerprint), or "" when it is or the reply names no activity. It is the
// check the typed submits make, for callers that send raw requests (Send).
func SubmitReplyMismatch(sent, reply []byte) string {
	var r ActivityResponse
	if json.Unmarshal(reply, &r) != nil || r.Activity.ID == "" {
		return ""
	}
	return bindingOf(sent).mismatch(&r.Activity)
}

// sameID reports whether got, an identifier of a reply, is want, as sent
// or as the client shows a reply's identifiers (SanitizeID), so that the
// check holds with and without WithExactStrings.
func sameID(got, want string) bool {
	return got == want || got == SanitizeID(want)
}

// sameOperation reports whether two activity types are the same operation,
// allowing another version of it: ACTIVITY_TYPE_CREATE_POLICY_V3 for
// ACTIVITY_TYPE_CREATE_POLICY, as ParseActivityType maps them.
func sameOperation(a, b string) bool {
	return a == b || unversioned(a) == unversioned(b)
}

// unversioned is t without a trailing _V and digits.
func unversioned(t string) string {
	i := strings.LastIndex(t, "_V")
	if i < 0 || i+2 == len(t) {
		return t
	}
	for _, c := range t[i+2:] {
		if c < '0' || c > '9' {
			return t
		}
	}
	return t[:i]
}

// shown is a value from a reply (or from the request) fit for an error line:
// escaped and cut short.
func shown(s string) string {
	if s == "" {
		return "empty"
	}
	return SanitizeID(truncateRunes(s, 80))
}

// ActivityReplyMismatch says how a, read from a get_activity reply, is not
// the activity asked for (another id, or another organization than org), or
// "" when it is. A reply about another activity must not end a wait or
// settle a vote.
func ActivityReplyMismatch(org, id string, a *Activity) string {
	var diffs []string
	if !sameID(a.ID, id) {
		diffs = append(diffs, fmt.Sprintf("its id is %s", shown(a.ID)))
	}
	if org != "" && !sameID(a.OrganizationID, org) {
		diffs = append(diffs, fmt.Sprintf("its organization is %s, not %s", shown(a.OrganizationID), shown(org)))
	}
	if len(diffs) == 0 {
		return ""
	}
	return fmt.Sprintf("the reply is about another activity than %s: %s; the server may not be this service", shown(id), strings.Join(diffs, "; "))
}

// sameSigner reports whether a and b stamp as the same key: the same
// stamper, or two holding the same public key.
func sameSigner(a, b keys.Stamper) bool {
	if a == nil || b == nil {
		return false
	}
	type publicKeyed interface{ PublicKeyHex() string }
	pa, okA := a.(publicKeyed)
	pb, okB := b.(publicKeyed)
	if okA && okB {
		return pa.PublicKeyHex() == pb.PublicKeyHex()
	}
	ta, tb := reflect.TypeOf(a), reflect.TypeOf(b)
	return ta == tb && ta.Comparable() && a == b
}
