package server

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/keys"
	"github.com/vigil-console/vigil/policy"
)

// activity is an activity as stored, with its votes in the order they were cast.
type activity struct {
	Seq         int64
	ID          string
	OrgID       string
	Type        string
	Status      string
	Fingerprint string
	RequesterID string
	Body        []byte
	Intent      api.Intent
	Result      api.Result
	Failure     *api.Failure
	AppProofs   bool           // submitted with generateAppProofs
	Proofs      []api.AppProof // signed on completion when AppProofs
	Created     time.Time
	Updated     time.Time
	Votes       []voteRow
	// stored is how many bytes its row held (body, intent, result,
	// failure): what decoding it keeps in memory, roughly.
	stored int
}

type voteRow struct {
	Vote            api.Vote
	BodyFingerprint string
	created         time.Time
	// cast is the credential that cast the vote (its id, type and passkey
	// credential id): what policies see, which the vote record does not show.
	cast policy.Credential
	// evaluated is the instant the policies saw for the evaluation this vote
	// caused, when it is not the vote's time (castVote's clamp); zero: it is.
	evaluated time.Time
}

// currentVotes keeps the votes that still count at now (api.LastRound: votes
// come in rounds of api.ApprovalLifetime, DESIGN.md §4). An activity still
// waiting for consensus whose round ended before now has no votes that
// count. Votes of a finished activity are those of the round that decided
// it.
func currentVotes(votes []voteRow, now time.Time, waiting bool) []voteRow {
	if len(votes) == 0 {
		return votes
	}
	start := api.LastRound(votes, func(v voteRow) time.Time { return v.created })
	if waiting && api.RoundEnded(votes[start].created, now) {
		return nil
	}
	return votes[start:]
}

// fingerprintOf is the activity fingerprint: the SHA-256 of the exact body.
func fingerprintOf(body []byte) string {
	sum := sha256.Sum256(body)
	return "sha256:" + hex.EncodeToString(sum[:])
}

func (a *activity) voteBy(userID string) (voteRow, bool) {
	for _, v := range a.Votes {
		if v.Vote.UserID == userID {
			return v, true
		}
	}
	return voteRow{}, false
}

// otherVoterWithKey is the user who, in the round a.Votes holds, voted with
// the key pair that signed c's request, when that user is not c's: one
// private key is one vote, even where an earlier vigil let it be two users'
// credential (migrations 20 and 21 removed one, but not its votes).
func (a *activity) otherVoterWithKey(c *caller) (string, bool) {
	if c.PublicKey == "" {
		return "", false
	}
	key := keys.SigningKeyOf(c.Scheme, c.PublicKey)
	for _, v := range a.Votes {
		if v.Vote.UserID != c.UserID && v.Vote.PublicKey != "" && keys.SigningKeyOf(v.Vote.Scheme, v.Vote.PublicKey) == key {
			return v.Vote.UserID, true
		}
	}
	return "", false
}

const activityColumns = `seq, id, org_id, type, status, fingerprint, requester_id, body, intent, result, failure, generate_app_proofs, created_ns, updated_ns`

func scanActivity(row interface{ Scan(...any) error }) (*activity, error) {
	var a activity
	var intent, result, failure string
	var created, updated int64
	var proofs int
	if err := row.Scan(&a.Seq, &a.ID, &a.OrgID, &a.Type, &a.Status, &a.Fingerprint, &a.RequesterID, &a.Body,
		&intent, &result, &failure, &proofs, &created, &updated); err != nil {
		return nil, err
	}
	if err := json.Unmarshal([]byte(intent), &a.Intent); err != nil {
		return nil, fmt.Errorf("activity %s: stored intent: %w", a.ID, err)
	}
	if err := json.Unmarshal([]byte(result), &a.Result); err != nil {
		return nil, fmt.Errorf("activity %s: stored result: %w", a.ID, err)
	}
	if failure != "" {
		a.Failure = &api.Failure{}
		if err := json.Unmarshal([]byte(failure), a.Failure); err != nil {
			return nil, fmt.Errorf("activity %s: stored failure: %w", a.ID, err)
		}
	}
	a.AppProofs = proofs != 0
	a.Created, a.Updated = time.Unix(0, created).UTC(), time.Unix(0, updated).UTC()
	a.stored = len(a.Body) + len(intent) + len(result) + len(failure)
	return &a, nil
}

// loadActivity finds an activity by id or fingerprint within an organization,
// with the votes that count at now; it returns (nil, nil) when there is none.
func loadActivity(ctx context.Context, q querier, now time.Time, orgID, column, value string) (*activity, error) {
	var row *sql.Row
	if column == "fingerprint" {
		// activities_fingerprint (migration 9) indexes 8 bytes of the hash.
		row = q.QueryRowContext(ctx, `SELECT `+activityColumns+` FROM activities
			WHERE substr(fingerprint, 8, 16) = substr(?, 8, 16) AND fingerprint = ? AND org_id = ?`, value, value, orgID)
	} else {
		row = q.QueryRowContext(ctx, `SELECT `+activityColumns+` FROM activities WHERE org_id = ? AND `+column+` = ?`, orgID, value)
	}
	a, err := scanActivity(row)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("load activity: %w", err)
	}
	if err := loadVotes(ctx, q, a, now); err != nil {
		return nil, err
	}
	if err := loadActivityAppProofs(ctx, q, a); err != nil {
		return nil, err
	}
	return a, nil
}

// loadSubmitted is loadActivity by fingerprint for a submission, which is
// almost always new: it looks for the fingerprint with a one-column query
// first (a row of every activity column costs the driver a name and a type
// per column even when nothing matches).
func loadSubmitted(ctx context.Context, q querier, now time.Time, orgID, fingerprint string) (*activity, error) {
	var seq int64
	err := q.QueryRowContext(ctx, `SELECT seq FROM activities
		WHERE substr(fingerprint, 8, 16) = substr(?, 8, 16) AND fingerprint = ? AND org_id = ?`, fingerprint, fingerprint, orgID).Scan(&seq)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("look for activity %s: %w", fingerprint, err)
	}
	return loadActivity(ctx, q, now, orgID, "fingerprint", fingerprint)
}

// loadActivityAppProofs loads the app proofs of an activity submitted with
// generateAppProofs (they exist once it completed).
func loadActivityAppProofs(ctx context.Context, q querier, a *activity) error {
	a.Proofs = nil
	if !a.AppProofs || a.Status != api.StatusCompleted {
		return nil
	}
	var err error
	a.Proofs, err = loadAppProofs(ctx, q, a.ID)
	return err
}

// loadAppProofs loads the app proofs signed for an activity, in order.
func loadAppProofs(ctx context.Context, q querier, activityID string) ([]api.AppProof, error) {
	rows, err := q.QueryContext(ctx, `SELECT proof FROM app_proofs WHERE activity_id = ? ORDER BY seq`, activityID)
	if err != nil {
		return nil, fmt.Errorf("load app proofs of %s: %w", activityID, err)
	}
	defer rows.Close()
	var out []api.AppProof
	for rows.Next() {
		var raw string
		var p api.AppProof
		if err := rows.Scan(&raw); err != nil {
			return nil, fmt.Errorf("load app proofs of %s: %w", activityID, err)
		}
		if err := json.Unmarshal([]byte(raw), &p); err != nil {
			return nil, fmt.Errorf("app proof of %s: %w", activityID, err)
		}
		out = append(out, p)
	}
	return out, rows.Err()
}

// loadVotes loads the activity's votes that count at now (currentVotes).
func loadVotes(ctx context.Context, q querier, a *activity, now time.Time) error {
	if err := loadVotesOf(ctx, q, []*activity{a}); err != nil {
		return err
	}
	a.Votes = currentVotes(a.Votes, now, a.Status == api.StatusConsensusNeeded)
	return nil
}

// loadVotesOf loads the votes of several activities in one statement (a list
// page would otherwise run one per activity), each activity's in the order
// they were cast: every vote, of every round (currentVotes picks those
// that count).
func loadVotesOf(ctx context.Context, q querier, acts []*activity) error {
	if len(acts) == 0 {
		return nil
	}
	byID := make(map[string]*activity, len(acts))
	args := make([]any, 0, len(acts))
	for _, a := range acts {
		a.Votes = a.Votes[:0]
		if _, dup := byID[a.ID]; !dup {
			byID[a.ID] = a
			args = append(args, a.ID)
		}
	}
	rows, err := q.QueryContext(ctx, `SELECT v.activity_id, v.seq, v.id, v.user_id, v.selection, v.message, v.public_key, v.signature, v.scheme,
		v.body_fingerprint, v.created_ns, v.credential_id, v.credential_type, v.passkey_credential_id, COALESCE(u.name, ''), COALESCE(u.email, ''), COALESCE(u.created_ns, 0), COALESCE(u.updated_ns, 0)
		FROM votes v LEFT JOIN users u ON u.id = v.user_id WHERE v.activity_id IN (?`+strings.Repeat(", ?", len(args)-1)+`)`, args...)
	if err != nil {
		return fmt.Errorf("load votes of %s: %w", acts[0].ID, err)
	}
	defer rows.Close()
	seqs := map[string][]int64{}
	for rows.Next() {
		var v voteRow
		var actID string
		var seq, created, userCreated, userUpdated int64
		if err := rows.Scan(&actID, &seq, &v.Vote.ID, &v.Vote.UserID, &v.Vote.Selection, &v.Vote.Message, &v.Vote.PublicKey,
			&v.Vote.Signature, &v.Vote.Scheme, &v.BodyFingerprint, &created, &v.cast.ID, &v.cast.Type, &v.cast.CredentialID, &v.Vote.User.UserName, &v.Vote.User.UserEmail,
			&userCreated, &userUpdated); err != nil {
			return fmt.Errorf("load votes of %s: %w", actID, err)
		}
		a := byID[actID]
		if a == nil {
			continue
		}
		v.Vote.ActivityID = a.ID
		v.Vote.User.UserID = v.Vote.UserID
		v.Vote.User.APIKeys = []api.APIKey{}
		v.Vote.User.Authenticators = []api.Authenticator{}
		v.Vote.User.UserTags = []string{}
		v.created = time.Unix(0, created)
		v.Vote.CreatedAt = api.NewTime(v.created)
		v.Vote.User.CreatedAt, v.Vote.User.UpdatedAt = api.NewTime(time.Unix(0, userCreated)), api.NewTime(time.Unix(0, userUpdated))
		a.Votes = append(a.Votes, v)
		seqs[actID] = append(seqs[actID], seq)
	}
	if err := rows.Err(); err != nil {
		return err
	}
	// The index yields each activity's votes by seq already; sorting keeps
	// that promise whatever plan SQLite picks.
	for id, a := range byID {
		s := seqs[id]
		sort.Sort(votesBySeq{a.Votes, s})
	}
	for _, a := range acts {
		if b := byID[a.ID]; b != a {
			a.Votes = append(a.Votes[:0], b.Votes...) // the same activity twice in acts
		}
	}
	return nil
}

type votesBySeq struct {
	v   []voteRow
	seq []int64
}

func (s votesBySeq) Len() int           { return len(s.v) }
func (s votesBySeq) Less(i, j int) bool { return s.seq[i] < s.seq[j] }
func (s votesBySeq) Swap(i, j int) {
	s.v[i], s.v[j] = s.v[j], s.v[i]
	s.seq[i], s.seq[j] = s.seq[j], s.seq[i]
}

// insertActivity stores a new activity as it stands, its outcome included:
// a submission the policies decide at once is written once, never inserted
// and then updated.
func insertActivity(ctx context.Context, q querier, a *activity) error {
	intent, err := json.Marshal(a.Intent)
	if err != nil {
		return err
	}
	result, failure, err := outcomeJSON(a)
	if err != nil {
		return err
	}
	res, err := q.ExecContext(ctx, `INSERT INTO activities(id, org_id, type, status, fingerprint, requester_id, body, intent, result, failure, generate_app_proofs, created_ns, updated_ns)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		a.ID, a.OrgID, a.Type, a.Status, a.Fingerprint, a.RequesterID, a.Body, string(intent), result, failure, boolInt(a.AppProofs),
		a.Created.UnixNano(), a.Updated.UnixNano())
	if err != nil {
		return fmt.Errorf("insert activity: %w", err)
	}
	a.Seq, _ = res.LastInsertId()
	return nil
}

// outcomeJSON is an activity's result and failure as stored; it refuses a
// status no list would show.
func outcomeJSON(a *activity) (result, failure string, err error) {
	if err := checkStatus(a.Status); err != nil {
		return "", "", err
	}
	b, err := json.Marshal(a.Result)
	if err != nil {
		return "", "", err
	}
	if a.Failure != nil {
		f, err := json.Marshal(a.Failure)
		if err != nil {
			return "", "", err
		}
		failure = string(f)
	}
	return string(b), failure, nil
}

func updateActivity(ctx context.Context, q querier, a *activity) error {
	result, failure, err := outcomeJSON(a)
	if err != nil {
		return err
	}
	if _, err := q.ExecContext(ctx, `UPDATE activities SET status = ?, result = ?, failure = ?, updated_ns = ? WHERE id = ?`,
		a.Status, result, failure, a.Updated.UnixNano(), a.ID); err != nil {
		return fmt.Errorf("update activity %s: %w", a.ID, err)
	}
	return nil
}

// insertVote records a vote with the policy evaluation it caused.
func insertVote(ctx context.Context, q querier, a *activity, v voteRow, outcomes []api.PolicyOutcome) error {
	if outcomes == nil {
		outcomes = []api.PolicyOutcome{}
	}
	b, err := json.Marshal(outcomes)
	if err != nil {
		return err
	}
	var evaluated int64
	if !v.evaluated.IsZero() {
		evaluated = v.evaluated.UnixNano()
	}
	_, err = q.ExecContext(ctx, `INSERT INTO votes(id, activity_id, user_id, selection, message, public_key, signature, scheme, body_fingerprint, created_ns, evaluation_id, outcomes,
		credential_id, credential_type, passkey_credential_id, evaluated_ns)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, v.Vote.ID, a.ID, v.Vote.UserID, v.Vote.Selection, v.Vote.Message,
		v.Vote.PublicKey, v.Vote.Signature, v.Vote.Scheme, v.BodyFingerprint, v.Vote.CreatedAt.Time().UnixNano(),
		newHistoryID(v.Vote.CreatedAt.Time()), string(b), v.cast.ID, v.cast.Type, v.cast.CredentialID, evaluated)
	if err != nil {
		return fmt.Errorf("record vote: %w", err)
	}
	return nil
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// toAPI renders the activity for viewerID: canApprove/canReject are true only
// while it waits for consensus and the viewer may vote and has not voted yet.
func (a *activity) toAPI(viewerID string, viewerMayVote bool) api.Activity {
	out := api.Activity{
		ID: a.ID, OrganizationID: a.OrgID, Status: a.Status, Type: a.Type,
		TimestampMs: strconv.FormatInt(a.Created.UnixMilli(), 10), Intent: a.Intent, Result: a.Result, Fingerprint: a.Fingerprint, Failure: a.Failure,
		CreatedAt: api.NewTime(a.Created), UpdatedAt: api.NewTime(a.Updated),
		Votes: a.votesShown(), AppProofs: a.Proofs,
	}
	out.CanApprove = a.viewerMayApprove(viewerID, viewerMayVote)
	out.CanReject = out.CanApprove
	return out
}

// viewerMayApprove is the activity's canApprove (and canReject) for the
// viewer: pending, a member the policies let vote, who has not voted yet.
func (a *activity) viewerMayApprove(viewerID string, viewerMayVote bool) bool {
	if a.Status != api.StatusConsensusNeeded || viewerID == "" || !viewerMayVote {
		return false
	}
	_, voted := a.voteBy(viewerID)
	return !voted
}
