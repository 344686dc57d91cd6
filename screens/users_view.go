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

// tagList names a user's tags, by id when no create_user_tag activity names it.
func (u *Users) tagList(ids []string) string {
	out := make([]string, 0, len(ids))
	for _, id := range ids {
		if n := u.tagNames[id]; n != "" {
			out = append(out, api.NameText(n))
		} else {
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
// cursor.
func (u *Users) setDetail() (cursorLine int) {
	th, now, x := u.c.Theme, u.c.Now(), *u.open
	b := ui.NewDetailBuilder(th)
	b.LabelWidth = ui.LabelWidth("    credential type", "    authenticator id")
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
	for i, k := range x.APIKeys {
		mark := "[ ]"
		if u.marked[k.APIKeyID] {
			mark = "[x]"
		}
		pointer := "  "
		if i == u.cursor {
			pointer = "▸ "
			cursorLine = b.NextLine()
		}
		head := pointer + mark + " " + api.NameText(k.APIKeyName)
		var flags []string
		if exp, ok := k.Expiry(); ok && !exp.After(now) {
			flags = append(flags, th.Bad.Render("EXPIRED"))
		}
		if k.HasPublicKey(u.c.OwnPublicKey) {
			flags = append(flags, th.Warn.Render("this console's key"))
		}
		b.Styled(strings.Join(append([]string{th.Label.Render(head)}, flags...), "  "))
		if act, ok := u.pendingDeletes[k.APIKeyID]; ok {
			b.Styled("    " + th.Warn.Render(ui.Clean(pendingDeletionNote(u.c, &act))))
		}
		if doomed := u.doomedDeletes[k.APIKeyID]; len(doomed) > 0 {
			b.Styled("    " + th.Bad.Render(ui.Clean(doomedDeletionNote(doomed[0], len(doomed)-1))))
		}
		b.Field("    id", api.SanitizeID(k.APIKeyID))
		b.Field("    credential type", k.Credential.Type)
		b.Field("    created", fmtTime(now, k.CreatedAt))
		if why := k.LifetimeProblem(); why != "" {
			// As the CLI: not "never", since it may have expired already.
			b.Field("    expires", "unknown ("+why+")")
		} else if exp, ok := k.Expiry(); ok {
			b.Field("    expires", localAndUTC(now, exp))
		} else {
			b.Field("    expires", "never")
		}
		b.Field("    public key", k.Credential.PublicKey)
		if i == u.cursor {
			switch {
			case u.keyErr != "":
				b.Styled("    " + th.Bad.Render(ui.Clean(u.keyErr)))
			case u.keyInfo != nil:
				b.Styled("    " + th.Good.Render("get_api_key:") + " " + ui.Clean(fmt.Sprintf("%s, %s, updated %s", api.NameText(u.keyInfo.APIKeyName), u.keyInfo.Credential.Type, fmtTime(now, u.keyInfo.UpdatedAt))))
			}
		}
	}

	b.Section(fmt.Sprintf("Authenticators (%d)", len(x.Authenticators)))
	for _, a := range x.Authenticators {
		b.Styled(th.Label.Render("  " + api.NameText(a.AuthenticatorName)))
		b.Field("    authenticator id", api.SanitizeID(a.AuthenticatorID))
		b.Field("    credential type", a.Credential.Type)
		b.Field("    created", fmtTime(now, a.CreatedAt))
	}
	b.Section(fmt.Sprintf("OAuth providers (%d)", len(x.OauthProviders)))
	for _, p := range x.OauthProviders {
		b.Field("  "+api.NameText(p.ProviderName), p.Issuer+" · subject "+p.Subject)
	}
	pols := append([]api.MfaPolicy(nil), x.MfaPolicies...)
	sort.SliceStable(pols, func(i, j int) bool { return pols[i].Order < pols[j].Order })
	b.Section(fmt.Sprintf("MFA policies (%d)", len(pols)))
	for _, p := range pols {
		b.Field(fmt.Sprintf("  %d", p.Order), fmt.Sprintf("%s — %d step(s)", api.Quote(p.MfaPolicyName), len(p.RequiredAuthenticationMethods)))
	}
	u.list.SetDetail(b.String())
	return cursorLine
}
