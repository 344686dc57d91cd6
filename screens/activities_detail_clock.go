package screens

import (
	"slices"
	"time"
)

// followClock redraws the open record when a text that depends on the clock
// has changed: ages ("… ago") count up and a session's expiry turns from
// "(in 1m)" to "(expired)" with auto-refresh off or paused too, as on the
// list behind it. Only when one changed: a record can be large, and the clock
// ticks every few seconds. No I/O: the record is the one last fetched.
func (d *activityDetail) followClock(c *Common) {
	texts := d.clockTexts(c.Now())
	if slices.Equal(texts, d.shownClock) {
		return
	}
	d.shownClock = texts
	d.render(c)
}

// clockTexts is what render writes that depends on now: the record's,
// votes' and evaluations' ages and a read-only session's expiry.
func (d *activityDetail) clockTexts(now time.Time) []string {
	a := &d.activity
	texts := []string{fmtTime(now, a.CreatedAt), fmtTime(now, a.UpdatedAt)}
	for _, v := range a.Votes {
		texts = append(texts, fmtTime(now, v.CreatedAt))
	}
	for _, e := range d.evals {
		texts = append(texts, fmtTime(now, e.CreatedAt))
	}
	if r := a.Result.CreateReadOnlySessionResult; r != nil {
		texts = append(texts, epochText(now, r.SessionExpiry))
	}
	return texts
}
