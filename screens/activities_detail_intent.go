package screens

import (
	"crypto/sha256"
	"encoding/json"
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
	key string
	th  *theme.Theme
	b   *ui.DetailBuilder
}

// intentBody returns the built intent section of the open activity.
func (d *activityDetail) intentBody(th *theme.Theme) *ui.DetailBuilder {
	a := &d.activity
	key := d.intentKey()
	if d.body.b != nil && d.body.key == key && d.body.th == th {
		return d.body.b
	}
	b := ui.NewDetailBuilder(th)
	if d.swappedFor != "" && d.swappedFor == a.Fingerprint {
		b.Styled(th.Bad.Render(ui.Clean("⚠ the service sent another intent under this same fingerprint since this activity was opened: " +
			"what the fingerprint stands for cannot be told; do not approve it; read it with 'vigil activity get --json " + api.SanitizeID(a.ID) + "' and ask its requester")))
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
	d.body = intentBody{key: key, th: th, b: b}
	return b
}

// intentKey names the intent held: the activity's id, fingerprint and a
// hash of the intent's JSON (intentSum).
func (d *activityDetail) intentKey() string {
	return d.activity.ID + "\x00" + d.activity.Fingerprint + "\x00" + d.intentSum
}

// intentSum is the SHA-256 of in's JSON: the caches of what an intent shows
// are keyed on it, not on the fingerprint alone, which the console cannot
// check against the intent.
func intentSum(in api.Intent) string {
	out, err := json.Marshal(in)
	if err != nil {
		return "unencodable: " + err.Error() // never equal to a hash: a cache built for it is rebuilt
	}
	sum := sha256.Sum256(out)
	return string(sum[:])
}

// take makes act, arrived as order, the copy the detail shows. A copy
// bringing another intent under the fingerprint of the one held marks that
// fingerprint (swappedFor): the detail warns while it shows it.
func (d *activityDetail) take(act api.Activity, order copyOrder) {
	sum := intentSum(act.Intent)
	if act.ID == d.activity.ID && act.Fingerprint == d.activity.Fingerprint && sum != d.intentSum {
		d.swappedFor = act.Fingerprint
	}
	if order.sent > d.evalsArrived {
		d.rereadErr = "" // a read after the evaluations: it tells which votes are returned
	}
	d.activity, d.order, d.intentSum = act, order, sum
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
