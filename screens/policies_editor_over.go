package screens

import (
	"fmt"
	"slices"

	"github.com/vigil-console/vigil/api"
)

// The editor's "simulate over" field holds the chosen activity by its id
// (overValue): a reload of the recent activities, in another order or
// without it, never turns the choice into every recent activity.

// overValue is the "simulate over" value choosing the activity id; the
// prefix keeps a service's id from ever reading as simulateLast.
func overValue(id string) string { return "activity:" + id }

// heldNote ends the label of a chosen activity no longer among the recent
// ones; heldStaleNote, of one that could not be read again since.
var (
	heldNote      = fmt.Sprintf(" (kept: no longer among the latest %d)", recentActivities)
	heldStaleNote = fmt.Sprintf(" (kept: no longer among the latest %d, and not read again: as read before)", recentActivities)
)

// chosen is the activity "simulate over" names, nil for every recent one.
func (e *policyEditor) chosen() *recentActivity {
	over := e.form.Values()["over"]
	if over == simulateLast {
		return nil
	}
	for i := range e.recent {
		if overValue(e.recent[i].act.ID) == over {
			return &e.recent[i]
		}
	}
	if e.held != nil && overValue(e.held.act.ID) == over {
		return e.held
	}
	return nil
}

// setRecent offers the recent activities to simulate over (they may load
// after the editor opens). The activity chosen stays chosen: when it is no
// longer among them, it is kept after them, as reread (the service's copy
// read again with the recent ones) or, when that is nil, as read before,
// and its label says so.
func (e *policyEditor) setRecent(c *Common, recent []recentActivity, reread *recentActivity) {
	var held *recentActivity
	if ch := e.chosen(); ch != nil && !slices.ContainsFunc(recent, func(ra recentActivity) bool { return ra.act.ID == ch.act.ID }) {
		held, e.heldStale = ch, true
		if reread != nil && reread.act.ID == ch.act.ID {
			held, e.heldStale = reread, false
		}
		held = new(*held) // not an element of the e.recent overwritten below
	}
	e.recent, e.held = append(e.recent[:0], recent...), held
	over, labels := []string{simulateLast}, []string{simulateLast}
	for _, ra := range recent {
		over = append(over, overValue(ra.act.ID))
		labels = append(labels, overLabel(c, &ra.act))
	}
	if held != nil {
		note := heldNote
		if e.heldStale {
			note = heldStaleNote
		}
		over = append(over, overValue(held.act.ID))
		labels = append(labels, overLabel(c, &held.act)+note)
	}
	e.form.SetChoices("over", over, labels)
	e.render(c, 0)
}

// overLabel is how "simulate over" names an activity.
func overLabel(c *Common, act *api.Activity) string {
	return api.SanitizeID(act.ID) + " · " + intentWhat(c, act)
}

// heldID is the id of the activity chosen to simulate over when the editor
// is open and one is chosen ("" otherwise): a reload of the recent
// activities reads it again when it is no longer among them.
func (p *Policies) heldID() string {
	if p.editor == nil {
		return ""
	}
	if ch := p.editor.chosen(); ch != nil {
		return ch.act.ID
	}
	return ""
}
