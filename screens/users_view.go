package screens

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/ui"
)

// tagList names a user's tags, by id when no create_user_tag activity names
// it, and with its id beside a name that more than one tag holds (the service
// allows it; a policy counts one id, not the name).
func (u *Users) tagList(ids []string) string {
	out := make([]string, 0, len(ids))
	for _, id := range ids {
		switch n := u.tagNames[id]; {
		case n != "" && len(api.TagsNamed(u.tagNames, n)) > 1:
			out = append(out, api.NameText(n)+" ("+api.SanitizeID(id)+")")
		case n != "":
			out = append(out, api.NameText(n))
		default:
			out = append(out, api.SanitizeID(id))
		}
	}
	sort.Strings(out)
	return strings.Join(out, ", ")
}

// optionalText is api.NameText for a field that may be empty: nothing, rather
// than a quoted "", when the service has none.
func optionalText(s string) string {
	if s == "" {
		return ""
	}
	return api.NameText(s)
}

func (u *Users) isRootMember(id string) bool {
	for _, r := range u.c.Org.Quorum.UserIDs {
		if r == id {
			return true
		}
	}
	return false
}

func (u *Users) setRows() {
	rows := make([]ui.Row, len(u.items))
	for i, x := range u.items {
		root := ""
		if u.isRootMember(x.UserID) {
			root = "root"
		}
		nk, na := len(x.APIKeys), len(x.Authenticators)
		rows[i] = ui.Row{ID: x.UserID,
			Cells: []string{api.NameText(x.UserName), optionalText(x.UserEmail), u.tagList(x.UserTags), strconv.Itoa(nk), strconv.Itoa(na), root},
			Sort:  []string{"", "", "", fmt.Sprintf("%06d", nk), fmt.Sprintf("%06d", na)},
		}
	}
	u.list.SetRows(rows)
	u.setPreview()
}

// setPreview warns under the list about the selected user's credentials.
func (u *Users) setPreview() {
	sel := u.selected()
	if sel == nil {
		u.list.SetPreview("")
		return
	}
	th := u.c.Theme
	var lines []string
	if n := u.expiredKeys(*sel); n > 0 {
		lines = append(lines, th.Bad.Render(fmt.Sprintf("%d expired API key(s)", n)))
	}
	if u.isRootMember(sel.UserID) && !sel.CanSign(u.c.Now()) {
		lines = append(lines, th.Bad.Render("root member with no credential that can sign: cannot vote"))
	}
	u.list.SetPreview(strings.Join(lines, "\n"))
}

func (u *Users) expiredKeys(x api.User) int {
	n, now := 0, u.c.Now()
	for _, k := range x.APIKeys {
		if k.Expired(now) {
			n++
		}
	}
	return n
}

// localAndUTC shows a time in the console's zone (the clock's) and in UTC,
// to the minute.
func localAndUTC(now, t time.Time) string { return zonedTimes(now, t, "2006-01-02 15:04") }

// zonedTimes is the console's convention for a time a user may match
// against another clock: in the console's zone (the clock's), labelled, and
// in UTC when that zone is not UTC, each written with layout.
func zonedTimes(now, t time.Time, layout string) string {
	utc := t.UTC().Format(layout + " UTC")
	local := t.In(now.Location()).Format(layout + " MST")
	if _, off := t.In(now.Location()).Zone(); off == 0 && strings.HasSuffix(local, "UTC") {
		return utc
	}
	return local + " · " + utc
}

// renderDetail rebuilds the open user's detail and scrolls to the key under
// the cursor.
func (u *Users) renderDetail() {
	if u.open == nil {
		return
	}
	u.list.Pane.ShowLine(u.setDetail())
}

// setDetail rebuilds the open user's detail where it is scrolled (the ages
// counting up must not move it), and returns the line of the key under the
// cursor. The blocks that did not change come from the memo (users_blocks.go).
func (u *Users) setDetail() (cursorLine int) {
	th, now, x := u.c.Theme, u.c.Now(), u.open
	u.blocks.reset(th, u.c.OwnPublicKey)
	b := u.detailBuilder()
	if u.openGone != "" {
		b.Styled(th.Warn.Render(ui.Clean("⚠ no longer listed (" + u.openGone + "): shown as last loaded; d is off — esc goes back")))
	}
	b.Section("User")
	b.Field("name", api.NameText(x.UserName))
	b.Field("id", api.SanitizeID(x.UserID))
	b.Field("email", optionalText(x.UserEmail))
	if x.UserPhoneNumber != "" {
		b.Field("phone", x.UserPhoneNumber)
	}
	b.Field("tags", u.tagList(x.UserTags))
	b.Field("root", yesNo(u.isRootMember(x.UserID)))
	b.Field("created", fmtTime(now, x.CreatedAt))

	b.Section(fmt.Sprintf("API keys (%d, %d marked)", len(x.APIKeys), len(u.marked)))
	if len(x.APIKeys) == 0 {
		b.Line("  none")
	}
	if u.pendingErr != "" {
		b.Styled("  " + th.Warn.Render(ui.Clean("pending deletions unknown: "+u.pendingErr)))
	}
	blocks := make([]string, 0, len(x.APIKeys)+2)
	blocks = append(blocks, strings.TrimSuffix(b.String(), "\n"))
	line := b.NextLine()
	for i := range x.APIKeys {
		if i == u.cursor {
			cursorLine = line
		}
		text, n := u.keyBlock(i, now)
		blocks = append(blocks, text)
		line += n
	}
	blocks = append(blocks, u.tailBlock(now))
	u.list.Pane.SetBlocks(blocks)
	return cursorLine
}
