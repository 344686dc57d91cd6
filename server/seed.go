package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/keys"
	"github.com/vigil-console/vigil/policy"
)

// SeedMember is a user of the organization being seeded and their API key.
type SeedMember struct {
	UserID string
	Key    *keys.Key
	// cast is the registered API key behind Key, recorded with its votes
	// (SeedActivities finds it).
	cast policy.Credential
}

// SeedSpec describes the history SeedActivities writes.
type SeedSpec struct {
	// Activities is how many activities to add.
	Activities int
	// Pending of them are left waiting for consensus (the requester's vote
	// only), spread evenly through the history; the rest are decided.
	Pending int
	// Requester submits every activity; Approver approves the decided ones.
	// Both must be root users of an organization whose root threshold is 2,
	// so one vote leaves an activity pending and two decide it.
	Requester, Approver SeedMember
}

// seedChunk is how many activities one seeding transaction writes.
const seedChunk = 2000

// seedCacheKiB is the writer's page cache while it seeds.
const seedCacheKiB = 256 << 10

// SeedActivities writes a history of real activities straight into the store,
// for load tests at 1,000 to 100,000 activities: each has the request body a
// client would send (stamped by the requester's real key, and the approval
// by the approver's), the votes, a policy evaluation per vote, and for decided
// ones the executed intent (create_invitations completes and records the
// invitations; delete_tvc_deployment of an unknown deployment fails). Nine in
// ten decided activities are create_invitations. It skips HTTP and, after the
// first activity of each kind, the policy engine: every later one has the same
// votes and policies, hence the same outcomes, which are written as computed.
// Every index is maintained as for served traffic.
func (s *Server) SeedActivities(ctx context.Context, orgID string, spec SeedSpec) error {
	if spec.Activities < 0 || spec.Pending < 0 || spec.Pending > spec.Activities {
		return fmt.Errorf("seed: %d pending of %d activities; want 0 <= pending <= activities", spec.Pending, spec.Activities)
	}
	if spec.Requester.Key == nil || spec.Approver.Key == nil || spec.Requester.UserID == spec.Approver.UserID {
		return errors.New("seed: need a requester and a different approver, each with a key")
	}
	o, err := loadOrg(ctx, s.db.read, orgID)
	if err != nil {
		return fmt.Errorf("seed: %w", err)
	}
	if o.Threshold != 2 || !o.isRoot(spec.Requester.UserID) || !o.isRoot(spec.Approver.UserID) {
		return fmt.Errorf("seed: organization %s needs a root threshold of 2 (has %d) with requester and approver in the root quorum", orgID, o.Threshold)
	}
	for _, m := range []*SeedMember{&spec.Requester, &spec.Approver} {
		if m.cast, err = s.registeredKey(ctx, orgID, *m); err != nil {
			return fmt.Errorf("seed: %w", err)
		}
	}
	run := randomHex(4) // keeps bodies (and fingerprints) of separate runs apart
	start := s.now().Add(-time.Duration(spec.Activities) * time.Second)
	outcomes := map[string][]api.PolicyOutcome{} // by kind: type + votes
	// Stamping the next chunk overlaps writing this one.
	type chunk struct {
		first int
		acts  []seedActivity
		err   error
	}
	chunks := make(chan chunk, 1)
	stop := make(chan struct{})
	defer close(stop)
	go func() {
		defer close(chunks)
		for first := 0; first < spec.Activities; first += seedChunk {
			acts, err := s.seedRequests(orgID, spec, run, start, first, min(seedChunk, spec.Activities-first))
			select {
			case chunks <- chunk{first, acts, err}:
			case <-stop:
				return
			}
			if err != nil {
				return
			}
		}
	}()
	for ch := range chunks {
		if ch.err != nil {
			return ch.err
		}
		err := s.db.inTx(ctx, func(tx *txn) error {
			// Random keys (ids, fingerprints) spread a chunk's inserts over
			// the whole of each unique index; a page cache that holds them
			// keeps seeding 100,000 activities from re-reading and spilling
			// pages. Only this connection, only while seeding.
			if _, err := tx.ExecContext(ctx, `PRAGMA cache_size = -`+strconv.Itoa(seedCacheKiB)); err != nil {
				return err
			}
			defer tx.ExecContext(ctx, `PRAGMA cache_size = -`+strconv.Itoa(writerCacheKiB))
			return s.seedWrite(ctx, tx, o, ch.acts, outcomes)
		})
		if err != nil {
			s.latest.forget(o.ID)
			return fmt.Errorf("seed: activities %d–%d: %w", ch.first+1, ch.first+len(ch.acts), err)
		}
	}
	return nil
}

// seedActivity is one activity to write, with its stamped votes.
type seedActivity struct {
	a      *activity
	votes  []voteRow
	decide bool
}

// seedRequests builds and stamps the requests of activities first..first+n-1,
// signing on every core.
func (s *Server) seedRequests(orgID string, spec SeedSpec, run string, start time.Time, first, n int) ([]seedActivity, error) {
	out := make([]seedActivity, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	workers := runtime.GOMAXPROCS(0)
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := w; j < n; j += workers {
				out[j], errs[j] = s.seedRequest(orgID, spec, run, start, first+j)
			}
		}()
	}
	wg.Wait()
	return out, errors.Join(errs...)
}

func (s *Server) seedRequest(orgID string, spec SeedSpec, run string, start time.Time, i int) (seedActivity, error) {
	pending := spec.Pending > 0 && i%max(1, spec.Activities/spec.Pending) == 0 && i/max(1, spec.Activities/spec.Pending) < spec.Pending
	at := start.Add(time.Duration(i) * time.Second)
	op, params := seedIntent(run, i, pending, spec.Requester.UserID)
	raw, err := json.Marshal(params)
	if err != nil {
		return seedActivity{}, err
	}
	body, err := json.Marshal(api.ActivityRequest{Type: op.Type, OrganizationID: orgID, Parameters: raw,
		TimestampMs: strconv.FormatInt(at.UnixMilli(), 10)})
	if err != nil {
		return seedActivity{}, err
	}
	intent, err := api.IntentFor(op.Type, params)
	if err != nil {
		return seedActivity{}, err
	}
	fp := fingerprintOf(body)
	a := &activity{ID: newHistoryID(at), OrgID: orgID, Type: op.Type, Status: api.StatusConsensusNeeded, Fingerprint: fp,
		RequesterID: spec.Requester.UserID, Body: body, Intent: intent, Created: at, Updated: at}
	sa := seedActivity{a: a, decide: !pending}
	v, err := seedVote(spec.Requester, a, body, at)
	if err != nil {
		return seedActivity{}, err
	}
	sa.votes = append(sa.votes, v)
	if !pending {
		approve, _ := json.Marshal(api.ActivityRequest{Type: api.TypeApproveActivity, OrganizationID: orgID,
			Parameters: json.RawMessage(`{"fingerprint":"` + fp + `"}`), TimestampMs: strconv.FormatInt(at.UnixMilli()+500, 10)})
		if v, err = seedVote(spec.Approver, a, approve, at.Add(500*time.Millisecond)); err != nil {
			return seedActivity{}, err
		}
		sa.votes = append(sa.votes, v)
	}
	return sa, nil
}

// seedIntent picks the activity: create_invitations, or for one decided
// activity in ten a delete_tvc_deployment of a deployment that does not exist.
func seedIntent(run string, i int, pending bool, sender string) (api.Operation, any) {
	if !pending && i%10 == 9 {
		op, _ := api.OperationByType(api.TypeDeleteTvcDeployment)
		return op, &api.DeleteTvcDeploymentParams{DeploymentID: "seed-" + run + "-" + strconv.Itoa(i)}
	}
	op, _ := api.OperationByType(api.TypeCreateInvitations)
	name := "seed-" + run + "-" + strconv.Itoa(i)
	return op, &api.CreateInvitationsParams{Invitations: []api.Invitation{{ReceiverUserName: name,
		ReceiverUserEmail: name + "@example.com", ReceiverUserTags: []string{}, AccessType: api.AccessTypeAPI, SenderUserID: sender}}}
}

func seedVote(m SeedMember, a *activity, body []byte, at time.Time) (voteRow, error) {
	_, value, err := m.Key.Stamp(body)
	if err != nil {
		return voteRow{}, err
	}
	st, err := keys.DecodeStamp(value)
	if err != nil {
		return voteRow{}, err
	}
	fp := fingerprintOf(body)
	return voteRow{BodyFingerprint: fp, Vote: api.Vote{ID: newHistoryID(at), UserID: m.UserID, ActivityID: a.ID,
		Selection: api.VoteApproved, Message: voteMessage(a, body, fp), PublicKey: st.PublicKey, Signature: st.Signature, Scheme: st.Scheme,
		CreatedAt: api.NewTime(at)}, cast: m.cast}, nil
}

// registeredKey is the API key of m's user with m's public key, as the votes
// of m record it.
func (s *Server) registeredKey(ctx context.Context, orgID string, m SeedMember) (policy.Credential, error) {
	ks, err := s.apiKeys(ctx, strings.ToLower(m.Key.PublicKeyHex()))
	if err != nil {
		return policy.Credential{}, err
	}
	for _, k := range ks {
		if k.org == orgID && k.user == m.UserID {
			return policy.Credential{ID: k.id, Type: k.typ}, nil
		}
	}
	return policy.Credential{}, fmt.Errorf("user %s of organization %s has no API key %s", m.UserID, orgID, m.Key.PublicKeyHex())
}

// seedWrite writes one chunk in one transaction.
func (s *Server) seedWrite(ctx context.Context, tx *txn, o *org, acts []seedActivity, outcomes map[string][]api.PolicyOutcome) error {
	for _, sa := range acts {
		a := sa.a
		if err := insertActivity(ctx, tx, a); err != nil {
			return err
		}
		s.latest.note(o.ID, a.Created) // in the order written, as createdAt notes
		for i, v := range sa.votes {
			a.Votes = append(a.Votes, v)
			kind := a.Type + "/" + strconv.Itoa(i)
			out, ok := outcomes[kind]
			if !ok {
				ev, err := s.evaluate(ctx, tx, o, s.voters(tx, o, v.created), a, v.created)
				if err != nil {
					return err
				}
				out = ev.decision.Policies
				outcomes[kind] = out
			}
			if err := insertVote(ctx, tx, a, v, out); err != nil {
				return err
			}
		}
		if !sa.decide {
			continue
		}
		// Executed as complete does, without its savepoint: neither seeded
		// kind writes anything before it fails, and a savepoint per activity
		// inside the chunk's transaction made SQLite truncate the chunk's
		// growing in-memory sub-journal once per activity (quadratic).
		result, err := s.execute(ctx, tx, a)
		var fail *execFailure
		switch {
		case errors.As(err, &fail):
			a.Status, a.Failure = api.StatusFailed, &api.Failure{Code: fail.code, Message: fail.msg}
		case err != nil:
			return fmt.Errorf("execute %s: %w", a.Type, err)
		default:
			a.Status, a.Result = api.StatusCompleted, result
		}
		a.Updated = sa.votes[len(sa.votes)-1].Vote.CreatedAt.Time() // the vote that decided it, as castVote dates it
		if err := updateActivity(ctx, tx, a); err != nil {
			return err
		}
	}
	return nil
}
