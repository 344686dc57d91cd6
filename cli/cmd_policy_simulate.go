package cli

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/policy"
	"github.com/vigil-console/vigil/ui"
)

const policySimulateUsage = `Usage: vigil policy simulate --activity ID --effect allow|deny [--condition EXPR] [--consensus EXPR] [--time EXPR] [--json]

Decides an activity twice, with the organization's policies as they are and
with a draft policy added after them, using the engine and evaluation order of
the service (policy.Decide), on the activity's own votes and the members' tags.
As the service does, it decides at the submission and again at each approval,
each at its own time: a draft that would fail the activity at its submission
(before the root quorum's approvals bypass every policy) says "FAILS at
submission". --time is the draft's time expression, as policy create takes it.
Prints the outcome today and with the draft, what decides, why, and whether the
draft would lock the organization out of something it can do today. Nothing
is submitted. The console's policy editor simulates the same way (ctrl+r).

Examples:
  vigil policy simulate --activity 0192a6c4-… --effect deny --condition "activity.action == 'DELETE'"
  vigil policy simulate --activity 0192a6c4-… --effect allow --consensus "approvers.count() >= 2" --json

Flags:
`

// simulationReport is what --json prints.
type simulationReport struct {
	ActivityID   string         `json:"activityId"`
	ActivityType string         `json:"activityType"`
	Today        decisionReport `json:"today"`
	WithDraft    decisionReport `json:"withDraft"`
	LocksOut     bool           `json:"locksOut"`
	// Uncertain says why the service may decide otherwise (a key deleted
	// since cast an approval, and a policy reads which credential approved).
	Uncertain string                 `json:"uncertain,omitempty"`
	Draft     api.CreatePolicyParams `json:"draft"`
}

type decisionReport struct {
	Outcome   string             `json:"outcome"`
	DecidedBy string             `json:"decidedBy"`
	Why       string             `json:"why"`
	Policies  []policyLineReport `json:"policies"`
}

type policyLineReport struct {
	PolicyID   string `json:"policyId"`
	PolicyName string `json:"policyName,omitempty"`
	Outcome    string `json:"outcome"`
	Shown      string `json:"shown"`
	Detail     string `json:"detail,omitempty"`
}

// reportOf reports a decision made at a step of the activity's votes: one
// that fails the activity says where ("FAILS at submission: …").
func reportOf(d policy.Decision, at policy.Step, candidates []policy.Approver) decisionReport {
	e := policy.ExplainWith(d, at.In, candidates)
	r := decisionReport{Outcome: d.Outcome, DecidedBy: policy.Decider(d), Why: policy.FailsAt(d, at, e.Why), Policies: []policyLineReport{}}
	for _, l := range e.Policies {
		r.Policies = append(r.Policies, policyLineReport{PolicyID: l.ID, PolicyName: l.Name, Outcome: l.Outcome, Shown: l.Shown, Detail: l.Detail})
	}
	return r
}

// draftPolicyID names the draft among the organization's policies.
const draftPolicyID = "draft"

func policySimulate(ctx context.Context, c proc, args []string) error {
	fs := newFlagSet("policy simulate", policySimulateUsage)
	var conn connFlags
	conn.register(fs, true)
	activityID := fs.String("activity", "", "the `ID` of the activity to decide (required)")
	effect := fs.String("effect", "", "the draft's effect: allow or deny (EFFECT_ALLOW, EFFECT_DENY) (required)")
	condition := fs.String("condition", "", "the draft's condition `EXPR`ession; empty applies to every activity")
	consensus := fs.String("consensus", "", "the draft's consensus `EXPR`ession; empty requires no approvals")
	timeExpr := timeFlag(fs)
	name := fs.String("name", "draft", "the draft's `NAME`, as the explanations show it")
	allowEmpty(fs, "condition", "consensus", "time")
	if err := parseFlagsOnly(c, fs, args); err != nil {
		return err
	}
	if strings.TrimSpace(*activityID) == "" {
		return usagef("policy simulate: --activity ID is required (vigil activity list shows ids)")
	}
	eff, err := effectValue(*effect)
	if err != nil {
		return err
	}
	src := policy.Source{Condition: *condition, Consensus: *consensus, Time: *timeExpr}
	if err := checkSource(c, src); err != nil {
		return err
	}
	draft, err := policy.CompileSource(src)
	if err != nil {
		return fmt.Errorf("the draft does not compile: %w", err)
	}
	// Exact strings: the policies decide on what the service holds (a
	// condition comparing a name must see the name, not its escape), and what
	// is printed is escaped once, below or by writeJSON.
	client, _, err := profileClient(c, conn.config, conn.profile, api.WithExactStrings())
	if err != nil {
		return err
	}
	act, err := client.GetActivity(ctx, *activityID)
	if err != nil {
		return fmt.Errorf("get activity %s: %w", api.SanitizeID(*activityID), err)
	}
	if doubt := act.Intent.TypeDoubt(act.Type); doubt != "" {
		// Policies keyed on the type would judge something other than what
		// the intent does.
		return fmt.Errorf("policy simulate --activity %s: %s, so no outcome is simulated; read the intent with 'vigil activity get %s'",
			api.SanitizeID(act.ID), doubt, api.SanitizeID(act.ID))
	}
	if act.Intent.ParamsUnread() {
		// Simulated on empty params, a condition on activity.params would be
		// judged on nothing: no outcome rather than a guess.
		held := "no intent"
		if keys := act.Intent.Keys(); len(keys) > 0 {
			held = "intent keys " + strings.Join(quotedKeys(keys), ", ")
		}
		return fmt.Errorf("policy simulate --activity %s: %s (it holds %s, not one operation in a shape vigil knows), which a policy may look at, so no outcome is simulated; read the intent with 'vigil activity get %s'",
			api.SanitizeID(act.ID), api.CannotTellParams, held, api.SanitizeID(act.ID))
	}
	users, err := client.ListUsers(ctx)
	if err != nil {
		return fmt.Errorf("list users: %w", err)
	}
	cfg, err := client.GetOrganizationConfigs(ctx)
	if err != nil {
		return fmt.Errorf("organization configs: %w", err)
	}
	records, err := client.ListPolicies(ctx)
	if err != nil {
		return fmt.Errorf("list policies: %w", err)
	}
	current, skipped := policy.PoliciesOf(records)
	for _, e := range skipped {
		fmt.Fprintf(c.stderr, "note: %s — the service leaves out such an allow policy, and makes what such a deny policy could deny wait for the root quorum\n", api.Sanitize(e.Error()))
	}
	members := policy.Members(users, *cfg)
	draftP := policy.Policy{ID: draftPolicyID, Name: *name, Effect: eff, Compiled: draft}
	// The service's time: which vote round still counts, and a policy's
	// time.now, are the service's to decide.
	now := client.ServiceNow()
	sim := policy.SimulateActivity(current, draftP, *act, members, policy.QuorumOf(cfg.Quorum), now)
	if w, ok := policy.IrreversibleDeny(eff, src, cfg.Quorum.Threshold); ok {
		fmt.Fprintf(c.stderr, "warning: %s\n", ui.Clean(w.Message))
	}
	// Who could still approve: the members the service would let vote from
	// now on, today and once the draft exists (it may be what asks for them).
	today := mayStillVote(current, users, members, *act, now)
	withDraft := mayStillVote(append(slices.Clip(current), draftP), users, members, *act, now)
	rep := simulationReport{ActivityID: act.ID, ActivityType: act.Type,
		Today:     reportOf(sim.Today, sim.TodayAt, today),
		WithDraft: reportOf(sim.WithDraft, sim.WithDraftAt, withDraft),
		LocksOut:  sim.LocksOut, Draft: api.CreatePolicyParams{PolicyName: *name, Effect: eff, Condition: *condition, Consensus: *consensus, Time: *timeExpr}}
	if sim.Waiting != "" { // the service keeps it waiting, whatever the replay says
		rep.Today.Why, rep.Today.DecidedBy = sim.Waiting, "no decision yet"
		if sim.WithDraft.Reason == sim.Waiting {
			rep.WithDraft.Why, rep.WithDraft.DecidedBy = sim.Waiting, "no decision yet"
		}
	}
	if doubt := policy.DoubtOfVotes(append(current, draftP), act.Votes, members); doubt.Uncertain() {
		rep.Uncertain = doubt.Explain(func(userID string) string {
			if u, ok := members[userID]; ok && u.Name != "" {
				return api.Quote(u.Name)
			}
			return api.SanitizeID(userID)
		}, "vigil")
	}
	if sim.Rejected { // settled by its rejections: the policies did not decide it, nor would the draft
		rep.Today.Outcome, rep.Today.Why = api.StatusRejected, "rejected by a vote; the policies see approvals only"
		rep.WithDraft.Why = "rejected by a vote; the policies with the draft would give " + rep.WithDraft.Outcome
		rep.WithDraft.Outcome = api.StatusRejected
	}
	if conn.json {
		return writeJSON(c.stdout, rep)
	}
	locks := "no"
	switch {
	case rep.LocksOut && act.Status == api.StatusCompleted && sim.Today.Outcome != api.OutcomeAllow:
		// The service allowed it by something the replay does not see (a
		// policy this vigil cannot read, members changed since): today's
		// replayed outcome must not read as the reason nothing is lost.
		locks = "YES, possibly: the service completed it (replayed here it comes out " + sim.Today.Outcome +
			", by something this vigil cannot see, such as a policy it cannot read), and the draft would deny it outright"
	case rep.LocksOut && sim.Today.Outcome == api.OutcomeRequiresConsensus:
		locks = "YES: it waits for approvals today, and the draft would deny it outright"
	case rep.LocksOut:
		locks = "YES: the organization can do this today and could not with the draft"
	case sim.FailedInExecution:
		locks = "no: the policies allowed it and its operation failed; it fails with or without the draft"
	}
	lines := []string{"activity", api.SanitizeID(act.ID) + " (" + api.Sanitize(act.Type) + ")",
		"today", rep.Today.Outcome + " — " + api.Sanitize(rep.Today.Why),
		"with draft", rep.WithDraft.Outcome + " — " + api.Sanitize(rep.WithDraft.Why),
		"decided by", api.Sanitize(rep.WithDraft.DecidedBy),
		"locks out", locks}
	if rep.Uncertain != "" {
		lines = append(lines, "uncertain", strings.TrimPrefix(api.Sanitize(rep.Uncertain), "uncertain: "))
	}
	if err := fields(c.stdout, lines...); err != nil {
		return err
	}
	w := &errWriter{w: c.stdout}
	for _, l := range rep.WithDraft.Policies {
		label := api.SanitizeID(l.PolicyID)
		if l.PolicyName != "" {
			label = api.Quote(l.PolicyName) + " (" + label + ")" // as the console labels it
		}
		fmt.Fprintf(w, "  %-20s %s — %s\n", strings.TrimPrefix(l.Shown, "OUTCOME_"), label, api.Sanitize(l.Detail))
	}
	return w.err
}

// mayStillVote are the members who have not voted on act and whom the service
// would offer the vote at now with these policies (policy.OthersWhoMayVote),
// in the users' order: a member it would refuse (NOT_A_VOTER) is never named
// as one who could still approve.
func mayStillVote(policies []policy.Policy, users []api.User, members map[string]policy.Approver, act api.Activity, now time.Time) []policy.Approver {
	voted := map[string]bool{}
	for _, v := range act.Votes {
		voted[v.UserID] = true
	}
	_, params := act.Intent.Params()
	in := policy.Input{Activity: policy.ActivityFor(act.Type, params), Now: now} // what the service asks it on
	may := map[string]bool{}
	for _, m := range policy.OthersWhoMayVote(policies, members, in, policy.RootOnly(act.Type), voted) {
		may[m.ID] = true
	}
	var out []policy.Approver
	for _, u := range users {
		if may[u.UserID] {
			out = append(out, members[u.UserID])
		}
	}
	return out
}
