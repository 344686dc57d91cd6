package screens

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"sync"

	tea "charm.land/bubbletea/v2"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/policy"
)

// load fetches the policies, the members and the quorum; once the recent
// activities are wanted, loadRecent follows when they arrive. While a load
// runs, another is not started but waits for it (reloadGate).
func (p *Policies) load() tea.Cmd {
	if !p.reload.begin() {
		return nil
	}
	p.gen++
	p.ownReadAfter = p.c.OrgLoadsStarted
	gen, c, client := p.gen, p.c, p.c.Reader
	return func() tea.Msg {
		ctx, cancel := c.ctx()
		defer cancel()
		fail := func(what string, err error) tea.Msg {
			return policiesLoadedMsg{gen: gen, err: fmt.Errorf("%s: %w", what, err), at: c.Now()}
		}
		var d policiesData
		var err error
		if d.policies, err = client.ListPolicies(ctx); err != nil {
			return fail("list policies", err)
		}
		// The user list may fail alone (it grows with the organization):
		// the policies still show, with the reason beside them.
		if d.users, err = client.ListUsers(ctx); err != nil {
			d.usersErr = "list users: " + errorText(err)
		}
		cfg, err := client.GetOrganizationConfigs(ctx)
		if err != nil {
			return fail("organization configs", err)
		}
		d.quorum = cfg.Quorum
		d.ctx = newEvaluationContext(c.Compiled, d.users, *cfg, d.policies)
		return policiesLoadedMsg{gen: gen, data: d, at: c.Now()}
	}
}

// takeOrgLoad shows the policies, users and quorum of the organization
// load awaited (orgAwaited), of a later one, or of any that changed them
// (orgLoadTaken: the vote dialog's read may find a policy no list showed
// completing): the reload reads the user list once, at the root, not again
// here (at a large organization it is megabytes). A load that failed, even
// in part, or one landing while the list's own load runs, makes the list
// read them itself, as it did before.
func (p *Policies) takeOrgLoad(msg orgLoadedMsg) tea.Cmd {
	awaited := p.orgAwaited != 0 && msg.load >= p.orgAwaited
	if !awaited && !orgLoadTaken(msg, !p.fetched.IsZero(), p.ownReadAfter) {
		return nil
	}
	p.orgAwaited = 0
	if msg.err != nil || !msg.org.Loaded || p.reload.running {
		return p.load()
	}
	org := msg.org
	p.gen++ // a reply of a load started before is older
	p.takeLoaded(policiesLoadedMsg{gen: p.gen, at: p.c.Now(), data: policiesData{
		policies: org.Policies, users: org.Users, quorum: org.Quorum, ctx: org.Eval}})
	if p.recentWanted {
		return p.loadRecent()
	}
	return nil
}

// loadRecent fetches the recent activities and their evaluations, a few at
// a time and each call with its own timeout, and explains them with the
// policies loaded (CPU work: in the command, not in Update). An activity
// whose evaluations cannot be read is kept, marked, not the whole load lost.
// An activity whose last evaluation's vote is not in the list's copy (it may
// have landed between the two reads) is read again after its evaluations,
// unless an earlier load's read after that evaluation already did not hold
// its vote (p.notReturned).
func (p *Policies) loadRecent() tea.Cmd {
	p.recentGen++
	p.recentLoading = true
	gen, c, client, ectx, held := p.recentGen, p.c, p.c.Reader, p.data.ctx, p.heldID()
	known := maps.Clone(p.notReturned) // the command's own: Update replaces p's
	final := finalEvaluations(p.data.recent)
	return func() tea.Msg {
		ctx, cancel := c.ctx()
		acts, err := client.ListActivities(ctx, api.ListActivitiesOptions{Limit: recentActivities})
		cancel()
		if err != nil {
			return policiesRecentMsg{gen: gen, err: fmt.Errorf("list activities: %w", err)}
		}
		recent := make([]recentActivity, len(acts))
		sem := make(chan struct{}, recentFetches)
		var wg sync.WaitGroup
		for i, a := range acts {
			wg.Go(func() {
				sem <- struct{}{}
				defer func() { <-sem }()
				ctx, cancel := c.ctx()
				defer cancel()
				ra := recentActivity{act: a, final: api.IsTerminal(a.Status)}
				// A decided activity's evaluations are final: those the last
				// load read are not read again.
				prev, kept := final[a.ID]
				evs, err := prev.evals, error(nil)
				if !kept || prev.status != a.Status {
					evs, err = client.GetPolicyEvaluations(ctx, a.ID)
				}
				switch {
				case err != nil:
					ra.err = errorText(fmt.Errorf("policy evaluations of %s: %w", api.SanitizeID(a.ID), err))
				case len(evs) > 0:
					ra.evals = evs
					last := evs[len(evs)-1]
					switch {
					case !policy.StoredOutcome(a, last).NotReturned:
					case known.has(a.ID, last):
						// A read after it did not hold its vote, at an
						// earlier load: votes do not come back.
						ra.notReturned = true
					default:
						// The list was read before the evaluations: a vote
						// may have landed since (evals_reread.go).
						// When that read fails, the vote's status is unknown:
						// it is not remembered as not returned.
						if cur, err := readAfterEvaluations(ctx, client, a.ID); err != nil {
							ra.rereadErr = errorText(err)
						} else {
							ra.act = *cur
							ra.notReturned = policy.StoredOutcome(*cur, last).NotReturned
						}
					}
					ex := explainedAfter(explainEvaluation(ectx, ra.act, last), ra.act, last, ra.rereadErr)
					ra.last = &ex
				}
				recent[i] = ra
			})
		}
		wg.Wait()
		msg := policiesRecentMsg{gen: gen, recent: recent, at: c.Now(), notReturned: notReturnedOf(recent)}
		msg.held = readHeld(c, client, held, acts)
		for _, ra := range recent {
			if ra.err != "" {
				msg.unread++
				if msg.unreadErr == nil {
					msg.unreadErr = errors.New(ra.err)
				}
			}
		}
		if len(recent) > 0 && msg.unread == len(recent) {
			return policiesRecentMsg{gen: gen, err: msg.unreadErr} // nothing read: the load failed
		}
		return msg
	}
}

// finalRead is a decided activity's evaluations as a load read them, with
// the status it was decided with.
type finalRead struct {
	status string
	evals  []api.PolicyEvaluation
}

// finalEvaluations are the evaluations of the recent activities that were
// decided before they were read (completed, failed, rejected: no vote or
// evaluation can be added since), by activity id; those not read, or read
// while the activity was pending, are not among them.
func finalEvaluations(recent []recentActivity) map[string]finalRead {
	out := map[string]finalRead{}
	for _, ra := range recent {
		if ra.final && ra.err == "" && ra.rereadErr == "" {
			out[ra.act.ID] = finalRead{ra.act.Status, ra.evals}
		}
	}
	return out
}

// policiesLoaded shows the policies loaded, then loads the recent
// activities when they are wanted. A failed load keeps what was shown.
func (p *Policies) policiesLoaded(msg policiesLoadedMsg) tea.Cmd {
	if msg.gen != p.gen {
		return nil
	}
	if p.reload.end() {
		// What this load read may predate the change that asked for the
		// next one: show it, then read again; the recent evaluations follow
		// that load, and a failure here is not shown, as that load says
		// how it went.
		if msg.err == nil {
			p.takeLoaded(msg)
		}
		return p.load()
	}
	if msg.err != nil {
		p.err = "load failed: " + errorText(msg.err)
		if p.recentWanted && !p.recentLoaded && p.fetched.IsZero() {
			p.recentErr = "the policies did not load"
		}
		p.setFailed()
		p.renderDetail()
		if p.recentWanted && !p.fetched.IsZero() {
			return p.loadRecent() // with the policies last loaded
		}
		return nil
	}
	p.takeLoaded(msg)
	if p.recentWanted {
		return p.loadRecent()
	}
	return nil
}

// takeLoaded shows the policies a load read, keeping the recent activities
// shown (they load on their own).
func (p *Policies) takeLoaded(msg policiesLoadedMsg) {
	msg.data.recent, msg.data.unread, msg.data.unreadErr = p.data.recent, p.data.unread, p.data.unreadErr
	p.err, p.data, p.fetched = "", msg.data, msg.at
	p.setRows()
	p.renderDetail()
}

// takeRecent shows the recent activities loaded; a failed load keeps those
// shown and says why, where they are shown. An evaluation naming a policy
// not loaded makes the policies reload.
func (p *Policies) takeRecent(msg policiesRecentMsg) tea.Cmd {
	if msg.gen != p.recentGen {
		return nil
	}
	p.recentLoading = false
	if msg.err != nil {
		p.recentErr = errorText(msg.err)
	} else {
		p.recentErr, p.recentLoaded, p.recentFetched = "", true, msg.at
		p.notReturned = msg.notReturned
		p.data.recent, p.data.unread, p.data.unreadErr = msg.recent, msg.unread, ""
		if msg.unreadErr != nil {
			p.data.unreadErr = msg.unreadErr.Error()
		}
		if p.editor != nil {
			p.editor.setRecent(p.c, p.data.recent, msg.held)
		}
	}
	p.setRows()
	p.renderDetail()
	var exs []explained
	for _, ra := range msg.recent {
		if ra.last != nil {
			exs = append(exs, *ra.last)
		}
	}
	return p.askForUnknownPolicies(exs...)
}

// readHeld reads again the activity id chosen in the editor when it is not
// among acts (nil when it is, id is "", or the read fails: the editor then
// keeps it as read before, and says so).
func readHeld(c *Common, client Reader, id string, acts []api.Activity) *recentActivity {
	if id == "" || slices.ContainsFunc(acts, func(a api.Activity) bool { return a.ID == id }) {
		return nil
	}
	ctx, cancel := c.ctx()
	defer cancel()
	a, err := client.GetActivity(ctx, id)
	if err != nil || a == nil || a.ID != id {
		return nil
	}
	return &recentActivity{act: *a}
}
