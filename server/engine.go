package server

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/policy"
)

// decodeEnvelope decodes a submit body, checked once by peekEnvelope,
// strictly and validates its parameters.
func decodeEnvelope(op api.Operation, body api.StrictBody) (api.ActivityRequest, any, error) {
	var env api.ActivityRequest
	if err := body.Unmarshal(&env); err != nil {
		return env, nil, bodyError(err)
	}
	switch {
	case env.Type == "":
		return env, nil, invalidf("MISSING_FIELD", "type is required; for this path it is %s", op.Type)
	case env.Type != op.Type:
		return env, nil, invalidf("TYPE_MISMATCH", "type %q does not match the path %s%s, which takes %s", env.Type, api.SubmitPrefix, op.Path, op.Type)
	case env.OrganizationID == "":
		return env, nil, invalidf("MISSING_FIELD", "organizationId is required")
	case env.TimestampMs == "":
		return env, nil, invalidf("MISSING_FIELD", "timestampMs is required")
	}
	if env.GenerateAppProofs != nil && op.Type == api.TypeCreateMfaPolicy {
		return env, nil, invalidf("INVALID_FIELD", "generateAppProofs is not available for create_mfa_policy; leave it out")
	}
	params, err := api.ValidateParams(op, env.Parameters)
	if err != nil {
		var ve *api.ValidationError
		if errors.As(err, &ve) {
			field := "parameters"
			if ve.Field != "" {
				field += "." + ve.Field
			}
			errorCode := "INVALID_PARAMETER"
			if ve.ErrorCode != "" {
				errorCode = ve.ErrorCode
			}
			return env, nil, invalidf(errorCode, "%s %s", field, ve.Problem)
		}
		return env, nil, invalidf("INVALID_PARAMETER", "parameters: %v", err)
	}
	return env, params, nil
}

// submit handles a submit operation for an authenticated caller.
func (s *Server) submit(ctx context.Context, c *caller, op api.Operation, env api.ActivityRequest, params any, body []byte) (api.Activity, error) {
	fp := fingerprintOf(body)
	switch p := params.(type) {
	case *api.ApproveActivityParams:
		return s.vote(ctx, c, p.Fingerprint, api.VoteApproved, body, fp)
	case *api.RejectActivityParams:
		return s.vote(ctx, c, p.Fingerprint, api.VoteRejected, body, fp)
	}
	intent, err := api.IntentFor(op.Type, params)
	if err != nil {
		return api.Activity{}, err
	}
	// A new submission has its content checked. A request those checks
	// refuse is first asked, in this order, whether its credential is gone
	// (it is told so, not what else is wrong with it) and whether it is the
	// same body again (answered with its activity whatever has changed since:
	// an OIDC token that expired, an issuer's rotated keys). Only a refused
	// request pays for those two reads; the transaction makes them again.
	now := s.now()
	token, refused := s.precheck(ctx, s.db.read, c, op, params, fp)
	prechecked := refused == nil
	if refused != nil {
		if err := stillAuthenticated(ctx, s.db.read, c, now); err != nil {
			return api.Activity{}, err
		}
		seen, err := loadSubmitted(ctx, s.db.read, now, c.OrgID, fp)
		if err != nil {
			return api.Activity{}, err
		}
		if seen == nil {
			return api.Activity{}, refused
		}
	}
	var out *activity
	var mayVote bool
	var events []hookEvent
	err = s.db.inTx(ctx, func(tx *txn) error {
		// One reading of the clock for the whole request: the vote's time is
		// the instant the policies' time.now sees.
		now := s.now()
		if err := stillAuthenticated(ctx, tx, c, now); err != nil {
			return err
		}
		existing, err := loadSubmitted(ctx, tx, now, c.OrgID, fp)
		if err != nil {
			return err
		}
		org, err := s.org(ctx, tx, c.OrgID)
		if err != nil {
			return err
		}
		if existing != nil {
			out = existing
			vs := s.voters(tx, org, now)
			if mayVote, err = vs.mayVote(ctx, existing, c.UserID); err != nil {
				return err
			}
			// The same body again: idempotent for the requester, whatever has
			// happened since; by someone else it is that user's approval, with
			// approve_activity's checks and refusals (their own resend of that
			// approval is idempotent too).
			if existing.RequesterID == c.UserID {
				return nil
			}
			again, err := voteRefused(ctx, tx, existing, c, fp, mayVote)
			if err != nil || again {
				return sameBodyRefused(err, existing)
			}
			events, err = s.castVote(ctx, tx, org, vs, existing, c, api.VoteApproved, body, fp, now)
			return err
		}
		// Checked only there when seen earlier: never created unchecked.
		if !prechecked {
			if token, err = s.precheck(ctx, tx, c, op, params, fp); err != nil {
				return err
			}
		}
		// Refused before it exists when it cannot fit already; execution
		// checks again, as others may fill the room while it waits for votes.
		if p, ok := params.(*api.CreatePolicyParams); ok {
			why, err := s.policyBudgetExceeded(ctx, tx, c.OrgID, p)
			if err != nil {
				return err
			}
			if why != "" {
				return overPolicyBudget(why)
			}
		}
		// Lists are newest first by submission: createdAt (and the id's
		// time) must agree, even after the clock stepped back.
		created, err := s.createdAt(ctx, tx, c.OrgID, now)
		if err != nil {
			return err
		}
		out = &activity{ID: newHistoryID(created), OrgID: c.OrgID, Type: op.Type, Status: api.StatusCreated, Fingerprint: fp,
			RequesterID: c.UserID, Body: body, Intent: intent, AppProofs: env.GenerateAppProofs != nil && *env.GenerateAppProofs,
			Created: created, Updated: created}
		// An OIDC token is claimed by the first activity to carry it, before
		// that activity can execute: no other can hold it while it waits.
		if token != nil {
			if err := claimOIDCToken(ctx, tx, *token, out, now); err != nil {
				return err
			}
		}
		// The requester's submission is their approval, whatever the voting
		// rules say about others; having voted, they see no canApprove.
		// castVote stores the activity with the status that vote gives it.
		events, err = s.castVote(ctx, tx, org, s.voters(tx, org, now), out, c, api.VoteApproved, body, fp, now)
		return err
	})
	if err != nil {
		// The activity it may have dated is not stored: the next reads the
		// organization's newest from the database.
		s.latest.forget(c.OrgID)
		return api.Activity{}, err
	}
	s.hooks.queued(events)
	return out.toAPI(c.UserID, mayVote), nil
}

// vote casts the caller's approval or rejection on the activity with the given
// fingerprint and returns that activity after the vote. body is the request
// that casts it (its fingerprint bodyFP): the vote's signed message.
func (s *Server) vote(ctx context.Context, c *caller, targetFP, selection string, body []byte, bodyFP string) (api.Activity, error) {
	var out *activity
	var mayVote bool
	var events []hookEvent
	err := s.db.inTx(ctx, func(tx *txn) error {
		now := s.now() // one reading for the request, as in submit
		if err := stillAuthenticated(ctx, tx, c, now); err != nil {
			return err
		}
		a, err := loadActivity(ctx, tx, now, c.OrgID, "fingerprint", targetFP)
		if err != nil {
			return err
		}
		if a == nil {
			return notFoundf("ACTIVITY_NOT_FOUND", "no activity of organization %q has fingerprint %q; copy the fingerprint from get_activity", c.OrgID, targetFP)
		}
		out = a
		org, err := s.org(ctx, tx, c.OrgID)
		if err != nil {
			return err
		}
		vs := s.voters(tx, org, now)
		if mayVote, err = vs.mayVote(ctx, a, c.UserID); err != nil {
			return err
		}
		if again, err := voteRefused(ctx, tx, a, c, bodyFP, mayVote); err != nil || again {
			return err
		}
		events, err = s.castVote(ctx, tx, org, vs, a, c, selection, body, bodyFP, now)
		return err
	})
	if err != nil {
		return api.Activity{}, err
	}
	s.hooks.queued(events)
	return out.toAPI(c.UserID, mayVote), nil
}

// castEarlier reports whether user already cast a vote on the activity
// with the request whose fingerprint is bodyFP, in any round.
func castEarlier(ctx context.Context, tx *txn, activityID, userID, bodyFP string) (bool, error) {
	var one int
	err := tx.QueryRowContext(ctx, `SELECT 1 FROM votes WHERE activity_id = ? AND user_id = ? AND body_fingerprint = ? LIMIT 1`,
		activityID, userID, bodyFP).Scan(&one)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("look for an earlier vote by %s on %s: %w", userID, activityID, err)
	}
	return true, nil
}

// notAVoter is the refusal of a vote by a user who may not vote on a.
func notAVoter(a *activity) error {
	if rootOnly(a.Type) {
		return forbiddenf("NOT_A_VOTER", "only members of the root quorum may vote on %s", a.Type)
	}
	return forbiddenf("NOT_A_VOTER", "you may not vote on activity %s: you are not in the root quorum and no policy matching it asks for a consensus of approvers", a.ID)
}

// castVote records a vote, re-evaluates the policies and moves the activity on:
// completing it (and executing its intent, in this same transaction), failing
// it, rejecting it, or leaving it waiting for consensus. An activity still
// CREATED is not stored yet: it is inserted once, with the status this vote
// gives it (an insert and then an update rewrote its row and status indexes).
// now is the request's reading of the clock: the vote's time (or the
// previous vote's, if later), and the time the policies are evaluated at. vs
// is the request's voters (read at now), which may already know who may vote
// on a: evaluate asks it again. body is the request that cast the vote (its
// fingerprint bodyFP): the vote's message, which the stamp signed.
func (s *Server) castVote(ctx context.Context, tx *txn, org *org, vs *voters, a *activity, c *caller, selection string, body []byte, bodyFP string, now time.Time) ([]hookEvent, error) {
	v := voteRow{BodyFingerprint: bodyFP, Vote: api.Vote{
		ID: newHistoryID(now), UserID: c.UserID, ActivityID: a.ID, Selection: selection,
		Message: voteMessage(a, body, bodyFP), PublicKey: c.PublicKey, Signature: c.Signature, Scheme: c.Scheme, CreatedAt: api.NewTime(now),
	}, cast: policy.Credential{ID: c.CredentialID, Type: c.CredType, CredentialID: c.PasskeyID}}
	fresh := a.Seq == 0 // not stored yet: submit inserts it here
	// The vote joins the votes already loaded with a, as loadVotes would
	// show it (a voter deleted meanwhile shows empty fields there too).
	u, err := s.user(ctx, tx, c.UserID)
	if err != nil && !isNotFound(err) {
		return nil, err
	}
	v.Vote.User = api.User{UserID: c.UserID, UserName: u.name, UserEmail: u.email, APIKeys: []api.APIKey{},
		Authenticators: []api.Authenticator{}, UserTags: []string{},
		CreatedAt: api.NewTime(time.Unix(0, u.created)), UpdatedAt: api.NewTime(time.Unix(0, u.updated))}
	v.created = time.Unix(0, now.UnixNano())
	// A vote's time is never before the previous vote's, even after this
	// clock stepped back: rounds count from the first vote cast (currentVotes),
	// and a client that orders the votes by time must see the same rounds.
	// The policies still see the real now, and their evaluation is stored at
	// it (v.evaluated). a.Votes holds the round that counts at now; a round
	// that ended before now holds no vote later than now.
	for _, prev := range a.Votes {
		if prev.created.After(v.created) {
			v.created = prev.created
		}
	}
	// Nor before the activity's last update: the vote becomes its updatedAt
	// (below), which never goes back.
	if a.Updated.After(v.created) {
		v.created = a.Updated
	}
	if !v.created.Equal(now) {
		v.evaluated = time.Unix(0, now.UnixNano())
	}
	v.Vote.CreatedAt = api.NewTime(v.created)
	// a.Votes holds the round that counts at now (loadActivity); a vote after
	// that round expired starts the next one, as loadVotes would show it.
	a.Votes = currentVotes(append(a.Votes, v), now, a.Status == api.StatusConsensusNeeded)
	ev, err := s.evaluate(ctx, tx, org, vs, a, time.Unix(0, now.UnixNano()))
	if err != nil {
		return nil, err
	}
	if ev.decision.Exhausted {
		// Failing safe (policy.Decision.Exhausted): the outcome is one the
		// policies not judged could not change, or the activity waits.
		s.log.Warn("the policies are too costly to evaluate within one decision's work budget; policies not evaluated are recorded as OUTCOME_ERROR",
			"activityId", a.ID, "outcome", ev.decision.Outcome, "work", ev.decision.Work, "budget", s.decideWork)
	}
	outcomes := ev.decision.Policies
	before := a.Status
	if selection == api.VoteRejected {
		// With nobody left who may vote (ev.potential empty), unreachable:
		// the last voter's rejection settles it, whatever the approvals
		// counted would give under today's policies.
		reach := ev.reachable()
		if reach.Exhausted {
			// Failing safe: more rejections, or the approvals' expiry, end it.
			s.log.Warn("rejection: the policies are too costly to tell whether consensus is still reachable; the activity keeps waiting",
				"activityId", a.ID, "work", reach.Work, "budget", s.reachWork)
		}
		if !reach.Reachable {
			a.Status = api.StatusRejected
			outcomes = append(outcomes, api.PolicyOutcome{Outcome: api.OutcomeRejected})
		}
	} else {
		// policy.Fails is the rule the console's simulation decides by too.
		switch outcome := ev.decision.Outcome; {
		case outcome == api.OutcomeAllow:
			if err := s.execIntent(ctx, tx, a); err != nil {
				return nil, err
			}
		case !policy.Fails(outcome):
			a.Status = api.StatusConsensusNeeded
		default:
			a.Status = api.StatusFailed
			msg := ev.decision.Reason
			if msg == "" {
				msg = "denied by the organization's policies (" + ev.decision.Outcome + ")"
			}
			a.Failure = &api.Failure{Code: api.CodePermissionDenied, Message: msg}
		}
	}
	changed := a.Status != before
	// Every counted vote changes the activity (its votes), whether or not
	// its status changes: updatedAt is the vote's time, never before the
	// previous update (see above). It is also the row's version for the
	// list caches (activitylist.go), which a vote now moves.
	a.Updated = v.created
	if fresh {
		if err := insertActivity(ctx, tx, a); err != nil {
			return nil, err
		}
	} else if err := updateActivity(ctx, tx, a); err != nil {
		return nil, err
	}
	if err := insertVote(ctx, tx, a, v, outcomes); err != nil {
		return nil, err
	}
	if changed && a.Status == api.StatusCompleted && a.AppProofs {
		if err := s.signAppProofs(ctx, tx, a); err != nil {
			return nil, err
		}
	}
	if !changed {
		return nil, nil
	}
	url, err := s.webhookURL(ctx, tx, a.OrgID)
	if err != nil {
		return nil, err
	}
	ev2, err := s.hooks.eventFor(url, a)
	if err != nil || ev2 == nil {
		return nil, err
	}
	// Durable with the status change: delivered even if the service stops
	// before the receiver answers. Timed on the service clock, as the
	// dispatcher reads it.
	if err := insertOutbox(ctx, tx, ev2, s.now()); err != nil {
		return nil, err
	}
	return []hookEvent{*ev2}, nil
}

// execIntent executes the intent: if execution fails, its partial writes are
// undone and the activity is FAILED with the reason. The caller stores the
// activity's new status, then signs its app proofs. In a careful transaction
// the intent runs in a savepoint; otherwise a failure after writing asks the
// writer to run the batch again carefully (errNeedsSavepoints).
func (s *Server) execIntent(ctx context.Context, tx *txn, a *activity) error {
	if tx.careful {
		if _, err := tx.ExecContext(ctx, `SAVEPOINT execute_intent`); err != nil {
			return fmt.Errorf("execute %s: savepoint: %w", a.Type, err)
		}
	}
	before := tx.writes
	result, err := s.execute(ctx, tx, a)
	var fail *execFailure
	switch {
	case errors.As(err, &fail):
		if tx.careful {
			if _, err := tx.ExecContext(ctx, `ROLLBACK TO execute_intent`); err != nil {
				// Why it failed first: the lost savepoint is a consequence.
				return fmt.Errorf("execute %s: undo its failure (%s): %w", a.Type, fail.msg, err)
			}
		} else if tx.writes != before {
			return errNeedsSavepoints
		}
		a.Status = api.StatusFailed
		a.Failure = &api.Failure{Code: fail.code, Message: fail.msg}
	case err != nil:
		return fmt.Errorf("execute %s: %w", a.Type, err)
	default:
		a.Status = api.StatusCompleted
		a.Result = result
		a.Failure = nil
	}
	if tx.careful {
		if _, err := tx.ExecContext(ctx, `RELEASE execute_intent`); err != nil {
			return fmt.Errorf("execute %s: release savepoint: %w", a.Type, err)
		}
	}
	return nil
}

// execFailure is an intent that cannot be carried out: the activity FAILS with
// this code and message (not a 4xx/5xx reply: the activity is recorded).
type execFailure struct {
	code int
	msg  string
}

func (e *execFailure) Error() string { return e.msg }

func failf(code int, format string, args ...any) error {
	return &execFailure{code: code, msg: messagef(format, args...)}
}
