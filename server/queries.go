package server

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/vigil-console/vigil/api"
)

type queryFunc func(s *Server, ctx context.Context, c *caller, body api.StrictBody) (any, error)

// queryHandlers serves every query operation (api.QueryOperations()), and
// list_mfa_policies, an earlier name of get_mfa_policies kept for old scripts.
var queryHandlers = map[string]queryFunc{
	api.QueryGetAPIKey:                  (*Server).queryGetAPIKey,
	api.QueryGetLatestBootProof:         (*Server).queryGetLatestBootProof,
	api.QueryGetBootProof:               (*Server).queryGetBootProof,
	api.QueryGetPolicyEvaluations:       (*Server).queryGetPolicyEvaluations,
	api.QueryListAppProofs:              (*Server).queryListAppProofs,
	api.QueryGetOnrampTransactionStatus: (*Server).queryGetOnrampTransactionStatus,
	api.QueryListActivities:             (*Server).queryListActivities,
	api.QueryGetActivity:                (*Server).queryGetActivity,
	api.QueryListPolicies:               (*Server).queryListPolicies,
	api.QueryGetPolicy:                  (*Server).queryGetPolicy,
	api.QueryListMfaPolicies:            (*Server).queryListMfaPolicies,
	api.QueryGetMfaPolicies:             (*Server).queryGetMfaPolicies,
	api.QueryGetMfaPolicy:               (*Server).queryGetMfaPolicy,
	api.QueryGetMfaStatus:               (*Server).queryGetMfaStatus,
	api.QueryWhoami:                     (*Server).queryWhoami,
	api.QueryGetOrganizationConfigs:     (*Server).queryGetOrganizationConfigs,
	api.QueryListUsers:                  (*Server).queryListUsers,
	api.QueryGetUser:                    (*Server).queryGetUser,
}

// decodeQuery decodes a query body, checked once by peekEnvelope, strictly:
// unknown fields are refused.
func decodeQuery(body api.StrictBody, v any) error {
	if err := body.Unmarshal(v); err != nil {
		return bodyError(err)
	}
	return nil
}

func requireField(name, value string) error {
	if value == "" {
		return invalidf("MISSING_FIELD", "%s is required", name)
	}
	return nil
}

func (s *Server) queryGetAPIKey(ctx context.Context, c *caller, body api.StrictBody) (any, error) {
	var req api.GetAPIKeyRequest
	if err := decodeQuery(body, &req); err != nil {
		return nil, err
	}
	if err := requireField("apiKeyId", req.APIKeyID); err != nil {
		return nil, err
	}
	keys, err := loadAPIKeys(ctx, s.db.read, `org_id = ? AND id = ?`, c.OrgID, req.APIKeyID)
	if err != nil {
		return nil, err
	}
	if len(keys[""]) == 0 {
		return nil, notFoundf("API_KEY_NOT_FOUND", "API key %q not found in organization %q", req.APIKeyID, c.OrgID)
	}
	return api.GetAPIKeyResponse{APIKey: keys[""][0]}, nil
}

// loadAPIKeys loads keys matching where, grouped by user id, and all under "".
func loadAPIKeys(ctx context.Context, q querier, where string, args ...any) (map[string][]api.APIKey, error) {
	rows, err := q.QueryContext(ctx, `SELECT id, user_id, name, public_key, credential_type, session_profile_id, expiration_seconds, created_ns, updated_ns
		FROM api_keys WHERE `+where+` ORDER BY created_ns, id`, args...)
	if err != nil {
		return nil, fmt.Errorf("load API keys: %w", err)
	}
	defer rows.Close()
	out := map[string][]api.APIKey{}
	for rows.Next() {
		user, k, err := scanAPIKey(rows)
		if err != nil {
			return nil, err
		}
		out[user] = append(out[user], k)
		out[""] = append(out[""], k)
	}
	return out, rows.Err()
}

// scanAPIKey reads a row of loadAPIKeys' columns: the key and its user's id.
func scanAPIKey(rows *sql.Rows) (string, api.APIKey, error) {
	var k api.APIKey
	var user string
	var exp, created, updated int64
	if err := rows.Scan(&k.APIKeyID, &user, &k.APIKeyName, &k.Credential.PublicKey, &k.Credential.Type, &k.Credential.SessionProfileID, &exp, &created, &updated); err != nil {
		return "", k, err
	}
	if exp > 0 {
		k.ExpirationSeconds = strconv.FormatInt(exp, 10)
	}
	k.CreatedAt, k.UpdatedAt = api.NewTime(time.Unix(0, created)), api.NewTime(time.Unix(0, updated))
	return user, k, nil
}

func (s *Server) queryGetPolicyEvaluations(ctx context.Context, c *caller, body api.StrictBody) (any, error) {
	var req api.GetPolicyEvaluationsRequest
	if err := decodeQuery(body, &req); err != nil {
		return nil, err
	}
	if err := requireField("activityId", req.ActivityID); err != nil {
		return nil, err
	}
	if err := s.activityExists(ctx, c.OrgID, req.ActivityID); err != nil {
		return nil, err
	}
	rows, err := s.db.read.QueryContext(ctx, `SELECT evaluation_id, id, outcomes, CASE WHEN evaluated_ns != 0 THEN evaluated_ns ELSE created_ns END FROM votes WHERE activity_id = ? AND evaluation_id != '' ORDER BY seq`, req.ActivityID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := api.GetPolicyEvaluationsResponse{PolicyEvaluations: []api.PolicyEvaluation{}}
	for rows.Next() {
		e := api.PolicyEvaluation{ActivityID: req.ActivityID, OrganizationID: c.OrgID}
		var outcomes string
		var created int64
		if err := rows.Scan(&e.ID, &e.VoteID, &outcomes, &created); err != nil {
			return nil, err
		}
		if err := json.Unmarshal([]byte(outcomes), &e.PolicyEvaluations); err != nil {
			return nil, err
		}
		e.CreatedAt = api.NewTime(time.Unix(0, created))
		out.PolicyEvaluations = append(out.PolicyEvaluations, e)
	}
	return out, rows.Err()
}

func (s *Server) activityExists(ctx context.Context, orgID, id string) error {
	var one int
	err := s.db.read.QueryRowContext(ctx, `SELECT 1 FROM activities WHERE id = ? AND org_id = ?`, id, orgID).Scan(&one)
	if errors.Is(err, sql.ErrNoRows) {
		return notFoundf("ACTIVITY_NOT_FOUND", "activity %q not found in organization %q", id, orgID)
	}
	return err
}

func (s *Server) queryListAppProofs(ctx context.Context, c *caller, body api.StrictBody) (any, error) {
	var req api.ListAppProofsRequest
	if err := decodeQuery(body, &req); err != nil {
		return nil, err
	}
	if err := requireField("activityId", req.ActivityID); err != nil {
		return nil, err
	}
	if err := s.activityExists(ctx, c.OrgID, req.ActivityID); err != nil {
		return nil, err
	}
	proofs, err := loadAppProofs(ctx, s.db.read, req.ActivityID)
	if err != nil {
		return nil, err
	}
	if proofs == nil {
		proofs = []api.AppProof{}
	}
	return api.ListAppProofsResponse{AppProofs: proofs}, nil
}

// isActivityTypeName reports a value shaped like an activity type:
// ACTIVITY_TYPE_ then upper-case ASCII letters, digits and underscores.
func isActivityTypeName(s string) bool {
	rest, ok := strings.CutPrefix(s, "ACTIVITY_TYPE_")
	if !ok || rest == "" {
		return false
	}
	for i := 0; i < len(rest); i++ {
		if c := rest[i]; !('A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_') {
			return false
		}
	}
	return true
}

func (s *Server) queryListActivities(ctx context.Context, c *caller, body api.StrictBody) (any, error) {
	var req api.ListActivitiesRequest
	if err := decodeQuery(body, &req); err != nil {
		return nil, err
	}
	list := activityListing{orgID: c.OrgID, statuses: req.FilterByStatus, types: req.FilterByType, limit: 10}
	for i, st := range req.FilterByStatus {
		if !slices.Contains(api.ActivityStatuses(), st) {
			return nil, invalidf("INVALID_FIELD", "filterByStatus[%d]: %q is not an activity status; use one of %s", i, st, strings.Join(api.ActivityStatuses(), ", "))
		}
	}
	// The real service has about 150 activity types; a script written for
	// it may filter by any of them. A type this service never holds matches
	// nothing, so it is left out of the filter; a filter of only such types
	// is an empty page (answered below, once the rest is checked).
	list.types = nil
	for i, t := range req.FilterByType {
		if !isActivityTypeName(t) {
			return nil, invalidf("INVALID_FIELD", "filterByType[%d]: %q is not shaped like an activity type: send ACTIVITY_TYPE_ followed by upper-case letters, digits and underscores (e.g. %s)", i, t, api.TypeCreatePolicyV3)
		}
		if _, ok := api.OperationByType(t); ok {
			list.types = append(list.types, t)
		}
	}
	matchesNone := len(req.FilterByType) > 0 && len(list.types) == 0
	var after, before string
	if p := req.PaginationOptions; p != nil {
		if p.Limit != "" {
			n, err := api.ParseDecimal(p.Limit)
			if err != nil || n < 1 || n > 100 {
				return nil, invalidf("INVALID_FIELD", "paginationOptions.limit %q must be a whole number from 1 to 100, as a string", p.Limit)
			}
			list.limit = int(n)
		}
		if p.Before != "" && p.After != "" {
			return nil, invalidf("INVALID_FIELD", "paginationOptions: set before or after, not both")
		}
		after, before = p.After, p.Before
	}
	// The page, its rows and their votes are read in one snapshot: a vote
	// committing meanwhile must not show a row the filter picked as
	// CONSENSUS_NEEDED as COMPLETED, or a pending row with the votes that
	// completed it.
	var encoded [][]byte
	err := s.inSnapshot(ctx, func(q querier) error {
		list := list
		// The list is newest first: after X is the page of older activities
		// following X; before X is the page of newer ones preceding it.
		for _, cur := range []struct{ id, op string }{{after, "<"}, {before, ">"}} {
			if cur.id == "" {
				continue
			}
			var seq int64
			err := q.QueryRowContext(ctx, `SELECT seq FROM activities WHERE id = ? AND org_id = ?`, cur.id, c.OrgID).Scan(&seq)
			if errors.Is(err, sql.ErrNoRows) {
				return invalidf("INVALID_FIELD", "paginationOptions: cursor %q is not an activity of this organization", cur.id)
			}
			if err != nil {
				return err
			}
			list.cursorOp, list.cursor = cur.op, seq
		}
		if matchesNone {
			encoded = nil
			return nil
		}
		versions, err := s.listVersions(ctx, q, list)
		if err != nil {
			return err
		}
		encoded, err = s.encodePage(ctx, q, c, versions)
		return err
	})
	if err != nil {
		return nil, err
	}
	if before != "" {
		// Read from the cursor on, so a page cut short keeps the
		// activities next to it; shown newest first.
		slices.Reverse(encoded)
	}
	page := newActivitiesPage(encoded)
	for _, b := range encoded {
		page.add(b)
	}
	return page.reply(), nil
}

const (
	// maxListReplyBytes bounds a list_activities reply: every listed
	// activity repeats its intent, which may hold a 400 kB interface (twice
	// that encoded), so a page of 100 could be 100 MB, held whole for each
	// such request. A page that would be larger ends early (never before its
	// first activity); the client pages on from its last. Ordinary pages are
	// a few hundred kilobytes.
	maxListReplyBytes = 8 << 20
	// listPiece is how many activities of a page are read and encoded at a
	// time, so that a page of large ones is not all decoded at once.
	listPiece = 25
)

// encodePage encodes the activities of versions, in order, listPiece at a
// time, stopping before one that would take the reply past
// s.listReplyBytes (maxListReplyBytes, or Config.MaxListReplyBytes).
func (s *Server) encodePage(ctx context.Context, q querier, c *caller, versions []activityVersion) ([][]byte, error) {
	out := make([][]byte, 0, len(versions))
	size := 0
	for start := 0; start < len(versions); start += listPiece {
		acts, err := s.activitiesAt(ctx, q, versions[start:min(start+listPiece, len(versions))])
		if err != nil {
			return nil, err
		}
		encoded, err := s.encodeActivities(ctx, q, c, acts)
		if err != nil {
			return nil, err
		}
		for _, b := range encoded {
			if len(out) > 0 && size+len(b) > s.listReplyBytes {
				return out, nil
			}
			out = append(out, b)
			size += len(b) + 1 // and its comma
		}
	}
	return out, nil
}

// encodeActivities is the JSON of each of acts (from activitiesAt) as the
// caller sees it, with their votes loaded through the cache, all read in q
// (the snapshot the activities were read in).
func (s *Server) encodeActivities(ctx context.Context, q querier, c *caller, acts []*activity) ([][]byte, error) {
	if err := s.loadVotesCached(ctx, q, acts); err != nil {
		return nil, err
	}
	o, err := s.org(ctx, q, c.OrgID)
	if err != nil {
		return nil, err
	}
	vs := s.voters(q, o, s.now())
	out := make([][]byte, 0, len(acts))
	for _, a := range acts {
		b, err := s.encodeActivity(ctx, q, c, vs, a)
		if err != nil {
			return nil, err
		}
		out = append(out, b)
	}
	return out, nil
}

// encodeActivity is a's JSON as the caller sees it (the votes that count now,
// canApprove), from the cache of encodings when it has one (listreply.go).
func (s *Server) encodeActivity(ctx context.Context, q querier, c *caller, vs *voters, a *activity) ([]byte, error) {
	// The cache holds every vote; those that count depend on the clock.
	a.Votes = currentVotes(a.Votes, vs.now, a.Status == api.StatusConsensusNeeded)
	may := false
	if a.Status == api.StatusConsensusNeeded {
		var err error
		if may, err = vs.mayVote(ctx, a, c.UserID); err != nil {
			return nil, err
		}
	}
	// The API record is built only when the cache has no encoding.
	return encodedActivity(s.db.cache, q, a, a.viewerMayApprove(c.UserID, may), func() (api.Activity, error) {
		out := a.toAPI(c.UserID, may)
		err := loadActivityAppProofs(ctx, q, a)
		out.AppProofs = a.Proofs
		return out, err
	})
}

// queriedActivity loads the activity a query names (activityId, required) in
// the caller's organization, with the votes that count now. The row, its
// votes and its proofs come from one snapshot: a vote committed meanwhile
// is not shown with a row read before it.
func (s *Server) queriedActivity(ctx context.Context, c *caller, activityID string) (*activity, error) {
	if err := requireField("activityId", activityID); err != nil {
		return nil, err
	}
	now := s.now()
	var a *activity
	err := s.inSnapshot(ctx, func(q querier) error {
		var err error
		a, err = loadActivity(ctx, q, now, c.OrgID, "id", activityID)
		return err
	})
	if err != nil {
		return nil, err
	}
	if a == nil {
		return nil, notFoundf("ACTIVITY_NOT_FOUND", "activity %q not found in organization %q", activityID, c.OrgID)
	}
	return a, nil
}

func (s *Server) queryGetActivity(ctx context.Context, c *caller, body api.StrictBody) (any, error) {
	var req api.GetActivityRequest
	if err := decodeQuery(body, &req); err != nil {
		return nil, err
	}
	if err := requireField("activityId", req.ActivityID); err != nil {
		return nil, err
	}
	// As a list of one: the console polls the activity it shows, and the
	// decoded row, its votes and its JSON come from the list's caches; the
	// row and its votes from one snapshot.
	var encoded [][]byte
	err := s.inSnapshot(ctx, func(q querier) error {
		page, err := s.pageVersions(ctx, q, `SELECT seq, updated_ns, status FROM activities WHERE id = ? AND org_id = ?`, []any{req.ActivityID, c.OrgID}, false)
		if err != nil {
			return err
		}
		acts, err := s.activitiesAt(ctx, q, page) // id is unique: one row or none
		if err != nil {
			return err
		}
		if len(acts) == 0 {
			return notFoundf("ACTIVITY_NOT_FOUND", "activity %q not found in organization %q", req.ActivityID, c.OrgID)
		}
		encoded, err = s.encodeActivities(ctx, q, c, acts)
		return err
	})
	if err != nil {
		return nil, err
	}
	// Byte for byte what api.Marshal(api.ActivityResponse{...}) gives.
	const head = `{"activity":`
	reply := make([]byte, 0, len(head)+len(encoded[0])+1)
	return encodedReply(append(append(append(reply, head...), encoded[0]...), '}')), nil
}

func (s *Server) queryWhoami(ctx context.Context, c *caller, body api.StrictBody) (any, error) {
	var req api.WhoamiRequest
	if err := decodeQuery(body, &req); err != nil {
		return nil, err
	}
	o, err := s.org(ctx, s.db.read, c.OrgID)
	if err != nil {
		return nil, err
	}
	name, err := s.userName(ctx, c.UserID)
	if err != nil {
		return nil, fmt.Errorf("whoami: %w", err)
	}
	return api.WhoamiResponse{OrganizationID: o.ID, OrganizationName: o.Name, UserID: c.UserID, Username: name}, nil
}

func (s *Server) queryGetOrganizationConfigs(ctx context.Context, c *caller, body api.StrictBody) (any, error) {
	var req api.GetOrganizationConfigsRequest
	if err := decodeQuery(body, &req); err != nil {
		return nil, err
	}
	o, err := s.org(ctx, s.db.read, c.OrgID)
	if err != nil {
		return nil, err
	}
	features, err := loadFeatures(ctx, s.db.read, c.OrgID)
	if err != nil {
		return nil, err
	}
	ids := append([]string{}, o.RootIDs...)
	return api.GetOrganizationConfigsResponse{Configs: api.OrganizationConfigs{Features: features,
		Quorum: api.Quorum{Threshold: o.Threshold, UserIDs: ids}}}, nil
}
