package screens

import (
	"fmt"
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
	EventID        string
	KeyID          string
	OrganizationID string
	ActivityID     string
	Type           string
	Status         string
	Reason         string // why it was refused
}

// WebhookFeed is a listener the console runs (the profile's webhook_listen):
// its address, and the deliveries as they are verified.
type WebhookFeed struct {
	Addr       string
	Deliveries <-chan WebhookDelivery
}

// maxWebhookRows bounds the deliveries kept on screen; the oldest go first.
const maxWebhookRows = 1000

// webhookDeliveryMsg brings one delivery from the feed.
type webhookDeliveryMsg struct{ d WebhookDelivery }

// webhookFeedClosedMsg says the listener stopped.
type webhookFeedClosedMsg struct{}

// Webhooks lists the deliveries of the console's webhook listener, newest
// first, with a detail per delivery.
type Webhooks struct {
	c      *Common
	feed   *WebhookFeed
	keys   webhooksKeys
	list   ui.ListDetail
	items  []WebhookDelivery // newest first
	closed bool
	width  int
}

// NewWebhooks builds the screen on c.Webhooks (nil: no listener configured).
func NewWebhooks(c *Common) *Webhooks {
	w := &Webhooks{c: c, feed: c.Webhooks, keys: newWebhooksKeys()}
	w.list = ui.NewListDetail(c.Theme, []ui.Column{
		{Title: "TIME", Width: 14}, // 15:04:05 and a zone, up to +0530
		{Title: "VERDICT", Width: 8},
		{Title: "ACTIVITY", Width: 12, Grow: true},
		{Title: "TYPE", Width: 16, Grow: true},
		{Title: "STATUS", Width: 10},
		{Title: "KEY", Width: 10},
	})
	w.list.Table.Empty = "no deliveries yet"
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

// Init implements Screen: wait for the first delivery.
func (w *Webhooks) Init() tea.Cmd { return w.next() }

// next waits for the feed's next delivery (a command: it blocks, Update does not).
func (w *Webhooks) next() tea.Cmd {
	if w.feed == nil || w.feed.Deliveries == nil {
		return nil
	}
	ch := w.feed.Deliveries
	return func() tea.Msg {
		d, ok := <-ch
		if !ok {
			return webhookFeedClosedMsg{}
		}
		return webhookDeliveryMsg{d}
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
	w.list.Keys.Open.SetEnabled(has && !open)
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
	d, ok := w.selected()
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
		w.items = append([]WebhookDelivery{msg.d}, w.items...)
		if len(w.items) > maxWebhookRows {
			w.items = w.items[:maxWebhookRows]
		}
		w.setRows()
		w.renderDetail()
		return w, w.next()
	case webhookFeedClosedMsg:
		w.closed = true
	case tea.KeyPressMsg:
		return w, w.handleKey(msg)
	}
	return w, nil
}

func (w *Webhooks) handleKey(k tea.KeyPressMsg) tea.Cmd {
	if key.Matches(k, w.keys.Copy) {
		d, ok := w.selected()
		if !ok {
			return nil
		}
		id := api.SanitizeID(d.EventID)
		return tea.Batch(tea.SetClipboard(id), ui.Toast("copied event id "+clip(id, 24), false))
	}
	if !w.list.IsOpen() && key.Matches(k, w.list.Keys.Open) && len(w.items) > 0 {
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
		d, _ := w.selected()
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

func (w *Webhooks) setRows() {
	rows := make([]ui.Row, len(w.items))
	// The console's zone (the clock's), labelled, as the detail and the
	// status bar write it.
	now := w.c.Now()
	for i, d := range w.items {
		verdict := "verified"
		if !d.Verified {
			verdict = "REFUSED"
		}
		rows[i] = ui.Row{ID: rowID(d), Cells: []string{d.At.In(now.Location()).Format("15:04:05 MST"), verdict,
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
	d, ok := w.selected()
	if !ok {
		return
	}
	b := ui.NewDetailBuilder(w.c.Theme)
	b.LabelWidth = ui.LabelWidth("organization", "received")
	verdict := "verified: signed by the service's published key, fresh, not a replay"
	if !d.Verified {
		verdict = "REFUSED"
	}
	b.Section("Delivery")
	b.Field("verdict", verdict)
	b.Field("reason", d.Reason)
	now := w.c.Now()
	b.Field("received", zonedTimes(now, d.At, "2006-01-02 15:04:05")+" ("+ui.Ago(now, d.At)+" ago)")
	b.Field("event", api.SanitizeID(d.EventID))
	b.Field("key", api.SanitizeID(d.KeyID))
	b.Field("organization", api.SanitizeID(d.OrganizationID))
	b.Section("Activity")
	b.Field("id", api.SanitizeID(d.ActivityID))
	b.Field("type", api.SanitizeID(d.Type))
	b.Field("status", api.SanitizeID(d.Status))
	if !d.Verified {
		b.Line("unverified: the activity fields are what the sender claimed")
	}
	w.list.SetDetail(b.String())
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
	return fullHelp(h.w.KeyActions(), append(h.w.list.Pane.KeyBindings(), h.w.list.Table.Keys.Filter))
}

// Commands of the Webhooks screen.
func (w *Webhooks) Commands() []Command {
	return []Command{
		keyCommand("open webhook delivery", w.list.Keys.Open, "no delivery selected, or one is open"),
		keyCommand("copy webhook event id", w.keys.Copy, "no deliveries yet"),
		keyCommand("open the delivery's activity in Activities", w.keys.OpenActivity, w.whyNoActivity()),
	}
}
