package screens

import (
	"fmt"
	"slices"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/ui"
)

// featureDialogID names the set-feature confirm on the dialog stack.
const featureDialogID = "organization.set_feature"

type (
	// featureConfirmedMsg is the confirm's yes: the feature and value it showed.
	featureConfirmedMsg struct {
		params api.SetOrganizationFeatureParams
	}
	// featureSubmittedMsg is the service's answer to set_organization_feature.
	featureSubmittedMsg struct {
		activity *api.Activity
		err      error
	}
)

// isRoot reports whether the console's user is in the root quorum: only root
// members' approvals count for set_organization_feature.
func (c *Common) isRoot() bool {
	return c.Org.Loaded && slices.Contains(c.Org.Quorum.UserIDs, c.Org.UserID)
}

// whyNoSet says why this user cannot set a feature, or "".
func (o *Organization) whyNoSet() string {
	switch {
	case o.c.ReadOnly():
		return ErrReadOnly.Error()
	case !o.c.Org.Loaded:
		return "the organization is not loaded yet; press r"
	case !o.c.isRoot():
		return fmt.Sprintf("only root quorum members can set a feature; %s is not one", o.c.Org.UserName)
	case o.submitting:
		// Its answer closes the form it came from: a new one would go with it.
		return "a set_organization_feature is being submitted; wait for its answer"
	}
	return ""
}

// featureValueHint is what the value field takes for a feature.
func featureValueHint(name string) string {
	switch api.FeatureKindOf(name) {
	case api.FeatureURL:
		return "an http(s) URL, or empty to turn webhooks off"
	case api.FeatureOrigins:
		return "origins separated by commas: https://app.example.com,https://admin.example.com"
	}
	return api.FeatureEnabled + " or " + api.FeatureDisabled + " (true, false or empty are accepted too)"
}

// currentFeature is the feature's value as loaded, and whether it is set.
func (o *Organization) currentFeature(name string) (string, bool) {
	for _, f := range o.c.Org.Features {
		if f.Name == name {
			return f.Value, true
		}
	}
	return "", false
}

// openSetForm starts the set-feature form: the name picked from SPEC.md's list,
// the value typed and checked by api.CheckFeatureValue.
func (o *Organization) openSetForm() tea.Cmd {
	if why := o.whyNoSet(); why != "" {
		return ui.Toast(why, true)
	}
	f := ui.NewForm("Set an organization feature",
		ui.Field{Key: "name", Label: "Feature", Choices: api.FeatureNames()},
		ui.Field{Key: "value", Label: "Value", CharLimit: api.MaxFeatureValueLength,
			Placeholder: "enabled / disabled, a URL, or origins"},
	)
	f.Check = func(v map[string]string) (string, error) {
		return "value", api.CheckFeatureValue(v["name"], v["value"])
	}
	o.form = &f
	return nil
}

// formUpdate hands a key to the open form; a valid form asks for confirmation.
// The form stays open under the confirm: No returns to it as it was, and only
// a successful submission (or esc) closes it.
func (o *Organization) formUpdate(msg tea.Msg) tea.Cmd {
	f, res := o.form.Update(msg)
	o.form = &f
	switch res {
	case ui.Cancelled:
		o.form = nil
	case ui.Submitted:
		if o.submitting {
			return ui.Toast("set_organization_feature is already being submitted; wait for its answer", true)
		}
		v := f.Values()
		return o.confirmSet(api.SetOrganizationFeatureParams{Name: v["name"], Value: v["value"]})
	}
	return nil
}

// confirmSet asks before submitting: the new value replaces the old one, and the
// root quorum must approve before it does.
func (o *Organization) confirmSet(p api.SetOrganizationFeatureParams) tea.Cmd {
	old, set := o.currentFeature(p.Name)
	was := "it is not set today"
	if set {
		was = fmt.Sprintf("it replaces the current value %q", old)
	}
	q := o.c.Org.Quorum
	c := ui.NewConfirm("Set "+strings.TrimPrefix(p.Name, "FEATURE_NAME_")+"?", "set",
		fmt.Sprintf("new value: %q", p.Value),
		was+".",
		fmt.Sprintf("The root quorum must approve: %d of %d root members", q.Threshold, len(q.UserIDs)),
		"(your submission counts as one) before it takes effect.",
	)
	return OpenDialog(NewConfirmDialog(featureDialogID, c, msgCmd(featureConfirmedMsg{p}), nil))
}

// submitFeature sends set_organization_feature.
func (o *Organization) submitFeature(p api.SetOrganizationFeatureParams) tea.Cmd {
	client, err := o.c.submitter()
	if err != nil {
		return ui.Toast(errorText(err), true)
	}
	o.submitting = true
	c := o.c
	return func() tea.Msg {
		ctx, cancel := c.ctx()
		defer cancel()
		act, err := client.SetOrganizationFeature(ctx, p)
		if err != nil {
			err = fmt.Errorf("set %s: %w", p.Name, err)
		}
		return featureSubmittedMsg{activity: act, err: err}
	}
}

// featureSubmitted reports the submission and takes the user to the activity.
func (o *Organization) featureSubmitted(msg featureSubmittedMsg) tea.Cmd {
	o.submitting = false
	if msg.err != nil {
		// The form, when still open, keeps what was typed for another try.
		o.err = errorText(msg.err)
		return ui.Toast(o.err, true)
	}
	o.err = ""
	o.form = nil
	act := *msg.activity
	return tea.Batch(
		ui.Toast(fmt.Sprintf("submitted %s: now %s", api.SanitizeID(act.ID), shortStatus(act.Status)), false),
		msgCmd(ShowActivityMsg{ID: act.ID, Activity: &act}),
	)
}
