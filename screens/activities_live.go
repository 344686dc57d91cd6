package screens

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/ui"
)

// The live console: what changed between two refreshes of the Pending list is
// announced (an activity completed, was rejected, a new one arrived — waiting for
// your vote), settled activities stay on the list with their final status until
// the next manual refresh, and an open detail follows its activity.

// activitySettledMsg brings the final record of an activity that left the
// Pending list.
type activitySettledMsg struct {
	id       string
	sent     int // in the screen's sequence (copy_order.go)
	activity *api.Activity
	err      error
}

// maxNewToasts is how many arrivals get a toast each; more say how many.
const maxNewToasts = 2

// watching reports whether refreshes are compared: any page of the Pending
// view, after a first successful load of that page. Only the first page
// announces arrivals; on every page an activity that leaves stays listed
// with its final status, so the cursor on it does not fall to another row.
func (a *Activities) watching() bool {
	return !a.all && a.seen
}

// announce compares the pending list before and after a refresh: it fetches the
// final record of every activity that left it (answered by activitySettledMsg)
// and announces the new ones.
func (a *Activities) announce(prev, next []api.Activity) tea.Cmd {
	if !a.watching() {
		return nil
	}
	inNext := map[string]bool{}
	for _, it := range next {
		inNext[it.ID] = true
	}
	var cmds []tea.Cmd
	for _, it := range prev {
		// Its status may already be final (an open detail's reload got there
		// first), so what decides is whether it was announced.
		if !inNext[it.ID] && !a.announced[it.ID] && !a.isLeaving(it.ID) {
			cmds = append(cmds, a.fetchSettled(it.ID))
		}
	}
	if a.paged() {
		// An older page has no arrivals to tell: what is new is on the first.
		return tea.Batch(cmds...)
	}
	var arrived []api.Activity
	for _, it := range arrivalsIn(prev, next) {
		if a.settled[it.ID] == nil {
			arrived = append(arrived, it)
		}
	}
	return tea.Batch(append(cmds, a.announceArrivals(arrived))...)
}

// fetchSettled fetches the final record of activity id, which left the
// list: it is leaving until this fetch answers.
func (a *Activities) fetchSettled(id string) tea.Cmd {
	sent := a.gens.next()
	if a.leaving == nil {
		a.leaving = map[string]int{}
	}
	a.leaving[id] = sent
	return getActivity(a.c, id, func(act *api.Activity, err error) tea.Msg {
		return activitySettledMsg{id: id, sent: sent, activity: act, err: err}
	})
}

// waitsForYou reports whether act asks for your vote (and this console can vote).
func (a *Activities) waitsForYou(act *api.Activity) bool {
	return !a.c.ReadOnly() && (act.CanApprove || act.CanReject)
}

// announceArrivals toasts new activities and, for those waiting for your vote,
// rings the terminal (OSC 9 and OSC 777 desktop notifications, and a bell) when
// the profile says notify = true.
func (a *Activities) announceArrivals(arrived []api.Activity) tea.Cmd {
	if len(arrived) == 0 {
		return nil
	}
	var cmds []tea.Cmd
	yours := 0
	for i := range arrived {
		act := &arrived[i]
		if a.waitsForYou(act) {
			yours++
		}
		if len(arrived) <= maxNewToasts {
			text := "new: " + intentWhat(a.c, act) + " by " + requester(a.c, act)
			if a.waitsForYou(act) {
				text += " — waits for your vote"
			}
			cmds = append(cmds, ui.Toast(text, false))
		}
	}
	if len(arrived) > maxNewToasts {
		text := fmt.Sprintf("%d new pending activities", len(arrived))
		if yours > 0 {
			text += fmt.Sprintf(", %d waiting for your vote", yours)
		}
		cmds = append(cmds, ui.Toast(text, false))
	}
	if yours > 0 && a.c.Notify {
		text := "an activity waits for your vote"
		if yours > 1 {
			text = fmt.Sprintf("%d activities wait for your vote", yours)
		}
		cmds = append(cmds, tea.Raw(notification(text)))
	}
	return tea.Batch(cmds...)
}

// notification is a desktop notification as OSC 9 (iTerm2, WezTerm, kitty…) and
// OSC 777 (rxvt, foot, Ghostty…), then a bell for terminals that know neither.
// The text is the console's own, never the server's.
func notification(text string) string {
	return "\x1b]9;vigil: " + text + "\x07" + "\x1b]777;notify;vigil;" + text + "\x07" + "\a"
}

// settledActivity records an activity that left the Pending list: it stays
// listed with its final status, the open detail follows it, and a toast says
// what happened (unless your own vote decided it: that vote has its toast).
// A record that answers a fetch the list no longer waits for (the activity
// came back on the page, or ], [, v, r or a saved filter showed another
// list) changes nothing on the list: the list it was fetched for is gone.
func (a *Activities) settledActivity(msg activitySettledMsg) tea.Cmd {
	sent, waited := a.leaving[msg.id]
	forList := waited && sent == msg.sent
	if forList {
		delete(a.leaving, msg.id)
	}
	if msg.err != nil || msg.activity == nil {
		if !forList {
			return nil
		}
		// Gone from the list and unreadable: nothing to say for sure of it,
		// but the cursor must not move to another row unsaid.
		return a.dropLeft(msg.id, "its record could not be read")
	}
	act, order := *msg.activity, copyOrder{msg.sent, a.gens.next()}
	if act.Status == api.StatusConsensusNeeded {
		if !forList {
			return nil
		}
		where := "on an older page (])"
		if a.paged() {
			where = "on another page ([ or ])"
		}
		return a.dropLeft(act.ID, "it still waits for votes, "+where)
	}
	if a.announced[act.ID] {
		return nil
	}
	if forList {
		a.keepSettled(act, order)
	} else {
		// Not listed, but it settled all the same: told once.
		a.markAnnounced(act.ID)
	}
	follow := a.followOpen(act, order)
	if decider(&act) == a.c.Org.UserID && a.c.Org.UserID != "" {
		return follow
	}
	return tea.Batch(ui.Toast(settledText(a.c, &act), act.Status != api.StatusCompleted), follow)
}

// dropLeft takes off the list the copy kept of an activity that left the
// Pending list and turned out not to have settled (or could not be read).
// When the cursor was on it, it says so: the next a, x or enter would act on
// another row.
func (a *Activities) dropLeft(id, why string) tea.Cmd {
	i := slices.IndexFunc(a.items, func(it api.Activity) bool { return it.ID == id })
	if i < 0 || a.settled[id] != nil {
		return nil
	}
	sel := a.selected()
	wasSelected := a.detail == nil && sel != nil && sel.ID == id
	what := intentWhat(a.c, &a.items[i])
	a.items = slices.Delete(a.items, i, i+1)
	moved := a.setRows()
	if !wasSelected {
		return nil
	}
	return ui.Toast("the activity under the cursor left the Pending list ("+what+"): "+why+"; "+cursorWent(moved), true)
}

// isLeaving reports whether the final record of activity id, which left the
// Pending list, is being fetched.
func (a *Activities) isLeaving(id string) bool {
	_, ok := a.leaving[id]
	return ok
}

// markAnnounced records that the settling of activity id was told.
func (a *Activities) markAnnounced(id string) {
	if a.announced == nil {
		a.announced = map[string]bool{}
	}
	a.announced[id] = true
}

// forgetSettled drops the activities kept on the Pending list after they
// left it: the list is shown as the service has it once it is read again.
// Until then the rows of those that were leaving stay marked (leftUnread).
func (a *Activities) forgetSettled() {
	for id := range a.leaving {
		if a.leftUnread == nil {
			a.leftUnread = map[string]bool{}
		}
		a.leftUnread[id] = true
	}
	a.settled, a.leaving = nil, nil
}

// keptIDs are the activities listed though not on the fetched page.
func (a *Activities) keptIDs() []string {
	ids := make([]string, 0, len(a.settled)+len(a.leaving))
	for id := range a.settled {
		ids = append(ids, id)
	}
	for id := range a.leaving {
		ids = append(ids, id)
	}
	return ids
}

// keepSettled keeps act on the Pending list with its final status.
func (a *Activities) keepSettled(act api.Activity, order copyOrder) {
	if a.all {
		return
	}
	if a.settled == nil {
		a.settled = map[string]*api.Activity{}
	}
	a.markAnnounced(act.ID)
	i := slices.IndexFunc(a.items, func(it api.Activity) bool { return it.ID == act.ID })
	if i < 0 && !a.watching() {
		// It left the newest page of Pending, and another page is shown now
		// (] was pressed before its record came): settled activities belong
		// to the page they settled on.
		return
	}
	a.settled[act.ID] = &act
	a.setOrder(act.ID, order)
	if i >= 0 {
		a.items[i] = act
	} else {
		a.items = append(a.items, act)
	}
	a.setRows()
}

// olderCopy reports whether x is an older copy of the activity than is at
// the console's now: a list or a record fetched before a vote and answered
// after it is one. It is never true both ways, so which copy newestCopy and
// keepFresher keep does not depend on the order they meet them. A settled
// status wins over a pending one; then the later updatedAt, when both have
// one and they differ; only when those tie do the votes tell (olderVotes).
// Fewer votes alone does not make a copy older: the service drops the votes
// of an ended round, with the same status and updatedAt (vote_rounds.go).
func olderCopy(x, than api.Activity, now time.Time) bool {
	if x.ID != than.ID {
		return false
	}
	if settled := api.IsTerminal(than.Status); settled != api.IsTerminal(x.Status) {
		return settled
	}
	if xu, tu := x.UpdatedAt, than.UpdatedAt; !xu.IsZero() && !tu.IsZero() && !xu.Time().Equal(tu.Time()) {
		return xu.Time().Before(tu.Time())
	}
	return olderVotes(&x, &than, now)
}

// keepFresher is a fetched page in which every activity the screen holds a
// newer copy of (your vote's reply, a settled record, the open detail) stays
// as held: a list fetched before your vote and answered after it must not
// put the old status back on the row.
// The page's copies arrived as order; orders is that of each copy returned.
func (a *Activities) keepFresher(items []api.Activity, order copyOrder) (out []api.Activity, orders map[string]copyOrder) {
	type heldCopy struct {
		act   api.Activity
		order copyOrder
	}
	held, now := map[string]heldCopy{}, a.c.Now()
	hold := func(x api.Activity, o copyOrder) {
		if prev, ok := held[x.ID]; !ok || olderOrdered(prev.act, prev.order, x, o, now) {
			held[x.ID] = heldCopy{x, o}
		}
	}
	for _, it := range a.items {
		hold(it, a.orders[it.ID])
	}
	for _, s := range a.settled {
		hold(*s, a.orders[s.ID])
	}
	if a.detail != nil {
		hold(a.detail.activity, a.detail.order)
	}
	out, orders = slices.Clone(items), make(map[string]copyOrder, len(items))
	for i, it := range out {
		orders[it.ID] = order
		if h, ok := held[it.ID]; ok && olderOrdered(it, order, h.act, h.order, now) {
			out[i], orders[it.ID] = h.act, h.order
		}
	}
	return out, orders
}

// setOrder records when the copy of activity id now in the list arrived.
func (a *Activities) setOrder(id string, order copyOrder) {
	if a.orders == nil {
		a.orders = map[string]copyOrder{}
	}
	a.orders[id] = order
}

// replace puts a fresher copy of an activity in the list. An older copy (a
// record fetched before your vote, answered after it) is ignored: it would
// put the old status back on the row and offer the vote again.
func (a *Activities) replace(act api.Activity, order copyOrder) {
	for i := range a.items {
		if a.items[i].ID == act.ID {
			if olderOrdered(act, order, a.items[i], a.orders[act.ID], a.c.Now()) {
				return
			}
			a.items[i] = act
			a.setOrder(act.ID, order)
			a.setRows()
			return
		}
	}
}

// withSettled is a fresh pending list with the activities that left it kept
// after it: the settled ones, and those whose final record is on its way
// (their last copy, prev being the list before the refresh).
func (a *Activities) withSettled(prev, items []api.Activity) []api.Activity {
	if a.all || len(a.settled)+len(a.leaving) == 0 {
		return items
	}
	out := slices.Clone(items)
	for _, s := range a.keptOrder(prev) {
		if !slices.ContainsFunc(items, func(it api.Activity) bool { return it.ID == s.ID }) {
			out = append(out, s)
		}
	}
	return out
}

// keptOrder is the settled and leaving activities, newest first.
func (a *Activities) keptOrder(prev []api.Activity) []api.Activity {
	out := make([]api.Activity, 0, len(a.settled)+len(a.leaving))
	for _, s := range a.settled {
		out = append(out, *s)
	}
	for _, it := range prev {
		if a.isLeaving(it.ID) && a.settled[it.ID] == nil {
			out = append(out, it)
		}
	}
	slices.SortFunc(out, func(x, y api.Activity) int { return y.CreatedAt.Time().Compare(x.CreatedAt.Time()) })
	return out
}

// decider is the user whose vote settled act: the last rejection of a rejected
// activity, else the last approval.
func decider(act *api.Activity) string {
	want := api.VoteApproved
	if act.Status == api.StatusRejected {
		want = api.VoteRejected
	}
	for i := len(act.Votes) - 1; i >= 0; i-- {
		if act.Votes[i].Selection == want {
			return act.Votes[i].UserID
		}
	}
	return ""
}

// voterName is the name of a user who voted on act: "your" when the vote is
// the console's own (isOwnVote: by its key when that is known).
func voterName(c *Common, act *api.Activity, userID string) string {
	if userID != "" && userID == c.Org.UserID && !c.voter().KeyKnown() {
		return "your"
	}
	name := ""
	for i := range act.Votes {
		v := &act.Votes[i]
		if v.UserID != userID {
			continue
		}
		if isOwnVote(c, v) {
			return "your"
		}
		if name == "" {
			name = voterText(c, v)
		}
	}
	return orElse(name, userName(c, userID))
}

// settledText says how an activity left the Pending list: "completed after
// carol's approval: delete 1 API key of operator", "rejected by bob: …".
func settledText(c *Common, act *api.Activity) string {
	what := intentWhat(c, act)
	who := decider(act)
	switch act.Status {
	case api.StatusCompleted:
		if who == "" {
			return "completed: " + what
		}
		name := voterName(c, act, who)
		if name != "your" {
			name += "'s"
		}
		return "completed after " + name + " approval: " + what
	case api.StatusRejected:
		if who == "" {
			return "rejected: " + what
		}
		name := voterName(c, act, who)
		if name == "your" {
			name = "you"
		}
		return "rejected by " + name + ": " + what
	case api.StatusFailed:
		text := "failed: " + what
		if act.Failure != nil {
			text += " — " + ui.Clean(act.Failure.Message)
		}
		return text
	}
	return what + ": now " + shortStatus(act.Status)
}

// staleVoteText says, in words, that a vote was refused because the activity
// had settled before it arrived; "" when it had not.
func staleVoteText(c *Common, verb string, act *api.Activity) string {
	if act == nil || act.Status == api.StatusConsensusNeeded {
		return ""
	}
	return "your " + verb + " was not counted: the activity had already " +
		strings.ToLower(strings.TrimSuffix(settledVerb(act.Status), ":")) + " — " + settledText(c, act)
}

func settledVerb(status string) string {
	switch status {
	case api.StatusCompleted:
		return "completed"
	case api.StatusRejected:
		return "been rejected"
	case api.StatusFailed:
		return "failed"
	}
	return "left the pending list (" + shortStatus(status) + ")"
}

// orgChangedMsg says an activity completed while the console watched: what the
// other screens show (policies, users, tags, MFA policies, features) and what
// the vote dialog reasons with (Common.Org) may have changed. The root reloads
// the organization and every screen that has loaded data reloads it. The
// Activities screen sends it from the copies it is handed
// (activities_completed.go), the root from its org watch (org_watch.go).
// Both may see one completion: the root loads once for it (Root.orgChanged).
type orgChangedMsg struct {
	// completed are the activities seen completed; unnamed: others may have
	// too, which it does not name (as when more arrived than the org watch
	// reads). None named counts as unnamed.
	completed []string
	unnamed   bool
	// seen is the newest organization load started when they were seen
	// (Common.OrgLoadsStarted; 0: not known): a load numbered above it
	// started after, and reads what they changed.
	seen int
}

// ownVote is the console user's vote on act, nil when there is none (or the
// user is not known yet): the one the console's key signed, when the key is
// known (Common.voter), and only when it verifies as a vote on act of a
// known selection (api.Voter.OwnVote), or when vigil cannot check it
// (Unchecked says why: most often it was shown without its signed
// message); otherwise Doubt says why a vote under the key is not told as
// theirs (a copy from another activity).
func ownVote(c *Common, act *api.Activity) api.OwnVoteCheck {
	return c.voter().OwnVote(act, "")
}

// isOutcomeUnknown reports a vote whose reply never came.
func isOutcomeUnknown(err error) bool { return errors.Is(err, api.ErrOutcomeUnknown) }
