package screens

import (
	"fmt"
	"slices"

	tea "charm.land/bubbletea/v2"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/ui"
)

const deleteKeysDialogID = "users.delete_api_keys"

type (
	// deleteKeysConfirmedMsg is the confirm's yes: the user and keys it
	// showed; resend: the earlier request is sent again.
	deleteKeysConfirmedMsg struct {
		userID string
		keyIDs []string
		resend bool
	}
	keysDeletedMsg struct {
		userID   string
		keyIDs   []string
		resent   bool
		activity *api.Activity
		err      error
	}
)

func (u *Users) whyNoDelete() string {
	switch {
	case u.c.ReadOnly():
		return ErrReadOnly.Error()
	case u.lockedOut != "":
		return u.lockedOut
	case u.deleting != nil:
		return "a deletion is in flight"
	case u.open != nil && u.openGone != "":
		return "user " + api.SanitizeID(u.open.UserID) + " is no longer listed (" + u.openGone + "): press esc and open another"
	case u.open != nil && u.pendingDeletes == nil:
		// Without them a second deletion of the same keys could be proposed.
		return "still reading the pending deletions of these keys; press d again in a moment"
	}
	return ""
}

// toDelete are the marked keys, or the key under the cursor when none is marked,
// in the user's order.
func (u *Users) toDelete() []api.APIKey {
	var out []api.APIKey
	for _, k := range u.open.APIKeys {
		if u.marked[k.APIKeyID] {
			out = append(out, k)
		}
	}
	if len(out) == 0 && u.cursor < len(u.open.APIKeys) {
		out = append(out, u.open.APIKeys[u.cursor])
	}
	return out
}

// deleteWarnings are what deleting these keys would break
// (keyDeletionWarnings), the open record being the freshest reading of its
// user.
func (u *Users) deleteWarnings(x api.User, keys []api.APIKey) []string {
	ids := make([]string, len(keys))
	for i, k := range keys {
		ids[i] = k.APIKeyID
	}
	users := slices.Clone(u.items)
	if i := slices.IndexFunc(users, func(v api.User) bool { return v.UserID == x.UserID }); i >= 0 {
		users[i] = x
	} else {
		users = append(users, x)
	}
	return keyDeletionWarnings(u.c, users, x, ids)
}

// confirmDelete asks before delete_api_keys, naming the keys and their owner.
func (u *Users) confirmDelete() tea.Cmd {
	if why := u.whyNoDelete(); why != "" {
		return ui.Toast(why, true)
	}
	if u.open == nil || len(u.open.APIKeys) == 0 {
		return nil
	}
	if gone := u.marksGone; len(gone) > 0 && len(u.marked) == 0 {
		// The user pressed d for the keys marked: the key under the cursor
		// is not what they chose. Said once; the next d takes the cursor's.
		u.marksGone = nil
		return ui.Toast(marksGoneText(gone)+": nothing is marked now; d again deletes the key under the cursor, space marks keys", true)
	}
	u.marksGone = nil
	x := *u.open
	keys := u.toDelete()
	pending := u.pendingAmong(keys)
	lines := []string{fmt.Sprintf("Delete %d API key(s) of %s (%s):", len(keys), api.NameText(x.UserName), api.SanitizeID(x.UserID))}
	ids := make([]string, len(keys))
	for i, k := range keys {
		ids[i] = k.APIKeyID
		lines = append(lines, fmt.Sprintf("  • %s  %s", api.NameText(k.APIKeyName), api.SanitizeID(k.APIKeyID)))
	}
	// What the deletion would lock out, and the pending deletions it would
	// fail against, are flagged as the vote dialog flags them: drawn as
	// warnings, and counted in "↓ N more (K warnings)" when below the window.
	warn := map[int]bool{}
	flag := func(ws []string) {
		for _, w := range ws {
			warn[len(lines)] = true
			lines = append(lines, w)
		}
	}
	flag(u.deleteWarnings(x, keys))
	lines = append(lines, u.deletionOutcome(x.UserID, ids)...)
	resend := u.earlier.resends(deletionValues(x.UserID, ids))
	if len(pending) > 0 && !resend {
		// A resend is the same body: it returns the activity it created, so
		// it never duplicates; anything else would.
		return u.offerPendingDeletion(keys, pending)
	}
	flag(doomedLines(u.doomedAmong(keys)))
	switch {
	case resend:
		lines = append(lines, "", "The earlier delete_api_keys got no clear answer: "+resendNote+".")
	case u.earlier != nil:
		lines = u.earlier.appendWarning(append(lines, ""), warn)
	}
	c := ui.NewConfirm("Delete API keys?", "delete", lines...)
	c.Warn = warn
	return u.askDialog(NewConfirmDialogMsg(deleteKeysDialogID, c, deleteKeysConfirmedMsg{userID: x.UserID, keyIDs: ids, resend: resend}, nil))
}

// deletionValues is what a delete_api_keys request is built from.
func deletionValues(userID string, keyIDs []string) string {
	return formValues(api.DeleteAPIKeysParams{UserID: userID, APIKeyIDs: keyIDs})
}

// deleteKeys submits delete_api_keys for what the confirm showed.
func (u *Users) deleteKeys(m deleteKeysConfirmedMsg) tea.Cmd {
	client, err := u.c.submitter()
	if err != nil {
		return ui.Toast(errorText(err), true)
	}
	if u.deleting != nil { // two confirms answered: one deletion, not two
		return ui.Toast("delete_api_keys is already being submitted; wait for its answer", true)
	}
	owner := api.SanitizeID(m.userID)
	if n := u.c.Org.UserNames[m.userID]; n != "" {
		owner = api.NameText(n)
	}
	u.deleting = submissionOf("delete_api_keys", fmt.Sprintf("delete_api_keys (%d API key(s) of %s)", len(m.keyIDs), owner))
	c := u.c
	if m.resend && u.earlier.resends(deletionValues(m.userID, m.keyIDs)) {
		cmd := u.earlier.resend(c, func(act *api.Activity, err error) tea.Msg {
			if err != nil {
				err = fmt.Errorf("delete %d API key(s) of %s: %w", len(m.keyIDs), api.SanitizeID(m.userID), err)
			}
			return keysDeletedMsg{userID: m.userID, keyIDs: m.keyIDs, resent: true, activity: act, err: err}
		})
		return tea.Batch(ui.Toast("delete_api_keys: "+resendNote, false), cmd)
	}
	u.earlier = nil // a new request, confirmed over the warning
	return func() tea.Msg {
		ctx, cancel := c.ctx()
		defer cancel()
		act, err := client.DeleteAPIKeys(ctx, api.DeleteAPIKeysParams{UserID: m.userID, APIKeyIDs: m.keyIDs})
		if err != nil {
			err = fmt.Errorf("delete %d API key(s) of %s: %w", len(m.keyIDs), api.SanitizeID(m.userID), err)
		}
		act, err = activityOrError(act, err)
		return keysDeletedMsg{userID: m.userID, keyIDs: m.keyIDs, activity: act, err: err}
	}
}

// keysDeleted reports the outcome and reloads; an activity that waits for votes
// is opened in Activities.
func (u *Users) keysDeleted(m keysDeletedMsg) tea.Cmd {
	u.deleting = nil
	u.earlier = u.earlier.afterSubmit("delete_api_keys", deletionValues(m.userID, m.keyIDs), m.resent, m.err)
	if m.err != nil {
		u.err = answerText("delete_api_keys", m.resent, m.err)
		if u.earlier != nil {
			u.err += " — " + u.earlier.hint()
		}
		return ui.Toast(u.err, true)
	}
	// Only the marks of the keys just submitted are done with, and only in
	// their owner's record: marks made while the request was in flight are
	// the user's next choice, and d must act on them, not on the cursor.
	if u.open != nil && u.open.UserID == m.userID {
		for _, id := range m.keyIDs {
			delete(u.marked, id)
		}
		u.renderDetail()
	}
	act := *m.activity
	if own := u.ownKeyDeleted(m.userID, m.keyIDs); own != nil && act.Status == api.StatusCompleted {
		u.lockOut(m.userID, m.keyIDs, own, &act)
		return tea.Batch(submittedNotice("delete_api_keys", &act, m.resent, ""), ui.Toast(u.lockedOut, true))
	}
	cmds := []tea.Cmd{u.load(), submittedNotice("delete_api_keys", &act, m.resent, "")}
	if act.Status != api.StatusCompleted {
		cmds = append(cmds, msgCmd(ShowActivityMsg{ID: act.ID, Activity: &act}))
	}
	return tea.Batch(cmds...)
}

// doomedLines tell the confirm about the pending deletions of these keys that
// will fail: they delete nothing, so they are no reason not to propose this one.
func doomedLines(doomed []doomedDeletion) []string {
	var out []string
	for i, d := range doomed {
		if i == maxNamedStrangers {
			out = append(out, fmt.Sprintf("(and %d more that will fail)", len(doomed)-i))
			break
		}
		out = append(out, "The "+doomedDeletionNote(d, 0)+";")
	}
	if len(out) > 0 {
		out = append(out, "  a deletion that fails deletes no key, so this one is proposed anyway.")
	}
	return out
}
