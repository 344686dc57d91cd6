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
	// featureConfirmedMsg is the confirm's yes: the feature and value it
	// showed; resend: the earlier request is sent again.
	featureConfirmedMsg struct {
		params api.SetOrganizationFeatureParams
		resend bool
	}
	// featureDraftDiscardedMsg is the yes to closing the changed form gen.
	featureDraftDiscardedMsg struct{ gen int }
	// featureSubmittedMsg is the service's answer to set_organization_feature.
	featureSubmittedMsg struct {
		params   api.SetOrganizationFeatureParams
		resent   bool
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
		return fmt.Sprintf("only root quorum members can set a feature; %s is not one", api.NameText(o.c.Org.UserName))
	case o.submitting != nil:
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
	o.formGen++
	return nil
}

// pasteIntoForm implements formScreen.
func (o *Organization) pasteIntoForm(msg tea.PasteMsg) tea.Cmd {
	if o.form == nil {
		return nil
	}
	return o.formUpdate(msg)
}

// formUpdate hands a key or a paste to the open form; a valid form asks for confirmation.
// The form stays open under the confirm: No returns to it as it was, and only
// a successful submission (or esc) closes it.
func (o *Organization) formUpdate(msg tea.Msg) tea.Cmd {
	f, res := o.form.Update(msg)
	o.form = &f
	switch res {
	case ui.Cancelled:
		if f.Changed() {
			return o.askDialog(NewConfirmDialog(featureDialogID+".discard", discardQuestion("the feature form", nil),
				msgCmd(featureDraftDiscardedMsg{gen: o.formGen}), nil))
		}
		o.form = nil
	case ui.Submitted:
		if o.submitting != nil {
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
		was = "it replaces the current value " + api.Quote(old)
	}
	// api.Quote, as in the approvers' view: the submitter's last look shows
	// look-alike letters (a pasted "hооks" host) the same way.
	lines := append([]string{"new value: " + api.Quote(p.Value), was + "."}, rootQuorumApproval(o.c.Org.Quorum)...)
	resend, warn := o.earlier.resends(formValues(p)), map[int]bool{}
	switch {
	case resend:
		lines = append(lines, "", "The earlier set_organization_feature got no clear answer: "+resendNote+".")
	case o.earlier != nil:
		lines = o.earlier.appendWarning(append(lines, ""), warn)
	}
	c := ui.NewConfirm("Set "+strings.TrimPrefix(p.Name, "FEATURE_NAME_")+"?", "set", lines...)
	c.Warn = warn
	return o.askDialog(NewConfirmDialogMsg(featureDialogID, c, featureConfirmedMsg{params: p, resend: resend}, nil))
}

// rootQuorumApproval says what the root quorum must do before a submission
// takes effect.
func rootQuorumApproval(q api.Quorum) []string {
	return []string{fmt.Sprintf("The root quorum must approve: %d of %d root members", q.Threshold, len(q.UserIDs)),
		"(your submission counts as one) before it takes effect."}
}

// submitFeature sends set_organization_feature: the earlier request again
// when the confirm said so.
func (o *Organization) submitFeature(m featureConfirmedMsg) tea.Cmd {
	client, err := o.c.submitter()
	if err != nil {
		return ui.Toast(errorText(err), true)
	}
	if o.submitting != nil {
		return ui.Toast("set_organization_feature is already being submitted; wait for its answer", true)
	}
	o.submitting = submissionOf("set_organization_feature", "set_organization_feature "+m.params.Name+" = "+api.Quote(m.params.Value))
	c, p := o.c, m.params
	if m.resend && o.earlier.resends(formValues(p)) {
		cmd := o.earlier.resend(c, func(act *api.Activity, err error) tea.Msg {
			if err != nil {
				err = fmt.Errorf("set %s: %w", p.Name, err)
			}
			return featureSubmittedMsg{params: p, resent: true, activity: act, err: err}
		})
		return tea.Batch(ui.Toast("set_organization_feature: "+resendNote, false), cmd)
	}
	o.earlier = nil // a new request, confirmed over the warning
	return func() tea.Msg {
		ctx, cancel := c.ctx()
		defer cancel()
		act, err := activityOrError(client.SetOrganizationFeature(ctx, p))
		if err != nil {
			err = fmt.Errorf("set %s: %w", p.Name, err)
		}
		return featureSubmittedMsg{params: p, activity: act, err: err}
	}
}

// featureSubmitted reports the submission and takes the user to the activity.
func (o *Organization) featureSubmitted(msg featureSubmittedMsg) tea.Cmd {
	o.submitting = nil
	o.earlier = o.earlier.afterSubmit("set_organization_feature", formValues(msg.params), msg.resent, msg.err)
	if msg.err != nil {
		// The form, when still open, keeps what was typed for another try.
		o.err = answerText("set_organization_feature", msg.resent, msg.err)
		return ui.Toast(o.err, true)
	}
	o.err = ""
	o.form = nil
	act := *msg.activity
	return tea.Batch(
		submittedNotice("set_organization_feature", &act, msg.resent, ""),
		msgCmd(ShowActivityMsg{ID: act.ID, Activity: &act}),
	)
}
