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
	members, err := s.rootCredentials(ctx, tx, o)
	if err != nil {
		return err
	}
	loss := api.KeyDeletionLoss(members, api.Quorum{Threshold: o.Threshold, UserIDs: o.RootIDs}, now, userID, keyIDs)
	if loss.LocksOut() {
		// Not failf: its cut of long arguments would cut the message itself;
		// the only text from the store in it is a user name, escaped.
		return &execFailure{code: api.CodeFailedPrecondition, msg: loss.Problem()}
	}
	return nil
}

// rootCredentials are the root members with their API keys and authenticators
// (ids only: whether a member holds one is what counts).
func (s *Server) rootCredentials(ctx context.Context, tx querier, o *org) ([]api.User, error) {
	if len(o.RootIDs) == 0 {
		return nil, nil
	}
	marks := strings.Repeat(",?", len(o.RootIDs))[1:]
	args := []any{o.ID}
	for _, id := range o.RootIDs {
		args = append(args, id)
	}
	keys, err := loadAPIKeys(ctx, tx, `org_id = ? AND user_id IN (`+marks+`)`, args...)
	if err != nil {
		return nil, err
	}
	rows, err := tx.QueryContext(ctx, `SELECT id, user_id FROM authenticators WHERE org_id = ? AND user_id IN (`+marks+`)`, args...)
	if err != nil {
		return nil, fmt.Errorf("load root authenticators: %w", err)
	}
	defer rows.Close()
	auths := map[string][]api.Authenticator{}
	for rows.Next() {
		var id, user string
		if err := rows.Scan(&id, &user); err != nil {
			return nil, err
		}
		auths[user] = append(auths[user], api.Authenticator{AuthenticatorID: id})
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	members := make([]api.User, 0, len(o.RootIDs))
	for _, id := range o.RootIDs {
		u := api.User{UserID: id, APIKeys: keys[id], Authenticators: auths[id]}
		if rec, err := s.user(ctx, tx, id); err == nil {
			u.UserName = rec.name // for the failure message only
		}
		members = append(members, u)
	}
	return members, nil
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
	members, err := s.rootCredentials(ctx, q, o)
	if err != nil {
		return false, fmt.Errorf("whose keys a deletion strands: %w", err)
	}
	loss := api.KeyDeletionLoss(members, api.Quorum{Threshold: o.Threshold, UserIDs: o.RootIDs}, now, p.UserID, p.APIKeyIDs)
	return loss.Stranded != "", nil
}
