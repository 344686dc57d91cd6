package screens

import (
	"fmt"

	tea "charm.land/bubbletea/v2"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/ui"
)

// heldOpen is the policy or evaluation the open detail shows, held by id: a
// reload that drops its row moves the cursor, never what the detail is about
// (A would then open an activity the user never read).
type heldOpen struct {
	id     string
	recent recentActivity // in the evaluations view: as last loaded
	policy api.Policy     // in the policies view: as last loaded
	// gone says why the last reload no longer lists it ("" while listed):
	// the detail then shows it as last loaded, marked, and A is off.
	gone string
}

// hold remembers the row just opened; refreshHeld fills in its data.
func (p *Policies) hold() {
	p.held = heldOpen{id: p.list.Table.SelectedID()}
	p.refreshHeld()
}

// refreshHeld takes the open item's data from the last loads, or marks it
// gone, keeping what was shown.
func (p *Policies) refreshHeld() {
	if !p.list.IsOpen() || p.held.id == "" {
		return
	}
	if p.evals {
		for _, ra := range p.data.recent {
			if ra.act.ID == p.held.id {
				p.held.recent, p.held.gone = ra, ""
				return
			}
		}
		p.held.gone = fmt.Sprintf("no longer among the last %d activities", recentActivities)
		return
	}
	for _, pol := range p.data.policies {
		if pol.PolicyID == p.held.id {
			p.held.policy, p.held.gone = pol, ""
			return
		}
	}
	p.held.gone = "the service no longer lists this policy"
}

// goneNote is the line atop a detail whose item the last reload no longer
// lists ("" while listed).
func (p *Policies) goneNote() string {
	if p.held.gone == "" {
		return ""
	}
	return "⚠ no longer listed (" + p.held.gone + "): shown as last loaded; A is off — esc goes back"
}

// openGone answers A on an item no longer listed: what it was is shown, but
// it is not opened (nil when the open item is listed).
func (p *Policies) openGone() tea.Cmd {
	if !p.list.IsOpen() || p.held.gone == "" {
		return nil
	}
	what := "policy " + api.SanitizeID(p.held.id)
	if p.evals {
		what = "activity " + api.SanitizeID(p.held.id)
	}
	return ui.Toast(what+" is no longer listed ("+p.held.gone+"): find it in Activities (1), or press esc and open another", true)
}

// askForUnknownPolicies reloads the policies when an evaluation names a
// policy id the last load did not list (created since): its explanation
// then names it. Each id asks once, so that an id that stays unknown (the
// policy was deleted since) does not reload forever.
func (p *Policies) askForUnknownPolicies(exs ...explained) tea.Cmd {
	ask := false
	for _, ex := range exs {
		for _, id := range ex.Unknown {
			if !p.askedUnknown[id] {
				if p.askedUnknown == nil {
					p.askedUnknown = map[string]bool{}
				}
				p.askedUnknown[id], ask = true, true
			}
		}
	}
	if !ask {
		return nil
	}
	return p.load()
}
