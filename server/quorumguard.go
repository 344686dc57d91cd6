package server

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/vigil-console/vigil/api"
)

// refuseQuorumLockout fails a delete_api_keys that would take a root member's
// last credential able to sign and leave fewer such members than the
// threshold: no activity that needs the root quorum could complete after it,
// and no activity changes the quorum (only oauth gives a linked user a new
// key, and it may well need the quorum). It reads the state in the
// transaction that executes the deletion, so approvals of earlier deletions
// are counted exactly; api.KeyDeletionLoss is the rule, shared with the
// console's and the CLI's warnings.
func (s *Server) refuseQuorumLockout(ctx context.Context, tx *txn, orgID, userID string, keyIDs []string, now time.Time) error {
	o, err := loadOrg(ctx, tx, orgID)
	if err != nil {
		return err
	}
	if !o.isRoot(userID) {
		return nil // only a root member's credentials count towards the quorum
	}
	members, passkeysSign, err := s.rootCredentials(ctx, tx, o, false)
	if err != nil {
		return err
	}
	loss := api.KeyDeletionLoss(members, api.Quorum{Threshold: o.Threshold, UserIDs: o.RootIDs}, now, userID, keyIDs, passkeysSign)
	if loss.LocksOut() {
		// Not failf: its cut of long arguments would cut the message itself;
		// the only text from the store in it is a user name, escaped.
		return &execFailure{code: api.CodeFailedPrecondition, msg: loss.Problem()}
	}
	return nil
}

// rootCredentials are the root members with their API keys and the
// authenticators that count as able to sign (ids only: whether a member holds
// one is what counts). The service does not record the origin a passkey was
// registered at, so once FEATURE_NAME_WEBAUTHN_ORIGINS is set (or, with
// originsSet, is about to be) it cannot show that any passkey may still sign:
// then no authenticator is counted, and the guards fail closed.
// passkeysSign is whether authenticators were counted (api.PasskeysSign).
func (s *Server) rootCredentials(ctx context.Context, tx querier, o *org, originsSet bool) (members []api.User, passkeysSign bool, err error) {
	if !originsSet {
		if originsSet, err = webauthnOriginsSet(ctx, tx, o.ID); err != nil {
			return nil, false, err
		}
	}
	if len(o.RootIDs) == 0 {
		return nil, !originsSet, nil
	}
	marks := strings.Repeat(",?", len(o.RootIDs))[1:]
	args := []any{o.ID}
	for _, id := range o.RootIDs {
		args = append(args, id)
	}
	// The unary + keeps the planner off the organization's keys index (it
	// would walk every key of the organization for their order): the root
	// members' keys come through the index on the user.
	keys, err := loadAPIKeys(ctx, tx, `+org_id = ? AND user_id IN (`+marks+`)`, args...)
	if err != nil {
		return nil, false, err
	}
	rows, err := tx.QueryContext(ctx, `SELECT id, user_id FROM authenticators WHERE org_id = ? AND user_id IN (`+marks+`)`, args...)
	if err != nil {
		return nil, false, fmt.Errorf("load root authenticators: %w", err)
	}
	defer rows.Close()
	auths := map[string][]api.Authenticator{}
	for rows.Next() {
		var id, user string
		if err := rows.Scan(&id, &user); err != nil {
			return nil, false, err
		}
		if !originsSet {
			auths[user] = append(auths[user], api.Authenticator{AuthenticatorID: id})
		}
	}
	if err := rows.Err(); err != nil {
		return nil, false, err
	}
	members = make([]api.User, 0, len(o.RootIDs))
	for _, id := range o.RootIDs {
		u := api.User{UserID: id, APIKeys: keys[id], Authenticators: auths[id]}
		if rec, err := s.user(ctx, tx, id); err == nil {
			u.UserName = rec.name // for the failure message only
		}
		members = append(members, u)
	}
	return members, !originsSet, nil
}

// strandsRootMember reports whether the activity is a delete_api_keys that
// would leave a root member with no credential that can sign at now: the
// own-credentials permission does not apply to it (policy.Input).
func (s *Server) strandsRootMember(ctx context.Context, q querier, o *org, a *activity, now time.Time) (bool, error) {
	_, params := a.Intent.Params()
	p, ok := params.(*api.DeleteAPIKeysParams)
	if !ok || p == nil || !o.isRoot(p.UserID) {
		return false, nil
	}
	members, passkeysSign, err := s.rootCredentials(ctx, q, o, false)
	if err != nil {
		return false, fmt.Errorf("whose keys a deletion strands: %w", err)
	}
	loss := api.KeyDeletionLoss(members, api.Quorum{Threshold: o.Threshold, UserIDs: o.RootIDs}, now, p.UserID, p.APIKeyIDs, passkeysSign)
	return loss.Stranded != "", nil
}

// webauthnOriginsSet reports whether the organization has
// FEATURE_NAME_WEBAUTHN_ORIGINS set, to any value (one with no usable origin
// allows no passkey at all).
func webauthnOriginsSet(ctx context.Context, q querier, orgID string) (bool, error) {
	var n int
	if err := q.QueryRowContext(ctx, `SELECT COUNT(*) FROM features WHERE org_id = ? AND name = ?`, orgID, api.FeatureWebauthnOrigins).Scan(&n); err != nil {
		return false, fmt.Errorf("read %s: %w", api.FeatureWebauthnOrigins, err)
	}
	return n > 0, nil
}

// refuseOriginsLockout fails a set_organization_feature of
// FEATURE_NAME_WEBAUTHN_ORIGINS that would leave root members who can sign
// only with a passkey unable to sign (rootCredentials: once the origins are
// set, no passkey is counted) and fewer root members able to sign than the
// threshold. As with key deletions, a change that strands nobody goes
// through: an organization already short is not made worse, and a quorum
// that set a wrong value can set a right one.
func (s *Server) refuseOriginsLockout(ctx context.Context, tx *txn, orgID string, now time.Time) error {
	o, err := loadOrg(ctx, tx, orgID)
	if err != nil {
		return err
	}
	before, _, err := s.rootCredentials(ctx, tx, o, false)
	if err != nil {
		return err
	}
	after, _, err := s.rootCredentials(ctx, tx, o, true)
	if err != nil {
		return err
	}
	var stranded []string
	able := 0
	seen := map[string]bool{}
	for i, m := range after {
		if seen[m.UserID] {
			continue
		}
		seen[m.UserID] = true
		switch {
		case m.CanSign(now):
			able++
		case before[i].CanSign(now):
			stranded = append(stranded, api.NameWithID(m.UserName, m.UserID))
		}
	}
	if len(stranded) == 0 || able >= o.Threshold {
		return nil
	}
	return &execFailure{code: api.CodeFailedPrecondition, msg: fmt.Sprintf("setting %s would leave root quorum members %s able to sign only with a passkey, "+
		"which the service cannot show signs at an allowed origin (it does not record a passkey's origin), "+
		"so only %d of the %d root members could sign, fewer than the threshold of %d, and no activity that needs the root quorum could ever complete again; "+
		"first give these members an API key (an oauth activity gives a linked user a new API key), then set the origins",
		api.FeatureWebauthnOrigins, strings.Join(stranded, ", "), able, len(seen), o.Threshold)}
}
