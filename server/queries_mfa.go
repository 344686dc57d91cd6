package server

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/keys"
	"github.com/vigil-console/vigil/policy"
)

// queryGetMfaPolicies serves get_mfa_policies: one user's MFA policies, in order.
func (s *Server) queryGetMfaPolicies(ctx context.Context, c *caller, body api.StrictBody) (any, error) {
	return s.mfaPolicies(ctx, c, body, false)
}

// queryListMfaPolicies is vigil's list_mfa_policies, an earlier name of
// get_mfa_policies: the same query, except that userId may be left out to
// list every user's policies.
func (s *Server) queryListMfaPolicies(ctx context.Context, c *caller, body api.StrictBody) (any, error) {
	return s.mfaPolicies(ctx, c, body, true)
}

// mfaPolicies serves both names of the query, so that with a userId they
// answer alike (an unknown user is a 404 under either).
func (s *Server) mfaPolicies(ctx context.Context, c *caller, body api.StrictBody, allUsers bool) (any, error) {
	// The two request types have the same fields; userId is optional only in the alias's.
	var req api.GetMfaPoliciesRequest
	if err := decodeQuery(body, &req); err != nil {
		return nil, err
	}
	if req.UserID == "" && allUsers {
		ps, err := loadMfaPolicies(ctx, s.db.read, `org_id = ?`, c.OrgID)
		if err != nil {
			return nil, err
		}
		return api.ListMfaPoliciesResponse{MfaPolicies: ps}, nil
	}
	if err := requireField("userId", req.UserID); err != nil {
		return nil, err
	}
	if err := userInOrg(ctx, s.db.read, c.OrgID, req.UserID); err != nil {
		if !isNotInOrg(err) { // the database failed
			return nil, err
		}
		return nil, notFoundf("USER_NOT_FOUND", "user %q not found in organization %q", req.UserID, c.OrgID)
	}
	ps, err := loadMfaPolicies(ctx, s.db.read, `org_id = ? AND user_id = ?`, c.OrgID, req.UserID)
	if err != nil {
		return nil, err
	}
	return api.GetMfaPoliciesResponse{MfaPolicies: ps}, nil
}

func (s *Server) queryGetMfaPolicy(ctx context.Context, c *caller, body api.StrictBody) (any, error) {
	var req api.GetMfaPolicyRequest
	if err := decodeQuery(body, &req); err != nil {
		return nil, err
	}
	if err := requireField("userId", req.UserID); err != nil {
		return nil, err
	}
	if err := requireField("mfaPolicyId", req.MfaPolicyID); err != nil {
		return nil, err
	}
	ps, err := loadMfaPolicies(ctx, s.db.read, `org_id = ? AND user_id = ? AND id = ?`, c.OrgID, req.UserID, req.MfaPolicyID)
	if err != nil {
		return nil, err
	}
	if len(ps) == 0 {
		return nil, notFoundf("MFA_POLICY_NOT_FOUND", "MFA policy %q of user %q not found in organization %q", req.MfaPolicyID, req.UserID, c.OrgID)
	}
	return api.GetMfaPolicyResponse{MfaPolicy: ps[0]}, nil
}

// queryGetMfaStatus reports, for each voter of the activity (or the one
// userId names), the first of their MFA policies, in order, whose condition
// holds for the activity, and which of its steps the credential they voted
// with satisfies. A voter none of whose policies applies has no status: MFA
// asks nothing of them for this activity.
func (s *Server) queryGetMfaStatus(ctx context.Context, c *caller, body api.StrictBody) (any, error) {
	var req api.GetMfaStatusRequest
	if err := decodeQuery(body, &req); err != nil {
		return nil, err
	}
	a, err := s.queriedActivity(ctx, c, req.ActivityID)
	if err != nil {
		return nil, err
	}
	if req.UserID != "" {
		if err := userInOrg(ctx, s.db.read, c.OrgID, req.UserID); err != nil {
			if !isNotInOrg(err) { // the database failed
				return nil, err
			}
			return nil, notFoundf("USER_NOT_FOUND", "user %q not found in organization %q", req.UserID, c.OrgID)
		}
	}
	_, params := a.Intent.Params()
	in := policy.Input{Activity: policy.ActivityFor(a.Type, params)}
	out := api.GetMfaStatusResponse{MfaStatuses: []api.MfaStatus{}}
	for _, v := range a.Votes {
		if req.UserID != "" && v.Vote.UserID != req.UserID {
			continue
		}
		ps, err := loadMfaPolicies(ctx, s.db.read, `org_id = ? AND user_id = ?`, c.OrgID, v.Vote.UserID)
		if err != nil {
			return nil, err
		}
		applies := s.applicableMfaPolicy(ps, in)
		if applies == nil {
			continue
		}
		used, err := s.voteMethod(ctx, c.OrgID, v)
		if err != nil {
			return nil, err
		}
		done := satisfiedSteps(applies.RequiredAuthenticationMethods, []api.AuthenticationMethod{used})
		out.MfaStatuses = append(out.MfaStatuses, api.MfaStatus{MfaPolicyID: applies.MfaPolicyID, UserID: v.Vote.UserID,
			Satisfied:        len(applies.RequiredAuthenticationMethods) > 0 && len(done) == len(applies.RequiredAuthenticationMethods),
			SatisfiedMethods: done, RequiredMethods: applies.RequiredAuthenticationMethods})
	}
	return out, nil
}

// applicableMfaPolicy is the first policy, in order, whose condition is true
// for the activity. A condition that does not compile (stored before
// submissions were checked) or fails to evaluate applies, and is logged: the
// MFA it asks for is required rather than silently skipped.
func (s *Server) applicableMfaPolicy(ps []api.MfaPolicy, in policy.Input) *api.MfaPolicy {
	p, err := policy.ApplicableMfaPolicy(ps, in, func(cond string) (*policy.Compiled, error) { return s.compile(cond, "") })
	if err != nil {
		s.log.Warn("MFA policy condition cannot run; it applies", "mfaPolicyId", p.MfaPolicyID, "err", err)
	}
	return p
}

// satisfiedSteps matches the steps in sequence against the methods proved,
// each proof counted once: the result holds, in order, the proof of each step
// satisfied, and stops at the first step none of the remaining proofs meets
// (SPEC: "each step must be satisfied in sequence"). So one credential never
// counts as two factors: a vote proves one method, and satisfies at most the
// first step.
func satisfiedSteps(steps []api.AuthenticationStep, proofs []api.AuthenticationMethod) []api.AuthenticationMethod {
	done := []api.AuthenticationMethod{}
	proofs = slices.Clone(proofs)
	for _, step := range steps {
		i := slices.IndexFunc(proofs, func(p api.AuthenticationMethod) bool { return satisfies(step, p) })
		if i < 0 {
			break
		}
		done = append(done, proofs[i])
		proofs = slices.Delete(proofs, i, i+1)
	}
	return done
}

// satisfies reports whether the method proved meets one of step's: the same
// type, and the same id when the step names one.
func satisfies(step api.AuthenticationStep, proved api.AuthenticationMethod) bool {
	return slices.ContainsFunc(step.Any, func(m api.AuthenticationMethod) bool {
		return m.Type == proved.Type && (m.ID == "" || m.ID == proved.ID)
	})
}

// voteMethod is the authentication method a vote was cast with, from the
// credential recorded with the vote (as policies see it), so it stays right
// when that key or authenticator is deleted later. Only a vote stored before
// credentials were recorded falls back to looking its public key up among the
// credentials as they are now.
func (s *Server) voteMethod(ctx context.Context, orgID string, v voteRow) (api.AuthenticationMethod, error) {
	if v.cast.Type != "" {
		return api.AuthenticationMethod{Type: api.AuthenticationTypeOf(v.cast.Type), ID: v.cast.ID}, nil
	}
	return s.lookUpVoteMethod(ctx, orgID, v.Vote)
}

// lookUpVoteMethod finds the credential behind an old vote's public key: the
// voter's API key (by its credential type) or passkey, as registered now.
func (s *Server) lookUpVoteMethod(ctx context.Context, orgID string, v api.Vote) (api.AuthenticationMethod, error) {
	if v.Scheme == api.SchemeWebAuthn {
		// The vote holds the passkey's key as it was stored then, perhaps
		// uncompressed; migration 19 stores it compressed, as stamps carry it.
		pub := strings.ToLower(v.PublicKey)
		if canonical, err := keys.CanonicalPublicKey(api.CredentialWebAuthnAuthenticator, v.PublicKey); err == nil {
			pub = canonical
		}
		var id string
		err := s.db.read.QueryRowContext(ctx, `SELECT id FROM authenticators WHERE org_id = ? AND user_id = ? AND public_key = ?`, orgID, v.UserID, pub).Scan(&id)
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return api.AuthenticationMethod{}, fmt.Errorf("vote %s: authenticator: %w", v.ID, err)
		}
		return api.AuthenticationMethod{Type: api.AuthPasskey, ID: id}, nil
	}
	var id, typ string
	// The voter's own key only: another user may since have registered the
	// same public key (it takes no private key), and their key is not what
	// this vote was cast with. Hex in any case, as migration 11 compares.
	// On the curve the vote was signed with: the user may hold the same
	// bytes on the other curve too, another key (keyNotRegistered).
	err := s.db.read.QueryRowContext(ctx, `SELECT id, credential_type FROM api_keys WHERE org_id = ? AND user_id = ? AND lower(public_key) = lower(?) AND `+apiKeyCurve+` = ?`,
		orgID, v.UserID, v.PublicKey, keys.CurveOfCredentialType(keys.CredentialTypeOfScheme(v.Scheme))).Scan(&id, &typ)
	if errors.Is(err, sql.ErrNoRows) {
		// The key was deleted since the vote and nothing says what it was:
		// a method of no type, which satisfies no step (fails closed).
		return api.AuthenticationMethod{}, nil
	}
	if err != nil {
		return api.AuthenticationMethod{}, fmt.Errorf("vote %s: API key: %w", v.ID, err)
	}
	return api.AuthenticationMethod{Type: api.AuthenticationTypeOf(typ), ID: id}, nil
}

// loadMfaPolicies loads MFA policies matching where, in evaluation order.
func loadMfaPolicies(ctx context.Context, q querier, where string, args ...any) ([]api.MfaPolicy, error) {
	rows, err := q.QueryContext(ctx, `SELECT id, user_id, name, condition, methods, ord, notes, created_ns, updated_ns
		FROM mfa_policies WHERE `+where+` ORDER BY ord, seq`, args...)
	if err != nil {
		return nil, fmt.Errorf("load MFA policies: %w", err)
	}
	defer rows.Close()
	out := []api.MfaPolicy{}
	for rows.Next() {
		_, p, err := scanMfaPolicy(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, rows.Err()
}

// scanMfaPolicy reads a row of loadMfaPolicies' columns: the policy and its
// user's id.
func scanMfaPolicy(rows *sql.Rows) (string, api.MfaPolicy, error) {
	var p api.MfaPolicy
	var methods string
	var created, updated int64
	if err := rows.Scan(&p.MfaPolicyID, &p.UserID, &p.MfaPolicyName, &p.Condition, &methods, &p.Order, &p.Notes, &created, &updated); err != nil {
		return "", p, err
	}
	if err := json.Unmarshal([]byte(methods), &p.RequiredAuthenticationMethods); err != nil {
		return "", p, fmt.Errorf("MFA policy %s: stored methods: %w", p.MfaPolicyID, err)
	}
	p.CreatedAt, p.UpdatedAt = api.NewTime(time.Unix(0, created)), api.NewTime(time.Unix(0, updated))
	return p.UserID, p, nil
}
