package screens

import (
	"strings"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/ui"
	"github.com/vigil-console/vigil/ui/theme"
)

// intentBody is the intent's section as the detail shows it, built once per
// activity, fingerprint, intent (its content: a hostile service may send
// another under the same fingerprint) and theme: its JSON, look-alike warnings and lines
// cost in proportion to the intent (a name of 10,000 characters is quoted
// and measured whole), and render runs on every reply, refresh and clock
// change. It is shown whole: it is what a voter signs.
type intentBody struct {
	key     string
	th      *theme.Theme
	b       *ui.DetailBuilder
	swapped swapSeen // what the record held against it when built (its warning)
}

// intentBody returns the built intent section of the open activity.
func (d *activityDetail) intentBody(th *theme.Theme) *ui.DetailBuilder {
	a := &d.activity
	key, swapped := d.intentKey(), d.seen.seenSwap(a.ID, a.Fingerprint)
	if d.body.b != nil && d.body.key == key && d.body.th == th && d.body.swapped.same(swapped) {
		return d.body.b
	}
	b := ui.NewDetailBuilder(th)
	if swapped.any() {
		b.Styled(th.Bad.Render(ui.Clean(swapped.detailWarning(a))))
	}
	if shown := d.shownIntent(); len(shown.Doubts) > 0 {
		// Indented JSON of it would be as unbounded as the intent is deep,
		// and would not say what is wrong with it: its lines, bounded, say.
		b.Styled(th.Warn.Render(ui.Clean("⚠ this console cannot show this intent faithfully and whole (" + strings.Join(shown.Doubts, "; ") +
			"): do not approve it unless you have read it whole with 'vigil activity get --json " + api.SanitizeID(a.ID) + "'")))
		for _, l := range shown.Lines {
			b.Line(l)
		}
	} else {
		b.JSON(displayIntent(a.Intent))
	}
	d.body = intentBody{key: key, th: th, b: b, swapped: swapped}
	return b
}

// intentKey names the intent held: the activity's id, fingerprint and a
// hash of the intent's JSON (intentSum).
func (d *activityDetail) intentKey() string {
	return d.activity.ID + "\x00" + d.activity.Fingerprint + "\x00" + d.intentSum
}

// take makes act, arrived as order, the copy the detail shows. Whether
// its fingerprint came with another intent is the screen's record's to say
// (intent_record.go): the screen notes every copy it takes.
func (d *activityDetail) take(act api.Activity, order copyOrder) {
	sum := intentSum(act.Intent)
	if order.sent > d.evalsArrived {
		d.rereadErr = "" // a read after the evaluations: it tells which votes are returned
	}
	d.activity, d.order, d.intentSum = act, order, sum
	d.voteChecks = voteChecks{} // of the record held: checked at its first render
}

// quotes keeps api.Quote of the names one render showed (policies in the
// evaluations), for the next: a name of 10,000 characters is quoted once
// per opening, not once per refresh. Only the names of the last render
// are kept.
type quotes struct{ prev, cur map[string]string }

// quote is api.Quote(s), from the last render when it was shown there.
func (q *quotes) quote(s string) string {
	v, ok := q.cur[s]
	if !ok {
		if v, ok = q.prev[s]; !ok {
			v = api.Quote(s)
		}
		if q.cur == nil {
			q.cur = map[string]string{}
		}
		q.cur[s] = v
	}
	return v
}

// done ends a render: its names are those kept.
func (q *quotes) done() { q.prev, q.cur = q.cur, nil }
