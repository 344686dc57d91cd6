package screens

import (
	"strings"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/ui"
	"github.com/vigil-console/vigil/ui/theme"
)

// intentBody is the intent's section as the detail shows it, built once per
// activity, fingerprint and theme: its JSON, look-alike warnings and lines
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
	key := a.ID + "\x00" + a.Fingerprint
	if d.body.b != nil && d.body.key == key && d.body.th == th {
		return d.body.b
	}
	b := ui.NewDetailBuilder(th)
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
