package screens

import tea "charm.land/bubbletea/v2"

// explain explains the evaluations shown that are not yet (nil when none).
func (d *activityDetail) explain(c *Common) tea.Cmd {
	return d.explained.explainCmd(c.Org.Eval, d.activity, d.evals)
}

// takeExplained shows an explanation of the open activity's version; one
// for another activity or an older version is dropped.
func (a *Activities) takeExplained(msg explainedMsg) tea.Cmd {
	if a.detail == nil || !a.detail.explained.take(msg) {
		return nil
	}
	a.detail.render(a.c)
	return a.askOrgForUnknownPolicies()
}

// askOrgForUnknownPolicies loads the organization's policies again when an
// evaluation shown names one created since the load (it shows as an id),
// once per open detail.
func (a *Activities) askOrgForUnknownPolicies() tea.Cmd {
	if a.detail == nil || !a.detail.unknownPolicies || a.detail.orgAsked {
		return nil
	}
	a.detail.orgAsked = true
	return msgCmd(reloadOrgMsg{})
}
