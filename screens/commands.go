package screens

import (
	"charm.land/bubbles/v2/key"
)

// keyCommand is a palette entry that does what binding b does on its screen. A
// disabled binding shows as unavailable, with why.
func keyCommand(name string, b key.Binding, why string) Command {
	c := Command{Name: name, Key: b.Help().Key, Run: pressKey(b)}
	if !b.Enabled() {
		c.Disabled = why
	}
	return c
}

// Commands of the Activities screen, for the palette.
func (a *Activities) Commands() []Command {
	k := a.keys
	return append([]Command{
		keyCommand("refresh", k.Refresh, "busy"),
		keyCommand("toggle auto-refresh", k.AutoRefresh, "auto-refresh is off in this profile (refresh = \"30s\" turns it on)"),
		keyCommand("pending/all activities", k.Mode, "not while an activity is open"),
		keyCommand("open activity", a.list.Keys.Open, "nothing selected"),
		keyCommand("list app proofs of activity (open it)", a.list.Keys.Open, "nothing selected"),
		keyCommand("sort by next column", a.list.Keys.Sort, "not while an activity is open"),
		keyCommand("reverse sort", a.list.Keys.ReverseSort, "not while an activity is open"),
		keyCommand("approve activity", k.Approve, a.voteBlock(a.selected(), true)),
		keyCommand("reject activity", k.Reject, a.voteBlock(a.selected(), false)),
		keyCommand("copy activity id", k.CopyID, "nothing selected"),
		keyCommand("copy activity fingerprint", k.CopyFP, "nothing selected"),
		keyCommand("status filter", k.Status, "only in the All view (v)"),
		keyCommand("type filter", k.Type, "only in the All view (v)"),
		keyCommand("older page", k.NextPage, "no older page"),
		keyCommand("newer page", k.PrevPage, "already on the newest page"),
		keyCommand("new operation (the operation forms)", k.NewOperation, ""),
	}, a.savedFilterCommands()...)
}

// Commands of the Boot proofs screen.
func (b *BootProofs) Commands() []Command {
	k := b.keys
	return []Command{
		keyCommand("refresh (fetch and verify boot proofs again)", k.Refresh, "no enclave apps configured"),
		keyCommand("open boot proof report", b.list.Keys.Open, "no app selected, or a report is open"),
		keyCommand("sort boot proofs by next column", b.list.Keys.Sort, "not while a report is open"),
		keyCommand("copy value under the cursor", k.Copy, "open a report first"),
	}
}

// Commands of the Organization screen.
func (o *Organization) Commands() []Command {
	o.syncKeys()
	return []Command{keyCommand("refresh", o.keys.Refresh, ""), keyCommand("set feature", o.gkeys.Set, o.whyNoSet())}
}
