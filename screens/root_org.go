package screens

import (
	"crypto/sha256"
	"encoding/json"

	tea "charm.land/bubbletea/v2"

	"github.com/vigil-console/vigil/api"
)

// reloadOrgMsg asks the root to load the organization again now (the
// Organization screen's r, a policy an evaluation names but the console does
// not know). Every load is the root's, so that each is numbered and an older
// one landing last cannot replace a newer.
type reloadOrgMsg struct{}

// orgLoads numbers the organization's loads in the order they started.
type orgLoads struct {
	started int // the last load started
	applied int // the load whose organization the console holds
	landed  int // the newest load that landed, whose error the status bar shows
	gated   int // the load the reload gate waits for (0: none)
	// covers are completed activities (orgChangedMsg.completed) each with a
	// load started after its completion was seen, which reads what it
	// changed: another sighting of it (the org watch and the Activities
	// list both see most) loads nothing more. Bounded by coversKnown.
	covers map[string]int
	// next are the completions the reload after the gated one is for, and
	// nextUnnamed whether it is for others no message named as well.
	next        []string
	nextUnnamed bool
}

// coversKnown bounds orgLoads.covers: past it, the completions of the
// oldest loads are forgotten (another sighting of one loads once more).
const coversKnown = 256

// cover records that load reads what activity id's completion changed.
func (l *orgLoads) cover(id string, load int) {
	if l.covers == nil {
		l.covers = map[string]int{}
	}
	l.covers[id] = load
	for len(l.covers) > coversKnown {
		oldest := load
		for _, n := range l.covers {
			oldest = min(oldest, n)
		}
		for id, n := range l.covers {
			if n == oldest {
				delete(l.covers, id)
			}
		}
	}
}

// loadOrg starts a numbered load of the organization.
func (r *Root) loadOrg() tea.Cmd {
	r.orgLoads.started++
	r.common.OrgLoadsStarted = r.orgLoads.started
	return loadOrg(r.common, r.orgLoads.started)
}

// orgChanged reloads the organization for completed activities: once for
// many, and once more after it for those that came while it ran (it may have
// read before them). A completion a load started after it was seen covers
// (whoever started that load) loads nothing more: one completion, one load.
func (r *Root) orgChanged(msg orgChangedMsg) tea.Cmd {
	l := &r.orgLoads
	// A load started after they were seen reads what they changed.
	startedSince := msg.seen != 0 && l.started > msg.seen
	var uncovered []string
	for _, id := range msg.completed {
		switch _, covered := l.covers[id]; {
		case covered:
		case startedSince:
			l.cover(id, l.started)
		default:
			uncovered = append(uncovered, id)
		}
	}
	unnamed := msg.unnamed || len(msg.completed) == 0
	if len(uncovered) == 0 && (!unnamed || startedSince) {
		return nil
	}
	if !r.orgReload.begin() {
		l.next = append(l.next, uncovered...)
		l.nextUnnamed = l.nextUnnamed || unnamed
		return nil
	}
	cmd := r.loadOrg()
	l.gated = l.started
	for _, id := range uncovered {
		l.cover(id, l.started)
	}
	return tea.Batch(cmd, r.broadcast(msg))
}

// orgLoaded applies a load's reply unless a load started after it was
// applied already: the older one read before it, and would bring back
// policies, members or a quorum since changed, and predictions made from
// them.
func (r *Root) orgLoaded(msg orgLoadedMsg) tea.Cmd {
	var again tea.Cmd
	if r.orgLoads.gated != 0 && msg.load == r.orgLoads.gated {
		// Only the gated load's own reply ends it: another landing meanwhile
		// would let the next completion start a reload alongside it.
		r.orgLoads.gated = 0
		if r.orgReload.end() {
			// Seen now: a load another starts before it arrives covers them.
			again = msgCmd(orgChangedMsg{completed: r.orgLoads.next, unnamed: r.orgLoads.nextUnnamed, seen: r.orgLoads.started})
		}
		r.orgLoads.next, r.orgLoads.nextUnnamed = nil, false
	}
	if msg.load < r.orgLoads.applied {
		return again
	}
	// A reload that failed half-way keeps the last whole organization,
	// however many fail in a row: its part would drop the names of users
	// and policies, the members and the policies the predictions use.
	if msg.org.Loaded && (msg.err == nil || !r.common.Org.Loaded || r.orgPartial) {
		msg.changed = orgContentsDiffer(&r.common.Org, &msg.org)
		r.common.Org = msg.org
		r.orgPartial = msg.err != nil
		r.orgLoads.applied = msg.load
	}
	if msg.load >= r.orgLoads.landed {
		r.orgLoads.landed = msg.load
		r.orgErr = ""
		if msg.err != nil {
			r.orgErr = errorText(msg.err)
		}
	}
	return tea.Batch(r.broadcast(msg), again)
}

// orgRetryMsg says the service answered (a list loaded) or is about to be
// asked again (the Activities auto-refresh, its r): an organization that is
// not loaded, or whose last load failed, is loaded again.
type orgRetryMsg struct{}

// retryOrg loads the organization again while it is not loaded or its last
// load failed (the service was down at start), one load at a time: without
// it the status bar keeps the old error and VOTES, names and the vote
// dialog's predictions stay unknown after the service came back.
func (r *Root) retryOrg() tea.Cmd {
	if r.common.Org.Loaded && r.orgErr == "" {
		return nil
	}
	if r.orgLoads.started > r.orgLoads.landed {
		return nil // the newest load is in flight
	}
	return r.loadOrg()
}

// orgContents sums what the screens show of an organization's load: its
// policies, members, quorum and features, the member's own MFA policies and
// the tag names. It runs in the load's command, off Update (the users of a
// large organization are megabytes); ok is false when they could not be
// encoded.
func orgContents(org *Org) (sum [32]byte, ok bool) {
	b, err := json.Marshal(struct {
		ID, Name, UserID string
		Quorum           api.Quorum
		Features         []api.Feature
		Users            []api.User
		Policies         []api.Policy
		OwnMfaPolicies   []api.MfaPolicy
		TagNames         map[string]string
	}{org.ID, org.Name, org.UserID, org.Quorum, org.Features, org.Users, org.Policies, org.OwnMfaPolicies, org.TagNames})
	if err != nil {
		return sum, false
	}
	return sha256.Sum256(b), true
}

// orgContentsDiffer reports whether next, a load about to be applied,
// changes what the screens show of held. One that cannot tell counts as
// changed: the screens then read again rather than keep what may be old.
func orgContentsDiffer(held, next *Org) bool {
	return !held.Loaded || !held.contentsSummed || !next.contentsSummed || held.contents != next.contents
}

// orgLoadTaken reports whether a screen takes an organization load it did
// not wait for: the load changed what the screens show (orgLoadedMsg.changed,
// whoever asked for it: a completion, the vote dialog's read, r on the
// Organization screen), the screen has data (fetched), and the load started
// after the screen's own last read began (ownReadAfter: the newest load
// started then), so it is not older than what the screen shows.
func orgLoadTaken(msg orgLoadedMsg, fetched bool, ownReadAfter int) bool {
	return msg.changed && fetched && msg.load > ownReadAfter
}
