package screens

import (
	"context"
	"fmt"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/ui"
)

// pendingKeyDeletions lists the delete_api_keys activities waiting for votes
// that name userID (api.PendingKeyDeletions, which `vigil apikey delete`
// reads too).
func pendingKeyDeletions(ctx context.Context, client Reader, userID string) ([]api.Activity, error) {
	return api.PendingKeyDeletions(ctx, client, userID)
}

// doomedDeletion is a pending delete_api_keys of the open user that cannot
// succeed: the service deletes its keys one by one in one transaction and
// fails the whole activity on an id that is not a key of the user (or is
// named twice), so none of its keys is deleted. Anyone can file one to make
// a key look as good as deleted.
type doomedDeletion struct {
	act api.Activity
	why string // what in it is not a key of the user
}

// sortPending splits the open user's pending deletions by what they would
// do to the keys of the record as it stands: pendingDeletes maps a key to
// the newest activity that would delete it, doomedDeletes to those that
// name it but would fail.
func (u *Users) sortPending() {
	u.pendingDeletes, u.doomedDeletes = nil, nil
	if u.open == nil || u.pendingActs == nil {
		return
	}
	keys := map[string]bool{}
	for _, k := range u.open.APIKeys {
		keys[k.APIKeyID] = true
	}
	var doomed map[string][]api.DoomedKeyDeletion
	u.pendingDeletes, doomed = api.SortKeyDeletions(u.pendingActs, keys)
	u.doomedDeletes = map[string][]doomedDeletion{}
	for id, ds := range doomed {
		for _, d := range ds {
			u.doomedDeletes[id] = append(u.doomedDeletes[id], doomedDeletion{act: d.Activity, why: whyDeletionFails(d)})
		}
	}
}

// maxNamedStrangers bounds the ids a doomed deletion's note names.
const maxNamedStrangers = 2

// whyDeletionFails says what makes a doomed delete_api_keys fail against
// the user's keys.
func whyDeletionFails(d api.DoomedKeyDeletion) string {
	switch {
	case len(d.Strangers) == 1:
		return "names " + shownIDs(d.Strangers) + ", not a key of this user"
	case len(d.Strangers) > 1:
		return "names " + shownIDs(d.Strangers) + ", not keys of this user"
	}
	return "names " + shownIDs(d.Twice) + " twice"
}

// shownIDs names the first few ids, each cut short: they come from whoever
// filed the activity.
func shownIDs(ids []string) string {
	var out []string
	for _, id := range ids[:min(len(ids), maxNamedStrangers)] {
		out = append(out, ansi.Truncate(api.SanitizeID(id), 40, "…"))
	}
	if more := len(ids) - maxNamedStrangers; more > 0 {
		out = append(out, fmt.Sprintf("and %d more", more))
	}
	return strings.Join(out, ", ")
}

// pendingDeletesLoadedMsg carries the pending deletions read for an open
// record.
type pendingDeletesLoadedMsg struct {
	gen     int
	at      time.Time
	pending []api.Activity
	err     error
}

// loadPending reads the pending delete_api_keys for the open record: only
// then, so that starting the console lists no more than it did.
func (u *Users) loadPending() tea.Cmd {
	u.pendingGen++
	if u.open == nil || u.lockedOut != "" {
		return nil
	}
	gen, c, client, userID := u.pendingGen, u.c, u.c.Reader, u.open.UserID
	return func() tea.Msg {
		ctx, cancel := c.ctx()
		defer cancel()
		pending, err := pendingKeyDeletions(ctx, client, userID)
		return pendingDeletesLoadedMsg{gen: gen, at: c.Now(), pending: pending, err: err}
	}
}

// pendingRefreshMsg is the open record's auto-refresh of its pending
// deletions: another member may propose or decide one meanwhile.
type pendingRefreshMsg struct{ gen int }

// polling reports whether the open record reads its pending deletions again
// at the profile's refresh interval: only while the screen shows it.
func (u *Users) polling() bool {
	return u.c.Refresh > 0 && u.open != nil && !u.hidden && !u.c.AutoPaused && u.lockedOut == "" && u.c.LockedOut == ""
}

// toggleAutoRefresh pauses or resumes auto-refresh, Activities' too (the
// pause is the console's): here it is the open user's poll.
func (u *Users) toggleAutoRefresh() tea.Cmd {
	if u.c.Refresh <= 0 {
		return ui.Toast("auto-refresh is off in this profile (refresh = \"30s\" turns it on)", true)
	}
	if c := u.c; c.LockedOut != "" {
		return ui.Toast("auto-refresh stays off: "+c.LockedOut, true)
	}
	u.c.AutoPaused = !u.c.AutoPaused
	u.pendingTicks++ // the running poll stops; a resumed one starts afresh
	if u.c.AutoPaused {
		return ui.Toast("auto-refresh paused", false)
	}
	return tea.Batch(ui.Toast("auto-refresh every "+u.c.Refresh.String(), false), u.resumePending())
}

// pendingTick schedules the next auto-refresh of the open record's pending
// deletions, at the profile's refresh interval (none when it is off).
func (u *Users) pendingTick() tea.Cmd {
	if !u.polling() {
		return nil
	}
	gen := u.pendingTicks
	return u.c.Tick(u.c.Refresh, func(time.Time) tea.Msg { return pendingRefreshMsg{gen: gen} })
}

// resumePending restarts the open record's poll when the screen is shown
// again, reading at once what changed while it was hidden.
func (u *Users) resumePending() tea.Cmd {
	if u.open == nil {
		return nil
	}
	u.pendingTicks++
	return tea.Batch(u.loadPending(), u.pendingTick())
}

// refreshPending reads the pending deletions again while the record that
// started the chain is open.
func (u *Users) refreshPending(m pendingRefreshMsg) tea.Cmd {
	if m.gen != u.pendingTicks || !u.polling() {
		return nil
	}
	return tea.Batch(u.loadPending(), u.pendingTick())
}

func (u *Users) takePending(m pendingDeletesLoadedMsg) {
	if m.gen != u.pendingGen {
		return
	}
	u.pendingActs, u.pendingErr = m.pending, ""
	if m.err != nil {
		u.pendingErr = errorText(m.err)
	} else {
		u.pendingAt = m.at
	}
	u.sortPending()
	u.renderDetail()
}

// pendingDeletionNote is the record's line for a key a pending
// delete_api_keys names.
func pendingDeletionNote(c *Common, act *api.Activity) string {
	return fmt.Sprintf("pending deletion: activity %s, %s votes — approve it in Activities",
		api.SanitizeID(act.ID), votesCell(c, act))
}

// doomedDeletionNote is the record's line for a key a pending
// delete_api_keys names that cannot succeed; more says how many others do.
func doomedDeletionNote(d doomedDeletion, more int) string {
	note := fmt.Sprintf("pending deletion %s will fail: %s", api.SanitizeID(d.act.ID), d.why)
	if more > 0 {
		note += fmt.Sprintf(" (%d more will fail too)", more)
	}
	return note
}

// doomedAmong are the pending deletions naming these keys that will fail,
// each once.
func (u *Users) doomedAmong(keys []api.APIKey) []doomedDeletion {
	var out []doomedDeletion
	seen := map[string]bool{}
	for _, k := range keys {
		for _, d := range u.doomedDeletes[k.APIKeyID] {
			if !seen[d.act.ID] {
				seen[d.act.ID] = true
				out = append(out, d)
			}
		}
	}
	return out
}

// pendingAmong are the keys that a pending delete_api_keys already names.
func (u *Users) pendingAmong(keys []api.APIKey) []api.APIKey {
	var out []api.APIKey
	for _, k := range keys {
		if _, ok := u.pendingDeletes[k.APIKeyID]; ok {
			out = append(out, k)
		}
	}
	return out
}

// offerPendingDeletion answers d on keys whose deletion is already proposed:
// a second, identical activity would only split the votes, so the dialog
// offers to open the pending one instead.
func (u *Users) offerPendingDeletion(keys, pending []api.APIKey) tea.Cmd {
	act := u.pendingDeletes[pending[0].APIKeyID]
	lines := []string{"A delete_api_keys waiting for votes already names:"}
	for _, k := range pending {
		a := u.pendingDeletes[k.APIKeyID]
		lines = append(lines, "  • "+api.NameText(k.APIKeyName), fmt.Sprintf("    activity %s, %s votes", api.SanitizeID(a.ID), votesCell(u.c, &a)))
	}
	lines = append(lines, "Nothing new is proposed: approve the pending activity instead.")
	if len(pending) < len(keys) {
		lines = append(lines, "To delete the other marked keys, unmark these (space) and press d again.")
	}
	lines = append(lines, "", "Open activity "+api.SanitizeID(act.ID)+" in Activities?")
	c := ui.NewConfirm("Deletion already pending", "open it", lines...)
	return u.askDialog(NewConfirmDialog(deleteKeysDialogID+".pending", c, msgCmd(ShowActivityMsg{ID: act.ID, Activity: &act}), nil))
}

// deletionOutcome says what submitting this delete_api_keys would actually
// do, by the console's reading of the policies (the vote dialog's reasoning);
// when it cannot tell, what the root quorum must do, as the set-feature
// confirm says it.
func (u *Users) deletionOutcome(userID string, keyIDs []string) []string {
	act := api.Activity{Type: api.TypeDeleteAPIKeys, Status: api.StatusCreated, CreatedAt: api.NewTime(u.c.Now()),
		Intent: api.Intent{DeleteAPIKeysIntent: &api.DeleteAPIKeysParams{UserID: userID, APIKeyIDs: keyIDs}}}
	cons := voteConsequence(u.c, &act, true)
	if cons == "" {
		return append(rootQuorumApproval(u.c.Org.Quorum),
			"The keys keep working until then (unless a policy allows it sooner); once deleted, they cannot be restored.")
	}
	switch predictedOutcomeOf(cons) {
	case predictsRuns:
		return []string{"Once submitted, " + cons + ":", "the keys stop authenticating at once; this cannot be undone."}
	case predictsWaits:
		return []string{"Once submitted, it waits for approvals:",
			"  " + strings.TrimPrefix(cons, "it still waits — ") + ".",
			"The keys keep working until it completes;",
			"then they stop at once, and that cannot be undone."}
	case predictsFails:
		return []string{"Once submitted, " + cons + "; the keys are not deleted."}
	}
	// The console cannot tell ("cannot tell: …"): the keys may stop at
	// once, so nothing here may say they stay.
	return []string{"Once submitted: " + cons + ".",
		"The keys may stop authenticating at once, or after approvals; once deleted, they cannot be restored."}
}
