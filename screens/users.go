package screens

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/ui"
)

// Users lists the organization's users with their tags, API keys and
// authenticators; a user's detail lists the keys, which can be marked and
// deleted (users_delete.go).
type Users struct {
	c     *Common
	keys  usersKeys
	list  ui.ListDetail
	items []api.User
	// tagNames maps user tag id -> name, from completed create_user_tag
	// activities (SPEC.md has no query for tags).
	tagNames map[string]string
	// pendingActs are the open user's delete_api_keys waiting for votes,
	// read when a record opens (nil until then); pendingErr says why they
	// are unknown. pendingDeletes maps an API key id to the newest that
	// would delete it, doomedDeletes to those that name it but would fail
	// (users_pending.go sortPending).
	pendingActs    []api.Activity
	pendingDeletes map[string]api.Activity
	doomedDeletes  map[string][]doomedDeletion
	pendingErr     string
	pendingGen     int
	// pendingTicks is the generation of the open record's auto-refresh of
	// its pending deletions (a record closed, or the screen hidden, stops
	// its chain).
	pendingTicks int
	// hidden: another screen is active, so the open record does not poll.
	hidden bool
	// pendingAt is when the open record's pending deletions were last read:
	// while the record is open, the status bar's refreshed time.
	pendingAt time.Time
	// activities: the console submitted or voted since the pending deletions
	// were read, so the open record reads them again when shown.
	activities staleOnChange
	gen        int
	loading    bool
	// orgAwaited is the organization load whose users a completion
	// elsewhere makes the list take (orgChangedMsg), instead of reading
	// them again; 0 when none is awaited.
	orgAwaited int
	// ownReadAfter is the newest organization load started when the list's
	// own read began (orgLoadTaken).
	ownReadAfter int
	err          string
	fetched      time.Time
	stale        bool // the last load failed: the list is from fetched
	// lockedOut says that a deletion this console made removed its own
	// signing key: nothing it reads or submits can succeed any more.
	lockedOut string
	width     int
	height    int
	// Open detail: the user, the API key under the cursor, the marked keys and
	// the get_api_key record of the key under the cursor, when fetched.
	open   *api.User
	cursor int
	marked map[string]bool
	// marksGone names the marked keys a reload found gone (deleted
	// meanwhile), until the next d or mark: d then says so rather than fall
	// back to the key under the cursor, which the user never chose.
	marksGone []string
	// openGone says why the last reload no longer lists the open user (""
	// while listed): the record shows as last loaded, marked, and d is off.
	openGone string
	keyInfo  *api.APIKey
	keyErr   string
	deleting *Submission // the delete_api_keys in flight
	// earlier is a delete_api_keys whose outcome is unknown, sent again when
	// the same keys of the same user are deleted.
	earlier *earlierSubmit
	// dialogAsk: the deletion's confirm asked for by d.
	dialogAsk
	// blocks memoises the open record's rendered blocks (users_blocks.go).
	blocks detailBlocks
}

type (
	usersLoadedMsg struct {
		gen      int
		users    []api.User
		tagNames map[string]string
		err      error
		at       time.Time
	}
	apiKeyLoadedMsg struct {
		id  string
		key *api.APIKey
		err error
	}
)

// NewUsers builds the screen.
func NewUsers(c *Common) *Users {
	u := &Users{c: c, keys: newUsersKeys(), marked: map[string]bool{}}
	u.list = ui.NewListDetail(c.Theme, []ui.Column{
		{Title: "USER", Width: 8, Max: 24},
		{Title: "EMAIL", Width: 8, Grow: true},
		{Title: "TAGS", Width: 6, Max: 30},
		{Title: "KEYS", Width: 4},
		{Title: "AUTHN", Width: 5},
		{Title: "ROOT", Width: 4},
	})
	// space marks a key (usersKeys.Mark): f and pgdn page down.
	u.list.Pane.PageDownWithoutSpace()
	u.list.Table.Empty = "no users"
	u.list.Table.Loading = "loading the users…"
	return u
}

// Title implements Screen.
func (u *Users) Title() string { return "Users" }

// Init implements Screen.
func (u *Users) Init() tea.Cmd { return u.load() }

// Capturing implements Screen.
func (u *Users) Capturing() bool { return u.list.Filtering() }

func (u *Users) filterList() *ui.ListDetail { return &u.list }
func (u *Users) filterEdited()              { u.setPreview(); u.syncKeys() }

// SetSize implements Screen: the heading takes a line.
func (u *Users) SetSize(width, height int) {
	u.width, u.height = width, height
	u.list.SetSize(width, max(height-1, 1))
	u.renderDetail()
}

// Status implements Screen.
func (u *Users) Status() ScreenStatus {
	st := ScreenStatus{LastRefresh: u.fetched, Err: u.err, Stale: u.stale && !u.fetched.IsZero(), Submitting: submissions(u.deleting)}
	if u.open != nil && u.pendingAt.After(st.LastRefresh) {
		st.LastRefresh = u.pendingAt
	}
	switch {
	case u.polling():
		st.AutoRefresh = u.c.Refresh
	case u.open != nil && u.c.Refresh > 0 && u.c.AutoPaused:
		st.AutoPaused = true
	}
	switch {
	case u.deleting != nil:
		st.Busy = "submitting delete_api_keys…"
	case u.loading:
		st.Busy = "loading users…"
	}
	return st
}

// load fetches the users and the tag names.
func (u *Users) load() tea.Cmd {
	if u.lockedOut != "" {
		return nil // every read would be refused (lockOut)
	}
	u.gen++
	u.loading = true
	u.ownReadAfter = u.c.OrgLoadsStarted
	gen, c, client := u.gen, u.c, u.c.Reader
	return func() tea.Msg {
		ctx, cancel := c.ctx()
		defer cancel()
		users, err := client.ListUsers(ctx)
		if err != nil {
			return usersLoadedMsg{gen: gen, err: fmt.Errorf("list users: %w", err), at: c.Now()}
		}
		names := map[string]string{}
		if slices.ContainsFunc(users, func(x api.User) bool { return len(x.UserTags) > 0 }) {
			// Tag names are best effort: without them a tag shows by id.
			names, _ = tagNames(ctx, client)
		}
		return usersLoadedMsg{gen: gen, users: users, tagNames: names, at: c.Now()}
	}
}

// takeUsers shows the users loaded and reopens the open one.
func (u *Users) takeUsers(users []api.User, tagNames map[string]string, at time.Time) tea.Cmd {
	u.list.Table.Failed = ""
	u.list.Table.SetRead(true)
	u.err, u.stale, u.items, u.tagNames, u.fetched = "", false, users, tagNames, at
	u.setRows()
	if u.open != nil {
		gone := u.reopen(u.open.UserID)
		if u.openGone == "" {
			return tea.Batch(gone, u.loadPending()) // a deletion may have been proposed or decided
		}
		return gone
	}
	return nil
}

// takeOrgLoad shows the users of the organization load awaited
// (orgAwaited), of a later one, or of any that changed them
// (orgLoadTaken), and reports whether it was: the reload reads the user
// list once, at the root, not again here (at a large organization it is
// megabytes). A load that failed, even in part, makes the list read them
// itself, as it did before.
func (u *Users) takeOrgLoad(msg orgLoadedMsg) (tea.Cmd, bool) {
	awaited := u.orgAwaited != 0 && msg.load >= u.orgAwaited
	if (!awaited && !orgLoadTaken(msg, !u.fetched.IsZero(), u.ownReadAfter)) || u.lockedOut != "" {
		return nil, false
	}
	u.orgAwaited = 0
	if msg.err != nil || !msg.org.Loaded {
		return u.load(), true
	}
	u.gen++ // a reply of a load started before is older
	u.loading = false
	return u.takeUsers(msg.org.Users, msg.org.TagNames, u.c.Now()), true
}

// selected is the user under the list's cursor.
func (u *Users) selected() *api.User {
	return selectedIn(&u.list, u.items, func(x *api.User) string { return x.UserID })
}

func (u *Users) syncKeys() {
	open := u.open != nil
	has := open && len(u.open.APIKeys) > 0
	l := &u.list.Keys
	l.Open.SetEnabled(!open && len(u.items) > 0)
	l.Back.SetEnabled(open)
	l.Sort.SetEnabled(!open)
	l.ReverseSort.SetEnabled(!open)
	u.keys.Up.SetEnabled(has)
	u.keys.Down.SetEnabled(has)
	u.keys.Mark.SetEnabled(has)
	u.keys.KeyInfo.SetEnabled(has)
	u.keys.Delete.SetEnabled(has && u.whyNoDelete() == "")
}

// Update implements Screen.
func (u *Users) Update(msg tea.Msg) (Screen, tea.Cmd) {
	defer u.syncKeys()
	stale := u.activities.take(msg) && u.open != nil
	switch msg.(type) {
	case screenHiddenMsg:
		u.hidden = true
		u.pendingTicks++ // the open record's poll stops until shown
		return u, nil
	case screenShownMsg:
		if u.hidden {
			u.hidden = false
			return u, u.resumePending()
		}
	case lockOutLiftedMsg:
		if !u.hidden && u.lockedOut == "" {
			return u, u.resumePending()
		}
		return u, nil
	}
	if stale {
		return u, u.loadPending()
	}
	switch msg := msg.(type) {
	case themeChangedMsg:
		u.list.SetTheme(u.c.Theme)
		u.setRows()
		u.renderDetail()
	case orgLoadedMsg:
		if cmd, taken := u.takeOrgLoad(msg); taken {
			return u, cmd
		}
		u.setRows() // root membership comes from the organization
		u.renderDetail()
	case orgChangedMsg:
		if !u.fetched.IsZero() {
			// A tag, a key or a user may be new: the root's load, started
			// just before this message, reads them.
			u.orgAwaited = u.c.OrgLoadsStarted
		}
	case clockMsg:
		// Keys expire and ages count up between loads. Hidden, the screen
		// redraws when shown (Root.showActive).
		if msg.unseen {
			return u, nil
		}
		u.setPreview()
		if u.open != nil {
			u.setDetail()
		}
	case usersLoadedMsg:
		if msg.gen != u.gen || u.lockedOut != "" {
			return u, nil // retired, or sent before the lock-out (lockOut)
		}
		u.loading = false
		if msg.err != nil {
			u.err, u.stale = errorText(msg.err), true
			u.list.Table.Failed = notLoaded(u.fetched, "load failed: "+u.err)
			return u, nil
		}
		return u, u.takeUsers(msg.users, msg.tagNames, msg.at)
	case pendingDeletesLoadedMsg:
		u.takePending(msg)
	case pendingRefreshMsg:
		return u, u.refreshPending(msg)
	case apiKeyLoadedMsg:
		if u.open == nil || u.cursor >= len(u.open.APIKeys) || u.open.APIKeys[u.cursor].APIKeyID != msg.id {
			return u, nil
		}
		u.keyInfo, u.keyErr = msg.key, ""
		if msg.err != nil {
			u.keyErr = errorText(msg.err)
		}
		u.renderDetail()
	case deleteKeysConfirmedMsg:
		return u, u.deleteKeys(msg)
	case keysDeletedMsg:
		return u, u.keysDeleted(msg)
	case tea.KeyPressMsg:
		return u, u.handleKey(msg)
	}
	return u, nil
}

// marksGoneText says which marked keys are gone.
func marksGoneText(names []string) string {
	if len(names) == 1 {
		return "the marked API key " + names[0] + " is gone (deleted meanwhile)"
	}
	return "the marked API keys " + strings.Join(names, ", ") + " are gone (deleted meanwhile)"
}

func (u *Users) closeDetail() {
	u.open, u.keyInfo, u.keyErr, u.cursor, u.openGone = nil, nil, "", 0, ""
	u.pendingActs, u.pendingErr = nil, ""
	u.sortPending()
	u.pendingTicks++ // its auto-refresh stops
	clear(u.marked)
	u.marksGone = nil
	u.list.Close()
}

func (u *Users) handleKey(k tea.KeyPressMsg) tea.Cmd {
	if key.Matches(k, u.keys.Refresh) && !u.list.Filtering() {
		return u.load()
	}
	// The pause is the console's (Activities' too): p works on the list as on
	// a record, as the help says.
	if key.Matches(k, u.keys.AutoRefresh) && !u.list.Filtering() {
		return u.toggleAutoRefresh()
	}
	if u.open == nil {
		if key.Matches(k, u.list.Keys.Open) {
			sel := u.selected()
			if sel == nil {
				return nil
			}
			u.open = sel
			u.cursor = 0
			u.list.Open()
			u.renderDetail()
			u.pendingTicks++
			return tea.Batch(u.loadPending(), u.pendingTick())
		}
		var cmd tea.Cmd
		u.list, cmd = u.list.Update(k)
		u.setPreview()
		return cmd
	}
	switch {
	case key.Matches(k, u.list.Keys.Back):
		u.closeDetail()
	case u.list.FilterKeyInDetail(k):
		u.closeDetail()
		return u.handleKey(k)
	case key.Matches(k, u.keys.Up), key.Matches(k, u.keys.Down):
		n := len(u.open.APIKeys)
		if n == 0 {
			return nil
		}
		if key.Matches(k, u.keys.Up) {
			u.cursor = max(u.cursor-1, 0)
		} else {
			u.cursor = min(u.cursor+1, n-1)
		}
		u.keyInfo, u.keyErr = nil, ""
		u.renderDetail()
	case key.Matches(k, u.keys.Mark):
		if len(u.open.APIKeys) == 0 {
			return nil
		}
		id := u.open.APIKeys[u.cursor].APIKeyID
		u.marksGone = nil // the user chooses again
		u.marked[id] = !u.marked[id]
		if !u.marked[id] {
			delete(u.marked, id)
		}
		u.renderDetail()
	case key.Matches(k, u.keys.KeyInfo):
		if len(u.open.APIKeys) == 0 {
			return nil
		}
		return u.fetchKey(u.open.APIKeys[u.cursor].APIKeyID)
	case pressed(k, u.keys.Delete):
		return u.confirmDelete()
	default:
		var cmd tea.Cmd
		u.list, cmd = u.list.Update(k)
		return cmd
	}
	return nil
}

// fetchKey asks get_api_key for the key under the cursor.
func (u *Users) fetchKey(id string) tea.Cmd {
	c, client := u.c, u.c.Reader
	return func() tea.Msg {
		ctx, cancel := c.ctx()
		defer cancel()
		k, err := client.GetAPIKey(ctx, id)
		if err != nil {
			err = fmt.Errorf("get_api_key %s: %w", api.SanitizeID(id), err)
		}
		return apiKeyLoadedMsg{id: id, key: k, err: err}
	}
}

// ClickRow selects the clicked user (line 0 is the heading).
func (u *Users) ClickRow(y int) tea.Cmd {
	if u.open == nil && u.list.ClickRow(y-1) {
		u.setPreview()
		u.syncKeys()
	}
	return nil
}

// View implements Screen.
func (u *Users) View() string {
	th := u.c.Theme
	sub := "  " + u.list.Table.CountText(len(u.items)) + " users"
	if u.open != nil {
		sub = "  " + api.NameText(u.open.UserName) + " — ↑/↓ key, space mark, i get_api_key, d delete marked"
	}
	head := ansi.Truncate(th.Title.Render("Users")+th.Muted.Render(sub), u.width, "…")
	return head + "\n" + u.list.View()
}

// Keys implements Screen.
func (u *Users) Keys() ui.KeyMap { return usersHelp{u} }

type usersHelp struct{ u *Users }

func (h usersHelp) ShortHelp() []key.Binding {
	k, l, t := h.u.keys, h.u.list.Keys, h.u.list.Table.Keys
	if h.u.list.Filtering() {
		return []key.Binding{t.AcceptFilter, t.ClearFilter, t.FilterMove}
	}
	if h.u.open != nil {
		return []key.Binding{k.Up, k.Down, k.Mark, k.KeyInfo, k.Delete, k.Refresh, k.AutoRefresh, l.Back}
	}
	return []key.Binding{l.Open, t.Filter, l.Sort, k.Refresh}
}

func (h usersHelp) FullHelp() [][]key.Binding {
	return fullHelp(h.u.KeyActions(), append(listMoveKeys(&h.u.list), h.u.list.Table.Keys.Filter))
}
