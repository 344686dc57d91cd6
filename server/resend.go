package server

import (
	"context"
	"errors"
	"slices"
	"strings"

	"github.com/vigil-console/vigil/api"
)

// recordedResend answers a request refused by authenticate (authErr) in one
// case only: it resends, byte for byte, a request whose execution deleted the
// very key that stamped it, and whose reply was lost: delete_api_keys of one's
// own key, or one's vote that completed it; or an oauth with
// invalidateExisting stamped by, or completed by the vote of, one of the
// same user's OAuth keys. The resend gets the recorded activity, as
// DESIGN.md §4 and api.Client.Resubmit promise; nothing is written. For an
// oauth, that activity carries the new key's credential bundle, without
// which the client would have lost the key that replaced its own. Without this, the one request that can never be retried with the
// same key would leave its client not knowing whether it was recorded.
//
// Why this does not weaken authentication: the stamp verified over these exact
// bytes (verifyBody); the activity must have deleted the key that cast a vote
// of this very request (its body fingerprint) with this very public key, a
// vote the service accepted then (deletedItsVoter); and the request's
// timestamp must be within the window (±5 minutes). Such a deletion's result
// is the ids of the keys it deleted, nothing secret; an oauth's is a key
// encrypted to the target key this very request named, the result its first
// reply carried.
// Every other refusal stands (a key deleted by someone else's request, an
// expired key, a request the key did not make): the key is no longer
// accepted, so it must learn nothing decided since, least of all a result
// minted after it was revoked. The refusal then says how to check with
// another key whether an earlier request deleted this one.
//
// A key registered in other organizations as well is refused here as
// FOREIGN_ORGANIZATION rather than UNKNOWN_KEY (keys are unique per
// organization only); the vote found in this organization shows it was a key
// of this one, so that refusal qualifies too.
func (s *Server) recordedResend(ctx context.Context, st stampHeader, op api.Operation, checked api.StrictBody,
	head envelopeHead, body []byte, authErr error) (api.Activity, error) {
	var refused *Error
	if st.webAuthn || !errors.As(authErr, &refused) {
		return api.Activity{}, authErr
	}
	hinted := *refused
	switch refused.ErrorCode {
	case "UNKNOWN_KEY", "API_KEY_EXPIRED":
		hinted.Message += "; if this request resends one whose reply was lost, that earlier request may have deleted this key" +
			" (or the key was deleted by another request, or has expired since): list the organization's activities with another key" +
			" to see whether it was recorded"
	case "FOREIGN_ORGANIZATION":
		hinted.Message += "; if this key was also a key of this organization, a request may have deleted it here:" +
			" list the organization's activities with another key of it to see whether it was recorded"
	default:
		return api.Activity{}, authErr
	}
	if refused.ErrorCode == "API_KEY_EXPIRED" || s.checkTimestamp(head.TimestampMs) != nil {
		// An expired key is still registered: no request of its own deleted it.
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
	} else if op.Type != api.TypeDeleteAPIKeys && op.Type != api.TypeOauth {
		return api.Activity{}, &hinted
	}
	a, err := loadActivity(ctx, s.db.read, s.now(), head.OrganizationID, "fingerprint", target)
	if err != nil {
		return api.Activity{}, err
	}
	if a == nil {
		return api.Activity{}, &hinted
	}
	v, ok := a.deletedItsVoter(fp, st.publicKey)
	if !ok {
		return api.Activity{}, &hinted
	}
	s.log.Info("resend answered with the recorded activity that deleted the key that stamped it",
		"activityId", a.ID, "userId", v.Vote.UserID, "apiKeyId", v.cast.ID, "refusal", refused.ErrorCode)
	return a.toAPI(v.Vote.UserID, false), nil // read only: no vote from a key no longer accepted
}

// deletedItsVoter finds the vote that the request with body fingerprint fp
// cast on a with publicKey, when a's execution deleted that vote's key.
//
// A completed delete_api_keys of the voter's own key removed every key it
// names (execDeleteAPIKeys fails the activity otherwise), and key ids are
// never reused, so the key is gone because of a.
//
// A completed oauth with invalidateExisting deleted every OAuth key its
// user had when it executed (executeOauth), except the one it made. That
// says the voter's OAuth key was among them only if the key was still
// registered then: so the vote must be the one that completed a, cast (its
// time is a's last change) in the transaction that executed it, after
// that transaction found the key still accepted (stillAuthenticated). A key
// of the user deleted before, by another request, is not answered here.
func (a *activity) deletedItsVoter(fp, publicKey string) (voteRow, bool) {
	if a.Status != api.StatusCompleted {
		return voteRow{}, false
	}
	for _, v := range a.Votes {
		if v.BodyFingerprint != fp || !strings.EqualFold(v.Vote.PublicKey, publicKey) || v.cast.ID == "" {
			continue
		}
		if a.deletedByExecution(v) {
			return v, true
		}
	}
	return voteRow{}, false
}

// deletedByExecution says whether executing a deleted the API key that cast v
// (see deletedItsVoter).
func (a *activity) deletedByExecution(v voteRow) bool {
	switch a.Type {
	case api.TypeDeleteAPIKeys:
		del := a.Intent.DeleteAPIKeysIntent
		return del != nil && v.Vote.UserID == del.UserID && slices.Contains(del.APIKeyIDs, v.cast.ID)
	case api.TypeOauth:
		in, res := a.Intent.OauthIntent, a.Result.OauthResult
		return in != nil && res != nil && in.InvalidateExisting != nil && *in.InvalidateExisting &&
			v.cast.Type == api.CredentialOauthKeyP256 && v.Vote.UserID == res.UserID && v.cast.ID != res.APIKeyID &&
			v.created.Equal(a.Updated)
	}
	return false
}
