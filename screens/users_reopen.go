package screens

import (
	"slices"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/ui"
)

// reopen shows the user's fresh record after a reload, keeping the marks that
// still name one of its keys and the cursor on the key it was on, by id. The
// marks of keys gone meanwhile are dropped and said (the toast it returns),
// never silently, and so is a cursor whose key is gone: d and i would
// otherwise act on other keys than the ones chosen. A user no longer listed
// stays shown as last loaded, marked gone, with d off.
func (u *Users) reopen(id string) tea.Cmd {
	i := slices.IndexFunc(u.items, func(x api.User) bool { return x.UserID == id })
	if i < 0 {
		return u.holdGoneUser()
	}
	before := u.open.APIKeys
	var at *api.APIKey // the key under the cursor before the reload
	if u.cursor < len(before) {
		at = &before[u.cursor]
	}
	u.open, u.openGone = &u.items[i], ""
	var gone []string
	for _, k := range before {
		if u.marked[k.APIKeyID] && !u.hasKey(k.APIKeyID) {
			gone = append(gone, api.NameWithID(k.APIKeyName, k.APIKeyID))
		}
	}
	for k := range u.marked {
		if !u.hasKey(k) {
			delete(u.marked, k)
		}
	}
	var said []string
	if len(gone) > 0 {
		u.marksGone = append(u.marksGone, gone...)
		said = append(said, marksGoneText(gone)+"; their marks were dropped")
	}
	j := -1
	if at != nil {
		j = slices.IndexFunc(u.open.APIKeys, func(k api.APIKey) bool { return k.APIKeyID == at.APIKeyID })
	}
	if j >= 0 {
		u.cursor = j
	} else {
		u.cursor = min(u.cursor, max(len(u.open.APIKeys)-1, 0))
		if at != nil {
			said = append(said, cursorGoneText(*at, u.open.APIKeys, u.cursor))
		}
	}
	// get_api_key's answer, reply or error, was about the key under the
	// cursor before the reload, which may be another now.
	u.keyInfo, u.keyErr = nil, ""
	u.sortPending() // against the keys as they stand now
	u.renderDetail()
	if len(said) == 0 {
		return nil
	}
	return ui.Toast(strings.Join(said, "; "), true)
}

func (u *Users) hasKey(id string) bool {
	return slices.ContainsFunc(u.open.APIKeys, func(x api.APIKey) bool { return x.APIKeyID == id })
}

// cursorGoneText says that the key under the cursor is gone, and which key
// the cursor is on now.
func cursorGoneText(was api.APIKey, keys []api.APIKey, cursor int) string {
	s := "the API key " + api.NameWithID(was.APIKeyName, was.APIKeyID) + " under the cursor is gone (deleted meanwhile)"
	if len(keys) == 0 {
		return s + "; the user has no API keys now"
	}
	k := keys[cursor]
	return s + "; the cursor is on " + api.NameWithID(k.APIKeyName, k.APIKeyID) + " now"
}

// holdGoneUser keeps the open record, as last loaded, when a reload no
// longer lists its user, and says so once: closing it silently would leave
// the user wondering where it went, and a deletion of its keys could not
// be checked against a fresh record.
func (u *Users) holdGoneUser() tea.Cmd {
	if u.openGone != "" {
		return nil // said already
	}
	last := *u.open // u.items no longer holds it
	u.open = &last
	u.openGone = "the service no longer lists this user"
	clear(u.marked)
	u.marksGone = nil
	u.pendingTicks++ // its pending deletions are not polled any more
	u.renderDetail()
	return ui.Toast("user "+api.NameWithID(last.UserName, last.UserID)+" is no longer listed: shown as last loaded; d is off — esc goes back", true)
}
