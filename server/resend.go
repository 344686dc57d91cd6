package server

import (
	"context"
	"errors"
	"strings"

	"github.com/vigil-console/vigil/api"
)

// recordedResend answers a submit refused by authenticate (authErr) that
// resends, byte for byte, a request the service recorded when its key was
// still good: a reply was lost, and the request deleted the very key that
// stamped it (delete_api_keys of one's own key, deleting oneself), or the key
// expired since. The resend gets the recorded activity, as DESIGN.md §4 and
// api.Client.Resubmit promise; nothing is written.
//
// Why this does not weaken authentication: the stamp verified over these exact
// bytes (verifyBody), and the activity must hold a vote that this very
// request cast (its body fingerprint) with this very public key, which the
// service accepted then as a key of that user in that organization. So only
// the holder of that key can get the answer, only for requests it made
// itself, and only within the timestamp window (±5 minutes) of making them; it
// learns nothing it was not told then, apart from how the activity went on
// since. Any other request stays refused, with a message that says how to
// check whether the earlier request was recorded.
func (s *Server) recordedResend(ctx context.Context, st stampHeader, op api.Operation, checked api.StrictBody,
	head envelopeHead, body []byte, authErr error) (api.Activity, error) {
	var refused *Error
	if st.webAuthn || !errors.As(authErr, &refused) || (refused.ErrorCode != "UNKNOWN_KEY" && refused.ErrorCode != "API_KEY_EXPIRED") {
		return api.Activity{}, authErr
	}
	hinted := *refused
	hinted.Message += "; if this request resends one whose reply was lost, that earlier request may have deleted this key" +
		" (or the key has expired since): list the organization's activities with another key to see whether it was recorded"
	if s.checkTimestamp(head.TimestampMs) != nil {
		return api.Activity{}, &hinted
	}
	fp := fingerprintOf(body)
	target := fp // a submit's activity has the fingerprint of its body
	if op.Type == api.TypeApproveActivity || op.Type == api.TypeRejectActivity {
		// A vote's request is not an activity: the activity voted on is.
		_, params, err := decodeEnvelope(op, checked)
		if err != nil {
			return api.Activity{}, &hinted
		}
		switch p := params.(type) {
		case *api.ApproveActivityParams:
			target = p.Fingerprint
		case *api.RejectActivityParams:
			target = p.Fingerprint
		}
	}
	a, err := loadActivity(ctx, s.db.read, s.now(), head.OrganizationID, "fingerprint", target)
	if err != nil {
		return api.Activity{}, err
	}
	if a == nil {
		return api.Activity{}, &hinted
	}
	for _, v := range a.Votes {
		if v.BodyFingerprint == fp && strings.EqualFold(v.Vote.PublicKey, st.publicKey) {
			s.log.Info("resend answered with its recorded activity although its key is no longer accepted",
				"activityId", a.ID, "userId", v.Vote.UserID, "refusal", refused.ErrorCode)
			return a.toAPI(v.Vote.UserID, false), nil // read only: no vote from a key no longer accepted
		}
	}
	return api.Activity{}, &hinted
}
