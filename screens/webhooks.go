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

// WebhookDelivery is one delivery the console's webhook listener received,
// after verification (webhook.VerifyContext, replays refused). Its values are
// exact, as the sender sent them: the screen escapes them as it draws them.
type WebhookDelivery struct {
	At             time.Time
	Verified       bool
	Redelivery     bool      // verified, of an event already accepted with the same body
	SignedAt       time.Time // the signed timestamp of a verified delivery
	EventID        string
	KeyID          string
	OrganizationID string
	ActivityID     string
	Type           string
	Status         string
	Reason         string // why it was refused

	redeliveries   int       // the service's redeliveries of it since
	lastRedelivery time.Time // when the last one came
}

// WebhookUnlisted counts the refused requests the screen does not list one
// by one: those refused on their headers alone (anyone can send them), and
// refusals that came faster than the screen took them. Last is the latest.
type WebhookUnlisted struct {
	Count int
	Last  WebhookDelivery
}

// WebhookFeed is a listener the console runs (the profile's webhook_listen):
// its address, and the deliveries as they are verified.
type WebhookFeed struct {
	Addr       string
	Since      time.Time              // when the listener started: its memory of accepted events starts then
	Deliveries <-chan WebhookDelivery // verified deliveries (and refused ones, from a feed without Refused)
	Refused    <-chan WebhookDelivery // refused deliveries, nil: all come on Deliveries
	Unlisted   <-chan WebhookUnlisted // the latest count of refusals not listed, nil: none
}

// The deliveries kept on screen are bounded, the oldest going first, with
// refused ones apart: a flood of refusals never pushes a verified delivery
// out.
const (
	maxVerifiedWebhookRows = 1000
	maxRefusedWebhookRows  = 100
)

// webhookDeliveryMsg brings one delivery from the feed's channel from.
type webhookDeliveryMsg struct {
	d    WebhookDelivery
	from <-chan WebhookDelivery
}

// webhookUnlistedMsg brings the feed's latest count of unlisted refusals.
type webhookUnlistedMsg struct{ u WebhookUnlisted }

// webhookFeedClosedMsg says the listener stopped.
type webhookFeedClosedMsg struct{}

// Webhooks lists the deliveries of the console's webhook listener, newest
// first, with a detail per delivery.
type Webhooks struct {
	c        *Common
	feed     *WebhookFeed
	keys     webhooksKeys
	list     ui.ListDetail
	items    []WebhookDelivery // newest first
	unlisted WebhookUnlisted
	closed   bool
	width    int
	// opened is the delivery whose detail is open, kept by its rowID: the
	// selected row may change under it (the row dropped past its kind's
	// bound), and the detail, A and y must stay on what was opened.
	opened WebhookDelivery
	// openedGone says opened is no longer listed.
	openedGone bool
}

// NewWebhooks builds the screen on c.Webhooks (nil: no listener configured).
func NewWebhooks(c *Common) *Webhooks {
	w := &Webhooks{c: c, feed: c.Webhooks, keys: newWebhooksKeys()}
	w.list = ui.NewListDetail(c.Theme, []ui.Column{
		{Title: "TIME", Width: 14}, // 15:04:05 and a zone, up to +0530
		{Title: "VERDICT", Width: 10},
		{Title: "ACTIVITY", Width: 12, Grow: true},
		{Title: "TYPE", Width: 16, Grow: true},
		{Title: "STATUS", Width: 10},
		{Title: "KEY", Width: 10},
	})
	w.list.Table.Empty = "no deliveries yet"
	w.list.Table.SetRead(true) // the deliveries are this console's own: none arrived is known at once
	if w.feed == nil {
		w.list.Table.Empty = "no webhook listener: set webhook_listen = \"HOST:PORT\" in the profile"
		if c.NoWebhooksHint != "" {
			w.list.Table.Empty = c.NoWebhooksHint
		}
	}
	w.syncKeys()
	return w
}

// Title implements Screen.
func (w *Webhooks) Title() string { return "Webhooks" }

// Init implements Screen: wait for the first delivery, refusal and count.
func (w *Webhooks) Init() tea.Cmd {
	if w.feed == nil {
		return nil
	}
	return tea.Batch(w.next(w.feed.Deliveries), w.next(w.feed.Refused), w.nextUnlisted())
}

// next waits for the next delivery on ch (a command: it blocks, Update does
// not). The end of Deliveries is the listener's.
func (w *Webhooks) next(ch <-chan WebhookDelivery) tea.Cmd {
	if ch == nil {
		return nil
	}
	last := ch == w.feed.Deliveries
	return func() tea.Msg {
		d, ok := <-ch
		if !ok {
			if last {
				return webhookFeedClosedMsg{}
			}
			return nil
		}
		return webhookDeliveryMsg{d, ch}
	}
}

// nextUnlisted waits for the next count of unlisted refusals.
func (w *Webhooks) nextUnlisted() tea.Cmd {
	ch := w.feed.Unlisted
	if ch == nil {
		return nil
	}
	return func() tea.Msg {
		u, ok := <-ch
		if !ok {
			return nil
		}
		return webhookUnlistedMsg{u}
	}
}

// Capturing implements Screen.
func (w *Webhooks) Capturing() bool { return w.list.Filtering() }

func (w *Webhooks) filterList() *ui.ListDetail { return &w.list }
func (w *Webhooks) filterEdited()              { w.setPreview(); w.syncKeys() }

// SetSize implements Screen: the heading takes a line.
func (w *Webhooks) SetSize(width, height int) {
	w.width = width
	w.list.SetSize(width, max(height-1, 1))
}

// Status implements Screen.
func (w *Webhooks) Status() ScreenStatus {
	if w.closed {
		return ScreenStatus{Err: "the webhook listener stopped"}
	}
	return ScreenStatus{}
}

func (w *Webhooks) syncKeys() {
	has, open := len(w.items) > 0, w.list.IsOpen()
	_, chosen := w.selected()
	w.list.Keys.Open.SetEnabled(chosen && !open)
	w.list.Keys.Back.SetEnabled(open)
	w.list.Keys.Sort.SetEnabled(has && !open)
	w.list.Keys.ReverseSort.SetEnabled(has && !open)
	w.keys.Copy.SetEnabled(has)
	w.keys.OpenActivity.SetEnabled(open && w.whyNoActivity() == "")
}

// whyNoActivity says why the open delivery's activity cannot be opened, ""
// when it can. A refused delivery's activity id is only what its sender
// claimed: the console does not act on it.
func (w *Webhooks) whyNoActivity() string {
	d, ok := w.chosen()
	switch {
	case !w.list.IsOpen() || !ok:
		return "open a delivery first (" + w.list.Keys.Open.Help().Key + ")"
	case !d.Verified:
		return "this delivery was refused: its activity id is only what the sender claimed, so it is not opened"
	case d.ActivityID == "":
		return "this delivery names no activity"
	}
	return ""
}

// Update implements Screen.
func (w *Webhooks) Update(msg tea.Msg) (Screen, tea.Cmd) {
	defer w.syncKeys()
	switch msg := msg.(type) {
	case themeChangedMsg:
		w.list.SetTheme(w.c.Theme)
		w.setRows()
	case webhookDeliveryMsg:
		w.add(msg.d)
		w.setRows()
		w.renderDetail()
		return w, w.next(msg.from)
	case webhookUnlistedMsg:
		w.unlisted = msg.u
		return w, w.nextUnlisted()
	case webhookFeedClosedMsg:
		w.closed = true
	case clockMsg:
		// An open delivery's "received … ago" counts up; hidden, the screen
		// redraws when shown (Root.showActive).
		if !msg.unseen {
			w.renderDetail()
		}
	case tea.KeyPressMsg:
		return w, w.handleKey(msg)
	}
	return w, nil
}

// add puts a delivery on top of the list, or counts a redelivery on the row
// of the event it repeats, and drops the oldest row of its kind (verified or
// refused) beyond that kind's bound.
func (w *Webhooks) add(d WebhookDelivery) {
	if d.Redelivery {
		for i := range w.items {
			if it := &w.items[i]; it.Verified && !it.Redelivery && it.EventID == d.EventID {
				it.redeliveries++
				it.lastRedelivery = d.At
				return
			}
		}
		// The first delivery is no longer listed: the redelivery shows
		// as a row of its own.
	}
	w.items = append([]WebhookDelivery{d}, w.items...)
	limit := maxRefusedWebhookRows
	if d.Verified {
		limit = maxVerifiedWebhookRows
	}
	n := 0
	for i, it := range w.items {
		if it.Verified != d.Verified {
			continue
		}
		if n++; n > limit {
			w.items = append(w.items[:i], w.items[i+1:]...)
			return
		}
	}
}

func (w *Webhooks) handleKey(k tea.KeyPressMsg) tea.Cmd {
	if key.Matches(k, w.keys.Copy) {
		d, ok := w.chosen()
		if !ok {
			return nil
		}
		id := api.SanitizeID(d.EventID)
		return tea.Batch(tea.SetClipboard(id), ui.Toast("copied event id "+clip(id, 24), false))
	}
	if !w.list.IsOpen() && key.Matches(k, w.list.Keys.Open) {
		d, ok := w.selected()
		if !ok {
			return nil // no row shown (a filter matches none): nothing chosen to open
		}
		w.opened, w.openedGone = d, false
		w.list.Open()
		w.renderDetail()
		return nil
	}
	// Matched while disabled too, so that a press says why.
	if pressed(k, w.keys.OpenActivity) || w.list.IsOpen() && opensActivity(k, w.keys.OpenActivity, w.list.Keys.Open) {
		if why := w.whyNoActivity(); why != "" {
			return ui.Toast(why, true)
		}
		// By id alone: the delivery's type and status are an event's, not
		// the record, which Activities fetches.
		d, _ := w.chosen()
		return msgCmd(ShowActivityMsg{ID: d.ActivityID})
	}
	if w.list.IsOpen() && key.Matches(k, w.list.Keys.Back) {
		w.list.Close()
		return nil
	}
	if w.list.FilterKeyInDetail(k) {
		w.list.Close()
		return w.handleKey(k)
	}
	var cmd tea.Cmd
	w.list, cmd = w.list.Update(k)
	w.setPreview()
	return cmd
}

// selected is the delivery of the selected row.
func (w *Webhooks) selected() (WebhookDelivery, bool) {
	if d := selectedIn(&w.list, w.items, func(d *WebhookDelivery) string { return rowID(*d) }); d != nil {
		return *d, true
	}
	return WebhookDelivery{}, false
}

// chosen is the delivery keys act on: the open one, else the selected row's.
func (w *Webhooks) chosen() (WebhookDelivery, bool) {
	if w.list.IsOpen() {
		return w.opened, true
	}
	return w.selected()
}

// rowID tells deliveries apart: a replay has the event id of the original.
func rowID(d WebhookDelivery) string {
	return fmt.Sprintf("%s@%d", d.EventID, d.At.UnixNano())
}

// ClickRow selects the clicked delivery (line 0 is the heading).
func (w *Webhooks) ClickRow(y int) tea.Cmd {
	if w.list.ClickRow(y - 1) {
		w.setPreview()
		w.syncKeys()
	}
	return nil
}

// listTime is a time as the list's TIME column and the heading write it: in
// the console's zone (the clock's), labelled, as the detail and the status
// bar write it, so that nobody matches it against a UTC log line unknowingly.
func listTime(now, t time.Time) string { return t.In(now.Location()).Format("15:04:05 MST") }

func (w *Webhooks) setRows() {
	rows := make([]ui.Row, len(w.items))
	now := w.c.Now()
	for i, d := range w.items {
		verdict := "verified"
		switch {
		case !d.Verified:
			verdict = "REFUSED"
		case d.Redelivery:
			verdict = "again"
		case d.redeliveries > 0:
			verdict = fmt.Sprintf("verified+%d", d.redeliveries)
		}
		rows[i] = ui.Row{ID: rowID(d), Cells: []string{listTime(now, d.At), verdict,
			api.SanitizeID(d.ActivityID), api.SanitizeID(strings.TrimPrefix(d.Type, "ACTIVITY_TYPE_")),
			api.SanitizeID(strings.TrimPrefix(d.Status, "ACTIVITY_STATUS_")), clip(api.SanitizeID(d.KeyID), 10)},
			Sort: []string{d.At.UTC().Format(time.RFC3339Nano)}}
	}
	// New deliveries come in on top: a selection on the top row follows
	// them (else the first delivery ever stays selected, at the bottom) —
	// unless a delivery is open (it stays what the user reads) or the user
	// sorted the list (the top row is then not the newest).
	col, _ := w.list.Table.SortColumn()
	atTop := !w.list.IsOpen() && col < 0 && w.list.Table.AtTop()
	w.list.SetRows(rows)
	if atTop {
		w.list.Table.SelectTop()
	}
	w.setPreview()
}

// setPreview says under the list why the selected delivery was refused.
func (w *Webhooks) setPreview() {
	if d, ok := w.selected(); ok && !d.Verified {
		w.list.SetPreview(w.c.Theme.Bad.Render("refused: " + ui.Clean(d.Reason)))
	} else {
		w.list.SetPreview("")
	}
}

func (w *Webhooks) renderDetail() {
	if !w.list.IsOpen() {
		return
	}
	// The opened delivery as listed now (a redelivery counted since), or as
	// it was when it was last listed.
	i := slices.IndexFunc(w.items, func(d WebhookDelivery) bool { return rowID(d) == rowID(w.opened) })
	if i >= 0 {
		w.opened = w.items[i]
	}
	w.openedGone = i < 0
	d := w.opened
	b := ui.NewDetailBuilder(w.c.Theme)
	b.LabelWidth = ui.LabelWidth("organization", "received")
	now := w.c.Now()
	if w.openedGone {
		kind, limit := "refused", maxRefusedWebhookRows
		if d.Verified {
			kind, limit = "verified", maxVerifiedWebhookRows
		}
		b.Styled(w.c.Theme.Warn.Render(fmt.Sprintf("⚠ no longer listed: newer deliveries pushed it past the %d %s rows kept; shown as it was", limit, kind)))
	}
	b.Section("Delivery")
	b.Field("verdict", w.verdict(d))
	b.Field("reason", d.Reason)
	if d.redeliveries > 0 {
		b.Field("redelivered", fmt.Sprintf("%d times since, last %s: the service sent it again (its answer was lost), answered 200, not listed again",
			d.redeliveries, zonedTimes(now, d.lastRedelivery, "2006-01-02 15:04:05")))
	}
	b.Field("received", zonedTimes(now, d.At, "2006-01-02 15:04:05")+" ("+ui.Ago(w.c.MachineNow(), d.At)+" ago)") // At is this machine's clock
	b.Field("event", api.SanitizeID(d.EventID))
	b.Field("key", api.SanitizeID(d.KeyID))
	b.Field("organization", api.SanitizeID(d.OrganizationID))
	b.Section("Activity")
	b.Field("id", api.SanitizeID(d.ActivityID))
	b.Field("type", api.SanitizeID(d.Type))
	b.Field("status", api.SanitizeID(d.Status))
	if !d.Verified {
		b.Line("unverified: the event, key, organization and activity fields are what the sender claimed")
	}
	w.list.SetDetail(b.String())
}

// verdict says what verifying a delivery established. The listener's memory
// of accepted events starts empty at each start: of a delivery signed before
// that, it cannot tell whether an earlier run took it already.
func (w *Webhooks) verdict(d WebhookDelivery) string {
	switch {
	case !d.Verified:
		return "REFUSED"
	case d.Redelivery:
		return "verified: a redelivery of an event already accepted (same body), answered 200"
	}
	v := "verified: signed by the service's published key, fresh"
	if w.feed == nil || w.feed.Since.IsZero() {
		return v
	}
	since := zonedTimes(w.c.Now(), w.feed.Since, "15:04:05")
	if !d.SignedAt.IsZero() && d.SignedAt.Before(w.feed.Since) {
		return v + "; signed before the listener started (" + since + "), so whether it was delivered before is unknown"
	}
	return v + ", its event not accepted before since the listener started (" + since + ")"
}

// View implements Screen.
func (w *Webhooks) View() string {
	th := w.c.Theme
	where := "no listener"
	if w.feed != nil {
		where = "listening on " + ui.Clean(w.feed.Addr)
	}
	count := fmt.Sprintf("%d deliveries", len(w.items))
	if len(w.items) == 1 {
		count = "1 delivery"
	}
	if u := w.unlisted; u.Count > 0 {
		count += fmt.Sprintf(", %d refused requests not listed (last %s: %s)", u.Count,
			listTime(w.c.Now(), u.Last.At), ui.Clean(u.Last.Reason))
	}
	head := th.Title.Render("Webhooks") + th.Muted.Render("  "+where+", "+count)
	return ansi.Truncate(head, w.width, "…") + "\n" + w.list.View()
}

// Keys implements Screen.
func (w *Webhooks) Keys() ui.KeyMap { return webhooksHelp{w} }

type webhooksHelp struct{ w *Webhooks }

func (h webhooksHelp) ShortHelp() []key.Binding {
	l := h.w.list.Keys
	if h.w.list.IsOpen() {
		return []key.Binding{h.w.keys.OpenActivity, h.w.keys.Copy, l.Back}
	}
	return []key.Binding{l.Open, h.w.list.Table.Keys.Filter, l.Sort, h.w.keys.Copy}
}

func (h webhooksHelp) FullHelp() [][]key.Binding {
	return fullHelp(h.w.KeyActions(), append(append(h.w.list.Pane.KeyBindings()[:2], listMoveKeys(&h.w.list)...), h.w.list.Table.Keys.Filter))
}

// Commands of the Webhooks screen.
func (w *Webhooks) Commands() []Command {
	return []Command{
		keyCommand("open webhook delivery", w.list.Keys.Open, "no delivery selected, or one is open"),
		keyCommand("copy webhook event id", w.keys.Copy, "no deliveries yet"),
		keyCommand("open the delivery's activity in Activities", w.keys.OpenActivity, w.whyNoActivity()),
	}
}
