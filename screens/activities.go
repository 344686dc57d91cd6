package screens

import (
	"slices"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/policy"
	"github.com/vigil-console/vigil/ui"
)

// pageSize is how many activities one list call asks for (the service's maximum).
const pageSize = 100

// typeChoices are the activity types the type filter offers.
func typeChoices() []string {
	var out []string
	for _, op := range api.SubmitOperations() {
		out = append(out, op.Type)
	}
	return out
}

// Activities lists activities (pending ones by default), shows one in detail, and
// votes on them.
type Activities struct {
	c    *Common
	keys activitiesKeys
	// list is the list of activities and, when one is open, its detail.
	list ui.ListDetail

	all bool // All view (false: Pending)
	// statuses and types filter the All view (none = any); the pickers set them.
	statuses []string
	types    []string
	before   string // paging cursor of the current page
	after    string
	items    []api.Activity
	orders   map[string]copyOrder // of the copies in items and settled, by id (copy_order.go)
	// first and last are the ids of the page as the service listed it (items
	// may have settled activities appended): the cursors of [ and ].
	first, last string
	older       bool // older activities (of the view's filter) follow the page
	// olderUnknown is why the look for older activities failed: whether any
	// follow the page is not known (not "none"); the next load looks again.
	olderUnknown string
	// newerUnknown is why the look for newer activities than a page asked
	// for with [ failed: the page is kept, not taken for the newest.
	newerUnknown string
	fetched      time.Time
	loading      bool
	listGen      int    // generation of list requests: stale replies are dropped
	err          string // the last refresh of the list failed: the rows are stale
	voteErr      string // the last vote failed; it does not make the rows stale
	autoGen      int    // generation of the auto-refresh tick chain
	detail       *activityDetail
	gens         fetchGens // numbers the fetches, and the arrivals of copies (copy_order.go)
	// intents is the first intent seen per activity and fingerprint, from
	// every copy the screen takes (intent_record.go).
	intents intentsSeen
	// rawSums are the last list's intent sums by the hash of each intent's
	// JSON: a refresh hashes canonically only the intents that changed.
	// Never written once made: a load command reads it off the UI goroutine.
	rawSums rawSums
	// lastVote is the vote dialog built last: the next takes the wrapped
	// rows of its lines (a 10,000-character intent is wrapped once).
	lastVote ui.Confirm
	voting   string // id of the activity whose vote is in flight
	// unsure is the vote whose outcome is unknown (no reply, and the
	// activity could not be read again) until a read of it tells.
	unsure *activityVotedMsg
	// asking is the vote dialog open on the root's stack, which follows
	// its activity while it is open.
	asking *openVote
	// bootCache holds the boot proofs fetched for app proofs, by ephemeral key,
	// for the session.
	bootCache map[string]*api.BootProof
	// width and height are the body's size (SetSize).
	width, height int
	// seen: the list shown (view, filter, page) was loaded once, so the next
	// load is compared with it (see activities_live.go, activities_moved.go).
	seen bool
	// settled are activities that left the Pending list since the last manual
	// refresh; they stay listed with their final status.
	settled map[string]*api.Activity
	// leaving are activities that left the Pending list on a refresh and
	// whose final record is being fetched, each with the number of that
	// fetch: their last copy stays listed meanwhile, so the cursor on one
	// does not fall to another row. The answer to any other fetch is not
	// the list's (the activity came back, or the list was forgotten).
	leaving map[string]int
	// leftUnread are activities that were leaving when the list was
	// forgotten (r, ], [): their rows are still the copies from before they
	// left until the list asked for answers, so they stay marked and offer
	// no vote meanwhile.
	leftUnread map[string]bool
	// announced are the activities whose settling was told (a toast, or your
	// own vote's result), for the session.
	announced map[string]bool
	// waiting are the activities seen waiting whose completion would change
	// the organization's records (activities_completed.go).
	waiting waitingSeen
	// arrivals: what the arrival notices remember (activities_arrivals.go).
	arrivals arrivalWatch
	// dialogAsk: a vote's confirm or a filter picker asked for by a key.
	dialogAsk
}

// Messages of the Activities screen.
type (
	activitiesLoadedMsg struct {
		gen   int
		sent  int // in the screen's sequence (copy_order.go)
		items []api.Activity
		// sums: intentSum of each item, worked out in the load command so
		// that a page of large intents does not stall Update.
		sums []string
		// rawSums: the sums by the hash of each intent's JSON, for the next
		// load (intent_sums.go).
		rawSums rawSums
		err     error
		at      time.Time
		// top: a page of newer activities with none newer still, which is
		// the newest page.
		top bool
		// older: activities older than the page's last follow.
		older bool
		// olderErr: the look for older activities failed, so whether any
		// follow is not known.
		olderErr error
		// newerErr: the look for newer activities failed, so whether the
		// page is the newest is not known.
		newerErr error
	}
	activityVotedMsg struct {
		id       string
		approve  bool
		activity *api.Activity
		sent     int // the vote's, in the screen's sequence (copy_order.go)
		err      error
		// current is the activity as it stood when a vote was refused: settled
		// meanwhile (said in words) or still pending (the error stands).
		current *api.Activity
		// voter is who voted, as read before the vote or with it (user ""
		// when unknown), with the key the console stamps with (which alone
		// tells a vote as the console's, when known), and before the activity as read when the vote was
		// offered: the vote looked for is voter's, new since (voteSeen).
		voter  api.Voter
		before *api.Activity
	}
	activitiesTickMsg struct{ gen int }
	// filterPickedMsg is a filter picker's choice: kind "status" or "type".
	filterPickedMsg struct {
		kind   string
		values []string
	}
)

// voteDialogID is the vote's confirm dialog on the root's stack.
const voteDialogID = "vote"

// NewActivities builds the screen; auto-refresh starts on when the profile has an
// interval.
func NewActivities(c *Common) *Activities {
	a := &Activities{c: c, keys: newActivitiesKeys()}
	if c.ReadOnly() {
		a.keys.Approve.SetHelp("a", "approve: read-only")
		a.keys.Reject.SetHelp("x", "reject: read-only")
	}
	a.list = ui.NewListDetail(c.Theme, activityColumns(c))
	a.list.Table.Empty = "no pending activities — press v to see all"
	a.list.Table.Loading = "loading the pending activities…"
	return a
}

// Title implements Screen.
func (a *Activities) Title() string { return "Activities" }

// Init loads the first page and starts auto-refresh.
func (a *Activities) Init() tea.Cmd {
	return tea.Batch(a.load(), a.tick())
}

// Capturing implements Screen: typing a filter.
func (a *Activities) Capturing() bool {
	return a.list.Filtering()
}

func (a *Activities) filterList() *ui.ListDetail { return &a.list }
func (a *Activities) filterEdited()              { a.syncKeys() }

// SetSize implements Screen: the heading takes a line, the list or the detail
// the rest.
func (a *Activities) SetSize(width, height int) {
	a.width, a.height = width, height
	a.list.SetSize(width, max(height-1, 1))
}

// Status implements Screen.
func (a *Activities) Status() ScreenStatus {
	// Only a failed refresh of the list makes the rows stale; a failed vote
	// is said, but leaves the rows as fresh as they were.
	st := ScreenStatus{LastRefresh: a.fetched, Err: a.err, Stale: a.err != "" && !a.fetched.IsZero(), Submitting: a.votesInFlight()}
	if st.Err == "" {
		st.Err = a.voteErr
	}
	if a.auto() {
		st.AutoRefresh = a.c.Refresh
	} else {
		st.AutoPaused = a.c.Refresh > 0 && a.c.LockedOut == ""
	}
	switch {
	case a.voting != "":
		st.Busy = "voting…"
	case a.loading:
		st.Busy = "loading…"
	case a.detail != nil && a.detail.loading > 0:
		st.Busy = "loading details…"
	}
	return st
}

// listOptions is the query of the current view and page.
func (a *Activities) listOptions() api.ListActivitiesOptions {
	o := api.ListActivitiesOptions{Limit: pageSize, Before: a.before, After: a.after}
	if !a.all {
		o.Statuses = []string{api.StatusConsensusNeeded}
		return o
	}
	o.Statuses = a.statuses
	o.Types = a.types
	return o
}

// load fetches the current page. A load already in flight is superseded.
func (a *Activities) load() tea.Cmd {
	a.listGen++
	a.loading = true
	gen, sent, opts, client, c, prev := a.listGen, a.gens.next(), a.listOptions(), a.c.Reader, a.c, a.rawSums
	return func() tea.Msg {
		ctx, cancel := c.ctx()
		defer cancel()
		items, err := client.ListActivities(ctx, opts)
		msg := activitiesLoadedMsg{gen: gen, sent: sent, items: items, err: err, at: c.Now()}
		if err != nil {
			return msg
		}
		msg.sums, msg.rawSums = intentSums(items, prev)
		// A page shorter than asked is not always an end: a page of large
		// activities is cut short by the service, or by the client when a
		// reply would be larger than it reads (api.ListActivities). So the
		// page's ends are asked about, in the Pending view too: a voter must
		// not take a short page of pending activities for all of them.
		// A failed look for newer ones is not "none newer": the user paging
		// back through history stays on the page asked for.
		if opts.Before != "" && len(items) == 0 {
			msg.top = true
		} else if opts.Before != "" {
			newer, err := api.ActivitiesFollow(ctx, client, opts, items[0].ID, false)
			msg.top, msg.newerErr = err == nil && !newer, err
		}
		if n := len(items); n > 0 {
			msg.older = n == opts.Limit
			if !msg.older {
				msg.older, msg.olderErr = api.ActivitiesFollow(ctx, client, opts, items[n-1].ID, true)
			}
		}
		return msg
	}
}

// lists reports whether the current view's filter takes act: its status (the
// Pending view's is CONSENSUS_NEEDED) and its type.
func (a *Activities) lists(act api.Activity) bool {
	o := a.listOptions()
	return (len(o.Statuses) == 0 || slices.Contains(o.Statuses, act.Status)) &&
		(len(o.Types) == 0 || slices.Contains(o.Types, act.Type))
}

// paged reports whether the page shown is not the newest.
// unsearched says which pages the list's `/` filter leaves out, as its
// filter line shows it: it searches the loaded page only, and "no rows
// match" on one page of thousands must not read as "no such activity".
// "" when the page is the whole list.
func (a *Activities) unsearched() string {
	older := a.older || a.olderUnknown != ""
	switch {
	case older && a.paged():
		return "older and newer pages not searched (] [)"
	case older:
		return "older pages not searched (])"
	case a.paged():
		return "newer pages not searched ([)"
	}
	return ""
}

func (a *Activities) paged() bool { return a.before != "" || a.after != "" }

// auto reports whether the list refreshes itself: the profile has an
// interval and the user has not paused it (on this screen or on Users).
func (a *Activities) auto() bool { return a.c.Refresh > 0 && !a.c.AutoPaused && a.c.LockedOut == "" }

// tick schedules the next auto-refresh tick. The chain runs on while paused,
// idle, so that a resume on another screen (Users) needs no restart here.
func (a *Activities) tick() tea.Cmd {
	if a.c.Refresh <= 0 || a.c.LockedOut != "" {
		return nil
	}
	gen := a.autoGen
	return a.c.Tick(a.c.Refresh, func(time.Time) tea.Msg { return activitiesTickMsg{gen: gen} })
}

// selected is the activity the keys act on: the open one, or the selected row.
func (a *Activities) selected() *api.Activity {
	if a.detail != nil {
		return &a.detail.activity
	}
	i := a.list.Table.Selected()
	if i < 0 || i >= len(a.items) {
		return nil
	}
	return &a.items[i]
}

// voteBlock says why a vote on act is not possible now, or "" when it is.
func (a *Activities) voteBlock(act *api.Activity, approve bool) string {
	switch {
	case act == nil:
		return "nothing selected"
	case a.c.ReadOnly():
		return ErrReadOnly.Error()
	case approve && a.swappedIntent(act):
		return swapRefusal(a.intents.seenSwap(act.ID, act.Fingerprint), act)
	case a.voting != "":
		return "a vote is already in flight"
	case a.isLeaving(act.ID) || a.leftUnread[act.ID]:
		// Its row is the copy from before it left: the vote it offers may
		// be one the service has already closed.
		verb := "reject"
		if approve {
			verb = "approve"
		}
		return "you cannot " + verb + " this activity now: it left the Pending list and its final record is being read — wait, or press r"
	case approve && !act.CanApprove:
		return cannotVoteText(a.c, act, "approve")
	case !approve && !act.CanReject:
		return cannotVoteText(a.c, act, "reject")
	}
	return ""
}

// cannotVoteText says why the service offers no vote on act, as the service
// decides it: the activity is no longer pending, you voted, or you are not
// one of its voters (root quorum members vote on everything; others only
// where a policy's consensus asks for them).
func cannotVoteText(c *Common, act *api.Activity, verb string) string {
	cannot := "you cannot " + verb + " this activity: "
	own := ownVote(c, act)
	mine, unchecked := own.Mine(), ""
	if own.Unchecked != "" {
		unchecked = " (" + own.Unchecked + ")"
	}
	switch {
	case act.Status != api.StatusConsensusNeeded:
		return cannot + "it is no longer pending (" + shortStatus(act.Status) + ")"
	case own.Doubt != "":
		// Not "you already voted": a vote that FAILED may be a copy, and
		// the member's vote may not be in.
		return cannot + "the service offers you no vote on it, and " + own.Doubt + ": whether you voted is not known (see its votes)"
	case mine != nil && mine.Selection == api.VoteRejected:
		return cannot + "you already rejected it" + unchecked + ", and a vote cannot be changed"
	case mine != nil:
		// Said only to the requester: another member who approved would be
		// told a request of theirs counted, which none did.
		requested := ""
		if c.Org.UserID != "" && policy.SubmitterOf(*act) == c.Org.UserID {
			requested = " (a request counts as its requester's approval)"
		}
		return cannot + "you already approved it" + unchecked + requested + ", and a vote cannot be changed"
	case c.voter().OtherKeyVote(act) != nil:
		// Not "press r" nor "not a voter": the user voted, with another credential.
		return cannot + otherKeyVoteText(c.voter().OtherKeyVote(act))
	case c.Org.UserID == "":
		return cannot + "the service does not offer you a vote on it (the organization is not loaded, so the console cannot say why)"
	case slices.Contains(c.Org.Quorum.UserIDs, c.Org.UserID):
		return cannot + "the service does not offer you a vote on it although you are in the root quorum: press r to refresh"
	}
	return cannot + "you are not one of its voters (not in the root quorum, and no policy asks for your approval of it)"
}

// syncKeys enables the keys that would do something now; help shows the others
// struck through.
func (a *Activities) syncKeys() {
	act := a.selected()
	a.keys.Approve.SetEnabled(a.voteBlock(act, true) == "")
	a.keys.Reject.SetEnabled(a.voteBlock(act, false) == "")
	a.keys.CopyID.SetEnabled(act != nil)
	a.keys.CopyFP.SetEnabled(act != nil)
	a.list.Keys.Open.SetEnabled(act != nil && a.detail == nil)
	a.keys.Status.SetEnabled(a.all && a.detail == nil)
	a.keys.Type.SetEnabled(a.all && a.detail == nil)
	// When the look for older ones failed, ] stays: an empty page says so.
	a.keys.NextPage.SetEnabled(a.detail == nil && (a.older || a.olderUnknown != "") && a.last != "")
	a.keys.PrevPage.SetEnabled(a.detail == nil && a.paged())
	a.list.Table.Unsearched = a.unsearched()
	a.keys.AutoRefresh.SetEnabled(a.c.Refresh > 0)
	a.keys.Mode.SetEnabled(a.detail == nil)
	a.keys.Filter.SetEnabled(true) // in an open activity: back to the list, filtering
	a.list.Keys.Sort.SetEnabled(a.detail == nil)
	a.list.Keys.ReverseSort.SetEnabled(a.detail == nil)
	a.list.Keys.Back.SetEnabled(a.detail != nil)
}

// Update implements Screen: update, then the open detail's evaluations not
// yet explained are explained in a command (activities_explain.go), and an
// open vote dialog follows its activity through whatever the message
// changed (vote_follow.go).
func (a *Activities) Update(msg tea.Msg) (Screen, tea.Cmd) {
	// Noted first: what the message does (a vote's keys, the dialog) reads
	// the record.
	swapped := a.noteCopies(msg)
	completed := a.waiting.completedIn(copiesIn(msg))
	seen := a.c.OrgLoadsStarted
	s, cmd := a.update(msg)
	if len(completed) > 0 {
		cmd = tea.Batch(cmd, msgCmd(orgChangedMsg{completed: completed, seen: seen}))
	}
	if swapped {
		// A copy the list or the detail did not take (an older one) may
		// have shown the swap: both say it now.
		a.setRows()
		if a.detail != nil {
			a.detail.render(a.c)
		}
		a.syncKeys()
	}
	if a.detail != nil {
		cmd = tea.Batch(cmd, a.detail.explain(a.c))
	}
	loaded, orgChanged := msg.(orgLoadedMsg)
	_, ticked := msg.(clockMsg)
	cmd = tea.Batch(cmd, a.followVoteDialog(orgChanged, ticked))
	if orgChanged {
		a.rereadLanded(loaded) // after the dialog restated what the load changed
	}
	return s, cmd
}

// update handles msg (Update explains what it leaves unexplained and keeps
// the vote dialog in step).
func (a *Activities) update(msg tea.Msg) (Screen, tea.Cmd) {
	defer a.syncKeys()
	switch msg := msg.(type) {
	case themeChangedMsg:
		a.list.SetTheme(a.c.Theme)
		if a.detail != nil {
			a.detail.render(a.c)
		}
	case clockMsg:
		// Ages count up between refreshes; rebuilding a page of rows is cheap.
		// Hidden, the screen redraws when shown (Root.showActive); the vote
		// dialog follows the tick all the same (Update).
		if msg.unseen {
			return a, nil
		}
		if len(a.items) <= 10*pageSize {
			a.setRows()
		}
		if a.detail != nil {
			a.detail.followClock(a.c)
		}
	case opSubmittedMsg:
		return a, a.submitted(msg)
	case orgLoadedMsg:
		a.setRows()
		if a.detail != nil {
			a.detail.render(a.c)
		}
	case activitiesLoadedMsg:
		if msg.gen != a.listGen {
			return a, nil
		}
		a.loading = false
		if msg.err != nil {
			// Keep the last data on screen; the status bar says when it was fetched.
			var logIt tea.Cmd
			if a.err == "" { // log the first failure, not every tick
				log, text := a.c.Log, ui.Clean(msg.err.Error())
				logIt = func() tea.Msg { log.Warn("refresh failed", "err", text); return nil }
			}
			a.err = "refresh failed: " + errorText(msg.err)
			a.list.Table.Failed = notLoaded(a.fetched, a.err)
			return a, logIt
		}
		a.list.Table.Failed = ""
		if msg.top {
			// Nothing newer than this page: it is the newest page, shown as
			// such (full, and followed by the refreshes).
			a.before = ""
			if len(msg.items) < pageSize {
				return a, a.load()
			}
		}
		a.leftUnread = nil // the rows are the service's now (not before the early return above: it keeps the old rows)
		under, refreshed := a.underCursor(), a.seen
		fresh, orders := a.keepFresher(msg.items, copyOrder{msg.sent, a.gens.next()})
		announce := tea.Batch(a.announce(a.items, fresh), a.fetchDropped(a.items, fresh))
		for _, it := range fresh {
			delete(a.leaving, it.ID) // back on the page: nothing left
		}
		for _, id := range a.keptIDs() {
			if _, listed := orders[id]; !listed {
				orders[id] = a.orders[id]
			}
		}
		a.err, a.items, a.orders, a.fetched, a.older = "", a.withSettled(a.items, fresh), orders, msg.at, msg.older
		a.olderUnknown, a.newerUnknown = "", ""
		if msg.olderErr != nil {
			a.olderUnknown = probeWhy(msg.olderErr)
		}
		if msg.newerErr != nil {
			a.newerUnknown = probeWhy(msg.newerErr)
		}
		if a.unsure == nil {
			a.voteErr = "" // a vote whose outcome is unknown stays said until a read of it tells
		}
		if !a.all {
			a.list.Table.Empty = "no pending activities — press v to see all"
			if a.paged() {
				a.list.Table.Empty = "no older pending activities here — [ goes back"
			}
		}
		a.first, a.last = "", ""
		if len(msg.items) > 0 {
			a.first, a.last = msg.items[0].ID, msg.items[len(msg.items)-1].ID
		}
		if a.onFirstPending() {
			a.tookFirstPending(msg.items)
		}
		a.seen = true
		a.list.Table.SetRead(true)
		moved := a.setRows()
		var follow tea.Cmd
		if a.detail != nil {
			for _, it := range fresh {
				if it.ID == a.detail.activity.ID {
					follow = a.detail.follow(a.c, it, orders[it.ID])
				}
			}
		}
		return a, tea.Batch(announce, follow, a.saidMoved(under, refreshed, moved), a.readAsked(), msgCmd(orgRetryMsg{}))
	case voteDialogRecordMsg:
		return a, a.followAskedRecord(msg)
	case activitySettledMsg:
		return a, a.settledActivity(msg)
	case pendingTopPolledMsg:
		return a, a.polledPendingTop(msg)
	case waitingRecordMsg:
		return a, a.droppedUnread(msg)
	case lockOutLiftedMsg:
		a.autoGen++ // the lock-out ended the chain; a fresh one
		return a, a.tick()
	case activitiesTickMsg:
		if msg.gen != a.autoGen {
			return a, nil
		}
		if !a.auto() {
			return a, a.tick()
		}
		poll := a.pollPendingTop()
		if a.loading || a.voting != "" {
			return a, tea.Batch(poll, a.tick())
		}
		// An open detail follows its activity, listed or not (another member's
		// vote changes its status, votes and what you can do).
		var follow tea.Cmd
		if a.detail != nil {
			follow = a.detail.loadRecord(a.c)
		}
		return a, tea.Batch(a.load(), poll, follow, a.recheckVote(), a.tick(), msgCmd(orgRetryMsg{}))
	case filterPickedMsg:
		if msg.kind == "status" {
			a.statuses = msg.values
		} else {
			a.types = msg.values
		}
		a.before, a.after = "", ""
		return a, tea.Batch(a.clearList(), a.load())
	case savedFilterMsg:
		return a, a.applySavedFilter(msg.filter)
	case ShowActivityMsg:
		act := api.Activity{ID: msg.ID}
		if msg.Activity != nil {
			act = *msg.Activity
		}
		return a, tea.Batch(a.show(act), a.load())
	case activityVotedMsg:
		return a, a.voted(msg)
	case voteRecheckedMsg:
		return a, a.rechecked(msg)
	case activityMfaMsg:
		a.detail.applyMfa(msg, a.c)
	case activityDetailMsg:
		if a.detail != nil {
			before, beforeOrder := a.detail.activity, a.detail.order
			order := copyOrder{msg.sent, a.gens.next()}
			a.detail.apply(msg, order, a.c)
			if ask := a.askOrgForUnknownPolicies(); ask != nil {
				return a, ask
			}
			if msg.activity != nil && msg.err == nil {
				a.replace(*msg.activity, order)
				if msg.id == before.ID && !olderOrdered(*msg.activity, order, before, beforeOrder, a.c.Now()) && recordChanged(before, *msg.activity) {
					// A vote changed it: its evaluations (and, once executed,
					// its app proofs) are new too.
					return a, a.detail.loadExtras(a.c)
				}
			}
			if msg.proofs != nil && msg.err == nil && msg.id == a.detail.activity.ID {
				return a, a.verifyAppProofs()
			}
		}
	case explainedMsg:
		return a, a.takeExplained(msg)
	case appProofVerifiedMsg:
		a.appProofVerified(msg)
	case tea.KeyPressMsg:
		return a, a.handleKey(msg)
	default:
		if a.detail != nil {
			var cmd tea.Cmd
			a.list, cmd = a.list.Update(msg)
			return a, cmd
		}
	}
	return a, nil
}

// pressed reports whether k is one of b's keys, enabled or not.
func pressed(k tea.KeyPressMsg, b key.Binding) bool {
	return slices.Contains(b.Keys(), k.String())
}

// show opens an activity another screen submitted, so its progress (votes,
// status) is followed here; it is added to the list if the list lacks it and
// the view's filter would list it (a submit that completed at once is not
// pending).
func (a *Activities) show(act api.Activity) tea.Cmd {
	// The list's cursor is where the member left it, under this detail as
	// under the one it replaces (closeDetail).
	cursorRow := a.underCursor()
	if a.detail != nil {
		cursorRow = a.detail.cursorRow
		a.detail = nil
		a.list.Close()
	}
	handed := copyOrder{arrived: a.gens.next()}
	if a.lists(act) && !slices.ContainsFunc(a.items, func(x api.Activity) bool { return x.ID == act.ID }) {
		a.items = append([]api.Activity{act}, a.items...)
		a.setOrder(act.ID, handed) // another screen's copy: read before now, not known when
		a.setRows()
	}
	a.detail = newActivityDetail(a.c, act, handed, &a.list.Pane, &a.gens, &a.intents)
	a.detail.cursorRow = cursorRow
	a.list.Open()
	return a.detail.load(a.c)
}
