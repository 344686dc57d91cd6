package screens

import (
	"fmt"
	"strings"
	"time"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/ui"
	"github.com/vigil-console/vigil/ui/theme"
)

// detailBlocks memoises the rendered blocks of the open user's record: an
// ↑/↓ changes two key blocks of a record that may have thousands, and
// rendering them all cost each keystroke time in proportion to the keys.
// A block is reused only while everything it shows is the same: the record
// (a reload brings new ones, so a key added or deleted is never missed), the
// theme, the mark, the pending-deletion notes and the times as shown ("3m
// ago", EXPIRED), which are computed again each time to be compared.
type detailBlocks struct {
	theme  *theme.Theme
	ownKey string
	keys   map[string]keyBlock // by API key id
	tail   tailBlock
}

// keyBlockKey is what a key's block shows, less the cursor (the block under
// it is rendered each time).
type keyBlockKey struct {
	key             *api.APIKey
	marked          bool
	age             string // the key's age as shown ("3m")
	expired         bool
	pending, doomed string // the notes of pending deletions naming the key
}

type keyBlock struct {
	keyBlockKey
	text  string
	lines int
}

// tailBlock is the sections under the API keys, and what they show.
type tailBlock struct {
	user *api.User
	ages string // the authenticators' ages as shown
	text string
}

// reset drops the blocks rendered with another theme or key of this console.
func (c *detailBlocks) reset(th *theme.Theme, ownKey string) {
	if c.theme != th || c.ownKey != ownKey || c.keys == nil {
		*c = detailBlocks{theme: th, ownKey: ownKey, keys: map[string]keyBlock{}}
	}
}

// detailBuilder starts a block of the user's record.
func (u *Users) detailBuilder() *ui.DetailBuilder {
	b := ui.NewDetailBuilder(u.c.Theme)
	b.LabelWidth = ui.LabelWidth("    credential type", "    authenticator id")
	return b
}

// keyBlock is the block of the i-th API key of the open user, and its line
// count, from the memo unless under the cursor or changed.
func (u *Users) keyBlock(i int, now time.Time) (string, int) {
	k := &u.open.APIKeys[i]
	want := keyBlockKey{key: k, marked: u.marked[k.APIKeyID], age: ageShown(now, k.CreatedAt)}
	if exp, ok := k.Expiry(); ok && !exp.After(now) {
		want.expired = true
	}
	if act, ok := u.pendingDeletes[k.APIKeyID]; ok {
		want.pending = pendingDeletionNote(u.c, &act)
	}
	if doomed := u.doomedDeletes[k.APIKeyID]; len(doomed) > 0 {
		want.doomed = doomedDeletionNote(doomed[0], len(doomed)-1)
	}
	if i == u.cursor {
		text := u.renderKeyBlock(want, true, now)
		return text, strings.Count(text, "\n") + 1
	}
	if c, ok := u.blocks.keys[k.APIKeyID]; ok && c.keyBlockKey == want {
		return c.text, c.lines
	}
	c := keyBlock{keyBlockKey: want, text: u.renderKeyBlock(want, false, now)}
	c.lines = strings.Count(c.text, "\n") + 1
	u.blocks.keys[k.APIKeyID] = c
	return c.text, c.lines
}

// renderKeyBlock renders a key's block; the one under the cursor is pointed
// at and shows what get_api_key said of it.
func (u *Users) renderKeyBlock(s keyBlockKey, cursor bool, now time.Time) string {
	th, k := u.c.Theme, s.key
	b := u.detailBuilder()
	mark := "[ ]"
	if s.marked {
		mark = "[x]"
	}
	pointer := "  "
	if cursor {
		pointer = "▸ "
	}
	head := pointer + mark + " " + api.NameText(k.APIKeyName)
	var flags []string
	if s.expired {
		flags = append(flags, th.Bad.Render("EXPIRED"))
	}
	if k.HasPublicKey(u.c.OwnScheme, u.c.OwnPublicKey) {
		flags = append(flags, th.Warn.Render("this console's key"))
	}
	b.Styled(strings.Join(append([]string{th.Label.Render(head)}, flags...), "  "))
	if s.pending != "" {
		b.Styled("    " + th.Warn.Render(ui.Clean(s.pending)))
	}
	if s.doomed != "" {
		b.Styled("    " + th.Bad.Render(ui.Clean(s.doomed)))
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
	if cursor {
		switch {
		case u.keyErr != "":
			b.Styled("    " + th.Bad.Render(ui.Clean(u.keyErr)))
		case u.keyInfo != nil:
			b.Styled("    " + th.Good.Render("get_api_key:") + " " + ui.Clean(fmt.Sprintf("%s, %s, updated %s", api.NameText(u.keyInfo.APIKeyName), u.keyInfo.Credential.Type, fmtTime(now, u.keyInfo.UpdatedAt))))
		}
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// tailBlock is the sections under the API keys, from the memo unless changed.
func (u *Users) tailBlock(now time.Time) string {
	x := u.open
	var ages strings.Builder
	for _, a := range x.Authenticators {
		ages.WriteString(ageShown(now, a.CreatedAt))
		ages.WriteByte('\n')
	}
	if t := u.blocks.tail; t.user == x && t.ages == ages.String() {
		return t.text
	}
	b := u.detailBuilder()
	b.Section(fmt.Sprintf("Authenticators (%d)", len(x.Authenticators)))
	for _, a := range x.Authenticators {
		b.Styled(u.c.Theme.Label.Render("  " + api.NameText(a.AuthenticatorName)))
		b.Field("    authenticator id", api.SanitizeID(a.AuthenticatorID))
		b.Field("    credential type", a.Credential.Type)
		b.Field("    created", fmtTime(now, a.CreatedAt))
	}
	b.Section(fmt.Sprintf("OAuth providers (%d)", len(x.OauthProviders)))
	for _, p := range x.OauthProviders {
		b.Field("  "+api.NameText(p.ProviderName), p.Issuer+" · subject "+p.Subject)
	}
	pols := api.MfaPoliciesInOrder(x.MfaPolicies)
	b.Section(fmt.Sprintf("MFA policies (%d)", len(pols)))
	for _, p := range pols {
		b.Field(fmt.Sprintf("  %d", p.Order), fmt.Sprintf("%s — %d step(s)", api.Quote(p.MfaPolicyName), len(p.RequiredAuthenticationMethods)))
	}
	// The blank line Section puts above a section that follows another.
	u.blocks.tail = tailBlock{user: x, ages: ages.String(), text: "\n" + b.String()}
	return u.blocks.tail.text
}

// ageShown is the part of fmtTime(now, t) that changes with now.
func ageShown(now time.Time, t api.Time) string {
	if t.IsZero() {
		return ""
	}
	return ui.Ago(now, t.Time())
}
