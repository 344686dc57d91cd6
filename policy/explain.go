package policy

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/vigil-console/vigil/api"
)

// NotApplicable is how an explanation shows a policy whose condition did not
// match (or that read a keyword the activity lacks), unless implicit deny is
// the final outcome: the wire says OUTCOME_DENY_IMPLICIT for both.
const NotApplicable = "not applicable"

// NotEvaluated is how an explanation shows a policy that the decision did
// not judge because its work budget ran out first (the wire says
// OUTCOME_ERROR).
const NotEvaluated = "not evaluated"

// Explanation is a decision in words: the final outcome, one line of why, and
// what each policy that ran did.
type Explanation struct {
	Outcome  string
	Why      string
	Policies []PolicyLine
	// Work is what ExplainWith charged beyond the decision, in cost units
	// (at most ExplainBudget and one expression), and CutShort is true when
	// that budget ran out: some waiting policy is then said to need more
	// approvals without saying from whom.
	Work     uint64
	CutShort bool
	// listed are the policies Why names after lead ("allowed by ",
	// "denied explicitly by "), as it names them (BriefWhy counts those
	// past the first few).
	lead   string
	listed []string
}

// BriefWhy is Why naming at most n of the policies that allow (or
// explicitly deny) the activity and counting the rest, for a line read
// before signing or in a list: an organization may hold hundreds of
// policies that allow or deny the same activity, and the full list would
// bury the outcome. Every one is still in Policies (the evaluations view
// lists them all).
func (e Explanation) BriefWhy(n int) string {
	if len(e.listed) <= n {
		return e.Why
	}
	rest, ok := strings.CutPrefix(e.Why, e.lead+strings.Join(e.listed, ", "))
	if !ok {
		return e.Why // said otherwise since (a caller's own words)
	}
	return fmt.Sprintf("%s%s and %d more (the evaluations view lists them all)",
		e.lead, strings.Join(e.listed[:n], ", "), len(e.listed)-n) + rest
}

// PolicyLine is one policy of an explanation.
type PolicyLine struct {
	ID, Name string
	Outcome  string // the wire outcome (OUTCOME_…)
	Shown    string // what to show: the outcome, or NotApplicable
	Detail   string // condition matched? consensus met? why it failed
}

// Explain turns a decision of Decide into words. The decision's details say,
// per policy, whether the condition matched and the consensus was met; the
// names come from Policy.Name (the id when empty).
func Explain(d Decision) Explanation {
	e := Explanation{Outcome: d.Outcome}
	for _, pd := range d.Details {
		line := PolicyLine{ID: pd.Policy.ID, Name: pd.Policy.Name, Outcome: pd.Outcome, Shown: pd.Outcome}
		r := pd.Result
		switch {
		case errors.Is(pd.Err, errNotJudged):
			line.Shown, line.Detail = NotEvaluated, "not evaluated: the decision ran out of its work budget first"
		case pd.Err != nil && pd.Policy.Effect == api.EffectDeny && errors.Is(pd.Err, errCostLimit):
			line.Detail = "could not be evaluated: " + pd.Err.Error() + "; a deny could still apply, so it is not ignored"
		case pd.Err != nil:
			line.Detail = "could not be evaluated: " + pd.Err.Error()
		case pd.Outcome == api.OutcomeTimeInactive:
			line.Detail = "inactive at this time (its time expression is false)"
		case len(r.Missing) > 0:
			line.Detail = "condition does not apply: this activity has no " + strings.Join(r.Missing, ", ")
		case !r.Condition:
			line.Detail = "condition did not match"
		case pd.Policy.Effect == api.EffectDeny && !r.Consensus:
			line.Detail = "condition matched; consensus not met, so it does not deny"
		case r.Consensus:
			line.Detail = "condition matched; consensus met"
		default:
			line.Detail = "condition matched; consensus not met yet"
		}
		if pd.Outcome == api.OutcomeDenyImplicit && d.Outcome != api.OutcomeDenyImplicit {
			line.Shown = NotApplicable
		}
		e.Policies = append(e.Policies, line)
	}
	e.Why = why(d)
	switch {
	case d.Outcome == api.OutcomeAllow && len(d.Details) > 0 && !d.OwnCredential:
		e.lead, e.listed = "allowed by ", labels(d.Details, api.OutcomeAllow)
	case d.Outcome == api.OutcomeDenyExplicit:
		e.lead, e.listed = "denied explicitly by ", labels(d.Details, api.OutcomeDenyExplicit)
	}
	return e
}

// label is how a policy is named in a sentence.
func label(p Policy) string {
	if p.Name != "" {
		return api.Quote(p.Name) // a name cannot pass its words for the sentence's
	}
	return api.SanitizeID(p.ID)
}

// names lists approvers in a sentence: each name quoted (api.Quote: look-alike
// letters and blanks marked), so that a name cannot pass its words for the
// sentence's, as label quotes policy names; the id when there is none.
func names(as []Approver) string { return nameList(as, ", ") }

// nameList is names joined by sep (", ", " or ").
func nameList(as []Approver, sep string) string {
	out := make([]string, 0, len(as))
	for _, a := range as {
		n := api.Quote(a.Name)
		if a.Name == "" {
			n = api.SanitizeID(a.ID)
		}
		out = append(out, n)
	}
	return strings.Join(out, sep)
}

func labels(ds []PolicyDetail, outcome string) []string {
	var out []string
	for _, pd := range ds {
		if pd.Outcome == outcome {
			out = append(out, "policy "+label(pd.Policy))
		}
	}
	return out
}

// quorumSoFar says how far the root quorum is: "root quorum has 1 of 2 approvals (alice)".
func quorumSoFar(d Decision) string {
	s := fmt.Sprintf("root quorum has %d of %d approvals", len(d.RootApprovers), d.RootNeeded)
	if len(d.RootApprovers) > 0 {
		s += " (" + names(d.RootApprovers) + ")"
	}
	return s
}

// why is the one line that says why the decision is what it is.
func why(d Decision) string {
	if d.OwnCredential {
		return "allowed: a user may change their own credentials when no policy allows or denies it"
	}
	if len(d.Details) == 0 && d.Outcome == api.OutcomeAllow {
		return "allowed by root quorum (" + names(d.RootApprovers) + ")"
	}
	switch d.Outcome {
	case api.OutcomeDenyExplicit:
		return "denied explicitly by " + strings.Join(labels(d.Details, api.OutcomeDenyExplicit), ", ")
	case api.OutcomeAllow:
		return "allowed by " + strings.Join(labels(d.Details, api.OutcomeAllow), ", ")
	case api.OutcomeRequiresConsensus:
		if heldByUnreadable(d) {
			return whyHeldByUnreadable(d)
		}
		if d.Exhausted {
			return undecided(d)
		}
		if heldByOverLimit(d) {
			return whyHeldByOverLimit(d)
		}
		parts := []string{quorumSoFar(d)}
		for _, l := range labels(d.Details, api.OutcomeRequiresConsensus) {
			parts = append(parts, l+" needs more approvals to meet its consensus")
		}
		if len(d.Details) == 0 {
			return "waiting: only the root quorum can approve this; " + parts[0]
		}
		return "waiting: " + strings.Join(parts, "; or ")
	case api.OutcomeDenyImplicit:
		if len(d.Details) == 0 && d.RootNeeded > 0 {
			return "failed: only the root quorum can approve this, and no root member has"
		}
		return "failed: no policy allows this (implicit deny)"
	case api.OutcomeError:
		return "failed: " + d.Reason
	}
	return d.Reason
}

// undecided is why a decision cut short by its work budget waits.
func undecided(d Decision) string {
	return fmt.Sprintf("waiting: undecided, because the policies cost more than one decision's work budget "+
		"(%d cost units) and were not all evaluated; the root quorum can still approve it: %s", orDefault(d.Budget, DecideBudget), quorumSoFar(d))
}

// Simulation is one activity decided with the organization's policies as they
// are and with a draft policy added after them (the service evaluates
// policies in creation order, and a new policy is the newest).
type Simulation struct {
	Today, WithDraft Decision
	// TodayAt and WithDraftAt are where each decision was made
	// (SimulateActivity): for an activity that ended, where the service
	// decided it (at the submission or at an approval, the first decision
	// that completed or failed it); for one still waiting, at its next
	// approval (Step.Next). Simulate, given one input, leaves only their In
	// set.
	TodayAt, WithDraftAt Step
	// LocksOut is true when the draft takes away something the organization
	// can do today: an allowed activity would no longer be, or one waiting
	// for approvals would be denied outright.
	LocksOut bool
	// Rejected is set by SimulateActivity for a rejected activity: its
	// rejections settled it, whatever Today says of its approvals, so the
	// draft locks nothing out of it.
	Rejected bool
	// FailedInExecution is set by SimulateActivity for an activity the
	// policies allowed but whose operation failed: it failed anyway, so the
	// draft locks nothing out of it.
	FailedInExecution bool
	// Waiting is set by SimulateActivity for an activity the service keeps
	// waiting (CONSENSUS_NEEDED) whose decision now (as at its next
	// approval) does not come out waiting: why they differ. Today then says
	// REQUIRES_CONSENSUS, as the service does, and so does WithDraft unless
	// the draft changes that decision.
	Waiting string
}

// SimulateActivity decides a recorded activity without and with the draft as
// the service would. One that ended (completed, failed, rejected) is replayed
// as it happened (DecideVotes): at its submission and at each approval, each
// at its own time, so that a draft that fails it at its submission, before
// the root quorum's second approval bypasses every policy, is seen. One still
// waiting is decided as the service will at its next approval (DecideNext):
// on its recorded votes at now, the simulation's time; its past decision
// points are over, and a draft created now is evaluated only from then on.
// A rejected one is marked Rejected (the policies see approvals only, and
// would call it waiting). For one still waiting the service's status is the
// truth: it is waiting today whatever the replay says (the policies may have
// changed since its last approval), and a draft that would deny it outright
// locks it out. For one the service completed whose replay does not allow it
// (a policy this vigil cannot read allowed it), a draft that denies it is a
// possible lock-out too, never a pass. One that failed at execution (not by
// the policies) is marked FailedInExecution: a draft locks nothing out of it.
func SimulateActivity(current []Policy, draft Policy, act api.Activity, members map[string]Approver, quorum Quorum, now time.Time) Simulation {
	var s Simulation
	decide := DecideVotes
	if act.Status == api.StatusConsensusNeeded {
		decide = func(p []Policy, act api.Activity, members map[string]Approver, quorum Quorum) (Decision, Step) {
			return DecideNext(p, act, members, quorum, now)
		}
	}
	s.Today, s.TodayAt = decide(current, act, members, quorum)
	s.WithDraft, s.WithDraftAt = decide(withDraft(current, draft), act, members, quorum)
	s.LocksOut = locksOut(s.Today, s.WithDraft)
	switch act.Status {
	case api.StatusRejected:
		s.Rejected, s.LocksOut = true, false
	case api.StatusFailed:
		if act.Failure != nil && act.Failure.Code != api.CodePermissionDenied {
			// The service fails an activity by its policies with
			// PERMISSION_DENIED only; any other code is its execution's.
			s.FailedInExecution, s.LocksOut = true, false
		}
	case api.StatusCompleted:
		if s.Today.Outcome != api.OutcomeAllow {
			// The service allowed it, by something the replay does not see
			// (a policy this vigil cannot read, members changed since): a
			// draft that denies it may well lock it out.
			s.LocksOut = s.WithDraft.Outcome == api.OutcomeDenyExplicit
		}
	case api.StatusConsensusNeeded:
		if replayed := s.Today; replayed.Outcome != api.OutcomeRequiresConsensus {
			s.Waiting = stillWaiting(act, replayed)
			s.Today = Decision{Outcome: api.OutcomeRequiresConsensus, Reason: s.Waiting,
				RootApprovers: replayed.RootApprovers, RootNeeded: replayed.RootNeeded}
			if s.WithDraft.Outcome == replayed.Outcome {
				s.WithDraft = s.Today // the draft changes nothing of the decision
			}
		}
		s.LocksOut = s.WithDraft.Outcome == api.OutcomeDenyExplicit
	}
	return s
}

// stillWaiting says why a waiting activity's decision at now came out
// otherwise.
func stillWaiting(act api.Activity, replayed Decision) string {
	if len(act.Votes) == 0 {
		return "waiting: the service keeps it " + act.Status + "; its approvals' 24-hour round ended, " +
			"so its votes are gone and the next approval starts a new round (decided now without approvals it comes out " +
			replayed.Outcome + ")"
	}
	return "waiting: the service keeps it " + act.Status + "; the next approval decides (decided now on the votes " +
		"recorded, with the policies of today, it comes out " + replayed.Outcome + ")"
}

// Simulate decides one input without and with the draft, with Decide: the
// same engine and order as the local service. It is one decision point; a
// recorded activity is decided at each of its votes by SimulateActivity.
func Simulate(current []Policy, draft Policy, in Input, quorum Quorum, rootOnly bool) Simulation {
	s := Simulation{
		Today:     Decide(current, in, quorum, rootOnly),
		WithDraft: Decide(withDraft(current, draft), in, quorum, rootOnly),
		TodayAt:   Step{In: in}, WithDraftAt: Step{In: in},
	}
	s.LocksOut = locksOut(s.Today, s.WithDraft)
	return s
}

// withDraft is the policies with the draft added last (the newest).
func withDraft(current []Policy, draft Policy) []Policy {
	return append(append(make([]Policy, 0, len(current)+1), current...), draft)
}

// locksOut reports whether the draft takes away what today allows, or fails
// outright what today waits for.
func locksOut(today, withDraft Decision) bool {
	switch today.Outcome {
	case api.OutcomeAllow:
		return withDraft.Outcome != api.OutcomeAllow
	case api.OutcomeRequiresConsensus:
		return Fails(withDraft.Outcome)
	}
	return false
}

// OwnCredentialDecider is Decider's name for an activity allowed only by the
// permission to change one's own credentials.
const OwnCredentialDecider = "own-credentials permission (no policy)"

// Decider names what decided: "own-credentials permission (no policy)",
// "root quorum", "root quorum (deny policy 'X' cannot be read by this
// vigil)", "root quorum (deny policy 'X' ran out of its cost limit)",
// "policy 'X'", or "no policy" ("no policy: out of work
// budget" when the decision was cut short undecided).
func Decider(d Decision) string {
	if d.OwnCredential {
		// Checked first: no policy and no root member decided it.
		return OwnCredentialDecider
	}
	if len(d.Details) == 0 {
		if d.Outcome == api.OutcomeDenyImplicit {
			// No root member approved and no policy ran: nothing decided it.
			return "no policy"
		}
		return "root quorum"
	}
	if heldByUnreadable(d) {
		return "root quorum (" + denyLabels(unreadableDenies(d)) + " cannot be read by this vigil)"
	}
	if d.Exhausted && d.Outcome == api.OutcomeRequiresConsensus {
		return "no policy: out of work budget"
	}
	if heldByOverLimit(d) {
		return "root quorum (" + denyLabels(overLimitDenies(d)) + " ran out of its cost limit)"
	}
	switch d.Outcome {
	case api.OutcomeDenyExplicit, api.OutcomeAllow, api.OutcomeRequiresConsensus:
		if l := labels(d.Details, d.Outcome); len(l) > 0 {
			return strings.Join(l, ", ")
		}
		return "root quorum"
	}
	return "no policy"
}
