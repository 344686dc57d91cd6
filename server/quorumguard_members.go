package server

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/vigil-console/vigil/api"
)

// refuseUnsignableRoots fails the creation of root members (ids) who could
// not sign by the quorum guard's rule (rootCredentials): a root member who
// cannot vote is counted by the threshold's check at creation yet can never
// help to meet it, and once FEATURE_NAME_WEBAUTHN_ORIGINS is set a member who
// holds only passkeys is such a member. It reads the organization as the
// transaction leaves it, so features set in the same transaction count.
func (s *Server) refuseUnsignableRoots(ctx context.Context, tx *txn, orgID string, ids []string, now time.Time) error {
	if len(ids) == 0 {
		return nil
	}
	o, err := loadOrg(ctx, tx, orgID)
	if err != nil {
		return err
	}
	members, passkeysSign, err := s.rootCredentials(ctx, tx, o, false)
	if err != nil {
		return err
	}
	for _, m := range members {
		if !slices.Contains(ids, m.UserID) || m.CanSign(now) {
			continue
		}
		name := api.NameWithID(m.UserName, m.UserID)
		if !passkeysSign && s.holdsAuthenticator(ctx, tx, orgID, m.UserID) {
			return fmt.Errorf("add %s to the root quorum: user %s signs only with passkeys, which do not count while %s is set "+
				"(the service does not record the origin a passkey was registered at, so it cannot show one signs at an allowed origin), "+
				"so %s could never help to meet the root quorum's threshold: give %s an API key first, or add them outside the root quorum",
				name, name, api.FeatureWebauthnOrigins, name, name)
		}
		return fmt.Errorf("add %s to the root quorum: user %s has no credential that can sign, "+
			"so %s could never help to meet the root quorum's threshold: give %s an API key or a passkey, or add them outside the root quorum",
			name, name, name, name)
	}
	return nil
}

// holdsAuthenticator reports whether the user has a passkey registered; an
// error reading it counts as none (it only picks the refusal's wording).
func (s *Server) holdsAuthenticator(ctx context.Context, q querier, orgID, userID string) bool {
	var n int
	err := q.QueryRowContext(ctx, `SELECT COUNT(*) FROM authenticators WHERE org_id = ? AND user_id = ?`, orgID, userID).Scan(&n)
	return err == nil && n > 0
}
