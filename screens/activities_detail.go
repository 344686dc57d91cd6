package screens

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/internal/shellword"
	"github.com/vigil-console/vigil/policy"
	"github.com/vigil-console/vigil/ui"
)

// activityDetail is the open activity with what was fetched for it.
type activityDetail struct {
	activity api.Activity
	// cursorRow is a copy of the list's row under the cursor when the
	// detail opened over it (the open activity's own after enter), nil
	// when none: closing the detail goes back to that row, and says so
	// when the cursor is on another one.
	cursorRow  *api.Activity
	voteChecks voteChecks // of activity's votes (votecheck.go)
	order      copyOrder  // of activity (copy_order.go)
	evals      []api.PolicyEvaluation
	proofs     []api.AppProof
	recordErr  string
	recordSent int // the request of the newest record reply that landed (copy_order.go)
	evalErr    string
	// rereadErr: the read of the activity after the evaluations held failed
	// (evals_reread.go), so a vote missing from the copy held is of unknown
	// status; evalsArrived is when those evaluations arrived: a copy sent
	// after it was read after them.
	rereadErr    string
	evalsArrived int
	proofErr     string
	checks       []appProofCheck // verification of each app proof
	// gens numbers the fetches below; extrasGen is that of the last
	// loadExtras, proofGen that of the verifications: replies of older
	// fetches are dropped.
	gens      *fetchGens
	extrasGen int
	proofGen  int
	loading   int // calls in flight
	// unknownPolicies is set when an evaluation names a policy the console
	// has not loaded: the screen reloads the organization once.
	unknownPolicies, orgAsked bool
	mfa                       *activityMfaMsg // each voter's MFA status (mfa_status.go)
	explained                 explanations    // of evals, computed once per version (explain)
	// shown is the intent's lines (api.ShowIntent), computed once per
	// intent (intentKey): they can be costly, and render runs often.
	shown    api.IntentShown
	shownFor string
	// intentSum is the hash of the held intent's JSON; seen is the screen's
	// record of the intents seen per fingerprint (intent_record.go).
	intentSum string
	seen      *intentsSeen
	body      intentBody // the intent's section (activities_detail_intent.go)
	quotes    quotes     // names quoted by the last render (activities_detail_intent.go)
	// pane is the screen's list-detail pane the record is rendered into.
	pane *ui.Detail
	// shownClock is the clock-dependent texts at the last redraw for the
	// clock (activities_detail_clock.go).
	shownClock []string
}

// activityDetailMsg brings the fresh record, the policy evaluations or the app
// proofs of an activity (one of the three; the evaluations may come with the
// record read again after them, evals_reread.go). gen is the loadExtras that
// asked for evaluations or proofs.
type activityDetailMsg struct {
	id       string
	gen      int
	sent     int // the record's request, in the screen's sequence (copy_order.go)
	activity *api.Activity
	evals    *[]api.PolicyEvaluation
	proofs   *[]api.AppProof
	err      error
	// rereadErr: with evals, the read of the record after them failed.
	rereadErr error
}

// fetchGens numbers the fetches of the open detail for the whole screen, not
// per detail: a reply to an earlier opening of the same activity never
// carries a number the current opening uses.
type fetchGens struct{ last int }

func (g *fetchGens) next() int {
	g.last++
	return g.last
}

func newActivityDetail(c *Common, act api.Activity, order copyOrder, pane *ui.Detail, gens *fetchGens, seen *intentsSeen) *activityDetail {
	d := &activityDetail{activity: act, order: order, pane: pane, gens: gens, seen: seen, intentSum: intentSum(act.Intent)}
	d.render(c)
	return d
}

// load fetches the record again, its policy evaluations and its app proofs.
func (d *activityDetail) load(c *Common) tea.Cmd {
	d.loading = 0
	return tea.Batch(d.loadRecord(c), d.loadExtras(c))
}

// loadRecord fetches the record again (the detail follows its activity).
func (d *activityDetail) loadRecord(c *Common) tea.Cmd {
	d.loading++
	id, sent := d.activity.ID, d.gens.next()
	return getActivity(c, id, func(a *api.Activity, err error) tea.Msg {
		return activityDetailMsg{id: id, sent: sent, activity: a, err: err}
	})
}

// getActivity fetches one activity and wraps the answer in the caller's message.
func getActivity(c *Common, id string, wrap func(*api.Activity, error) tea.Msg) tea.Cmd {
	client := c.Reader
	return func() tea.Msg {
		ctx, cancel := c.ctx()
		defer cancel()
		return wrap(activityOrError(client.GetActivity(ctx, id)))
	}
}

// follow shows a fresher record of the open activity. A vote (yours or
// another member's) or a new status makes its policy evaluations, app proofs
// and MFA status new too, so they are fetched again: the record alone would
// show a completed activity with the evaluations of before the deciding vote.
// A copy older than the one shown (a list fetched before your vote, answered
// after it) is ignored: it would show the vote undone.
func (d *activityDetail) follow(c *Common, act api.Activity, order copyOrder) tea.Cmd {
	before := d.activity
	if olderOrdered(act, order, before, d.order, c.Now()) {
		return nil
	}
	d.take(act, order)
	d.render(c)
	if !recordChanged(before, act) {
		return nil
	}
	return d.loadExtras(c)
}

// recordChanged reports whether a vote or a new status came between two
// records of an activity.
func recordChanged(before, after api.Activity) bool {
	return before.ID == after.ID && (before.Status != after.Status || !sameVotes(before.Votes, after.Votes))
}

// loadExtras fetches the policy evaluations, the app proofs and, while the
// activity waits for votes, the voters' MFA status.
// Replies of an earlier call (sent before a vote, answered after the call
// the vote made) are dropped: they would replace newer ones.
func (d *activityDetail) loadExtras(c *Common) tea.Cmd {
	d.extrasGen = d.gens.next()
	gen := d.extrasGen
	mfa := loadActivityMfa(c, d.activity, gen)
	if mfa == nil {
		d.mfa = nil // settled: nothing is left to satisfy
	}
	d.loading += 2
	id, act, client := d.activity.ID, d.activity, c.Reader
	evals := func() tea.Msg {
		ctx, cancel := c.ctx()
		defer cancel()
		e, err := client.GetPolicyEvaluations(ctx, id)
		msg := activityDetailMsg{id: id, gen: gen, evals: &e, err: err}
		if err == nil && voteMissing(act, e) {
			// act was read before the evaluations: a vote may have landed
			// since. The copy read now comes with them (sent no earlier
			// than gen, in the screen's sequence).
			msg.activity, msg.rereadErr = readAfterEvaluations(ctx, client, id)
			msg.sent = gen
		}
		return msg
	}
	proofs := func() tea.Msg {
		ctx, cancel := c.ctx()
		defer cancel()
		p, err := client.ListAppProofs(ctx, id)
		return activityDetailMsg{id: id, gen: gen, proofs: &p, err: err}
	}
	return tea.Batch(evals, proofs, mfa)
}

// apply takes a reply to one of the detail's fetches; order is when a
// record's arrived (copy_order.go).
func (d *activityDetail) apply(msg activityDetailMsg, order copyOrder, c *Common) {
	if msg.id != d.activity.ID {
		return
	}
	d.loading = max(d.loading-1, 0)
	record := msg.activity != nil || msg.rereadErr != nil || (msg.evals == nil && msg.proofs == nil)
	if record {
		d.takeRecord(msg, order, c)
	}
	if (msg.evals != nil || msg.proofs != nil) && msg.gen != d.extrasGen {
		if record {
			d.render(c)
		}
		return // superseded by a later loadExtras
	}
	switch {
	case msg.evals != nil:
		d.evalErr = ""
		if msg.err != nil {
			d.evalErr = errorText(msg.err)
		} else {
			d.evals = *msg.evals
			d.rereadErr, d.evalsArrived = "", order.arrived
			if msg.rereadErr != nil {
				d.rereadErr = errorText(msg.rereadErr)
			}
		}
	case msg.proofs != nil:
		d.proofErr = ""
		if msg.err != nil {
			d.proofErr = errorText(msg.err)
		} else {
			// New proofs are not verified yet: no verdict of the old ones is
			// shown beside them, and verifications of the old ones in flight
			// are dropped (Activities verifies these next).
			d.proofs = *msg.proofs
			d.checks = pendingChecks(d.proofs)
			d.proofGen = d.gens.next()
		}
	}
	d.render(c)
}

// takeRecord takes a reply's copy of the record (the evaluations' reply may
// bring one, read after them) when it is not older than the one shown.
func (d *activityDetail) takeRecord(msg activityDetailMsg, order copyOrder, c *Common) {
	err := msg.err
	if msg.evals != nil {
		err = msg.rereadErr // the evaluations' own error is theirs
	}
	// Only the reply to the newest read that landed says whether the
	// record could be refreshed: an older one's verdict is no news.
	if msg.sent >= d.recordSent {
		d.recordSent = msg.sent
		d.recordErr = ""
		if err != nil {
			d.recordErr = errorText(err)
		}
	}
	if err == nil && msg.activity != nil && msg.activity.ID == d.activity.ID && !olderOrdered(*msg.activity, order, d.activity, d.order, c.Now()) {
		// A fetch sent before your vote and answered after it would
		// show the vote undone (as in follow).
		d.take(*msg.activity, order)
	}
}

func fmtTime(now time.Time, t api.Time) string {
	if t.IsZero() {
		return "—"
	}
	tt := t.Time()
	return tt.UTC().Format("2006-01-02 15:04:05 UTC") + " (" + ui.Ago(now, tt) + " ago)"
}

// noResultText says why an activity has no result: one still pending may get
// one; a settled one never will, and "none yet" would say it is coming.
func noResultText(status string) string {
	switch status {
	case api.StatusFailed:
		return "(none: the activity FAILED)"
	case api.StatusRejected:
		return "(none: the activity was REJECTED)"
	case api.StatusCompleted:
		return "(none: the activity completed without one)"
	}
	return "(none yet)"
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

// render rebuilds the pane's text from the record. Everything from the server goes
// through the builder, which cleans it; ids are shown quoted when tampered with.
func (d *activityDetail) render(c *Common) {
	th, now, a := c.Theme, c.Now(), d.activity
	b := ui.NewDetailBuilder(th)
	b.Section("Record")
	b.Field("id", api.SanitizeID(a.ID))
	b.Field("type", a.Type)
	b.Field("status", a.Status)
	b.Field("organization", api.SanitizeID(a.OrganizationID))
	b.Field("requester", requester(c, &a))
	b.Field("created", fmtTime(now, a.CreatedAt))
	b.Field("updated", fmtTime(now, a.UpdatedAt))
	b.Field("fingerprint", api.SanitizeID(a.Fingerprint))
	b.Field("votes", votesCell(c, &a)+" root quorum approvals")
	if c.ReadOnly() {
		b.Field("you can", fmt.Sprintf("read-only: this console cannot vote (the service says approve: %s, reject: %s)", yesNo(a.CanApprove), yesNo(a.CanReject)))
	} else {
		b.Field("you can", fmt.Sprintf("approve: %s, reject: %s", yesNo(a.CanApprove), yesNo(a.CanReject)))
	}
	if d.recordErr != "" {
		b.Styled(th.Bad.Render(ui.Clean("could not refresh this record: " + d.recordErr)))
	}
	if a.Failure != nil {
		b.Field("failure", fmt.Sprintf("%s (code %d)", withPolicyNames(c, a.Failure.Message), a.Failure.Code))
		// The specifics the service gives beyond the message, as sent.
		details, notShown := api.FailureDetailLines(a.Failure)
		for i, d := range details {
			b.Field(fmt.Sprintf("  detail %d", i+1), d)
		}
		if notShown > 0 {
			b.Line(api.FailureDetailsNotShown(notShown))
		}
	}
	b.Section("Intent — " + intentSummary(c, a.Intent))
	if doubt := a.Intent.TypeDoubt(a.Type); doubt != "" {
		// The service, not this console, decides which of the two runs; and
		// policies keyed on the type judge something else than the intent.
		b.Styled(th.Warn.Render(ui.Clean("⚠ this intent is not of the activity's type (" + doubt +
			"): what it does is the service's choice, and policies keyed on the type do not judge it; do not approve it")))
	}
	if _, in := d.voteChecksOf(c); intentCheckLine(c, in) != "" {
		b.Styled(intentCheckLine(c, in))
	}
	b.Append(d.intentBody(th))
	if in := a.Intent.CreateInvitationsIntent; in != nil {
		// The JSON has the invitees' tags and the sender by id only.
		for i, inv := range in.Invitations {
			if len(inv.ReceiverUserTags) > 0 {
				b.Field(fmt.Sprintf("invite %d tags", i+1), tagsText(c, inv.ReceiverUserTags))
			}
			// A warning is of what the service will do: a decided
			// invitation's sender may since have been deleted.
			if sender, known := senderText(c, inv.SenderUserID); known {
				b.Field(fmt.Sprintf("invite %d sender", i+1), sender)
			} else if api.IsTerminal(a.Status) {
				b.Field(fmt.Sprintf("invite %d sender", i+1), decidedSenderText(c, inv.SenderUserID))
			} else {
				b.Styled(th.Warn.Render(ui.Clean(fmt.Sprintf("invite %d sender: %s", i+1, sender))))
			}
		}
	}
	// The JSON has the ids a policy's expressions hold, not what they name.
	if p := a.Intent.CreatePolicyIntentV3; p != nil {
		writeExprNamesOf(b, th, "condition", exprNames(c, p.Condition))
		// As the author's confirm and the vote dialog warn of them.
		for _, l := range exprWarningLines(nil, map[int]bool{}, nil, policy.FieldCondition, p.Condition) {
			b.Styled(th.Warn.Render(ui.Clean("  condition:" + l)))
		}
		writeExprNamesOf(b, th, "consensus", exprNames(c, p.Consensus))
		for _, l := range exprWarningLines(nil, map[int]bool{}, nil, policy.FieldConsensus, p.Consensus) {
			b.Styled(th.Warn.Render(ui.Clean("  consensus:" + l)))
		}
	}
	if p := a.Intent.CreateMfaPolicyIntent; p != nil {
		writeExprNamesOf(b, th, "condition", exprNames(c, p.Condition))
	}
	b.Section("Result")
	if isEmptyJSON(a.Result) {
		b.Line(noResultText(a.Status))
	} else {
		b.JSON(displayResult(c, a))
		if hint := sessionTokenHint(c, a); hint != "" {
			b.Field("session token", hint)
		}
	}
	b.Section(fmt.Sprintf("Votes (%d)", len(a.Votes)))
	checks, _ := d.voteChecksOf(c)
	for i, v := range a.Votes {
		mark, style := "?", th.Muted
		switch v.Selection {
		case api.VoteApproved:
			mark, style = "✓ approved", th.Good
		case api.VoteRejected:
			mark, style = "✗ rejected", th.Bad
		}
		name := ui.Clean(voterText(c, &v))
		line := style.Render(mark) + "  " + name + " (" + ui.Clean(api.SanitizeID(v.UserID)) + ")  " + ui.Clean(fmtTime(now, v.CreatedAt))
		b.Styled(line)
		if who := voterOf(c, &v); who.Relabeled {
			b.Styled("    " + th.Warn.Render(ui.Clean("⚠ "+api.RelabelText(&v, who.User))))
		}
		// The message is the signed request body: the intent above shows
		// what it asks; here, whether the vote verifies (votecheck.go).
		b.Styled("    " + voteCheckLine(c, checks[i], &v))
	}
	if doubt := credentialDoubt(c, &a); doubt != "" {
		b.Styled(th.Warn.Render(doubt))
	}
	d.renderMfa(b, c)
	b.Section(fmt.Sprintf("Policy evaluations (%d)", len(d.evals)))
	switch {
	case d.evalErr != "":
		b.Styled(th.Bad.Render(ui.Clean("could not load: " + d.evalErr)))
	case d.loading > 0 && len(d.evals) == 0:
		b.Line("loading…")
	}
	d.unknownPolicies = false
	for _, e := range d.evals {
		b.Line(fmt.Sprintf("%s  vote %s", fmtTime(now, e.CreatedAt), api.SanitizeID(e.VoteID)))
		ex, ok := d.explained.of(c.Org.Eval, d.activity, e)
		if !ok {
			// Being explained, in a command (explain).
			b.Styled("  " + th.Muted.Render("explaining…"))
			continue
		}
		ex = explainedAfter(ex, d.activity, e, d.rereadErr)
		d.unknownPolicies = d.unknownPolicies || len(ex.Unknown) > 0
		if ex.Differs {
			b.Styled("  " + th.Muted.Render(ui.Clean(ex.Why)))
		} else {
			b.Styled("  " + outcomeStyle(th, ex.Outcome).Render(strings.TrimPrefix(ex.Outcome, "OUTCOME_")) + "  " + ui.Clean(ex.Why))
		}
		for _, l := range ex.Policies {
			shown := strings.TrimPrefix(l.Shown, "OUTCOME_")
			line := "    " + shown + "  " + ui.Clean(policyLabelQuoted(l, d.quotes.quote))
			if l.Detail != "" {
				line += " — " + ui.Clean(l.Detail)
			}
			b.Line(line)
		}
	}
	b.Section(fmt.Sprintf("App proofs (%d)", len(d.proofs)))
	switch {
	case d.proofErr != "":
		b.Styled(th.Bad.Render(ui.Clean("could not load: " + d.proofErr)))
	case d.loading > 0 && len(d.proofs) == 0:
		b.Line("loading…")
	}
	d.renderAppProofs(b, c)
	d.quotes.done()
	d.pane.SetBlocks(b.Blocks())
}

// shownIntent is api.ShowIntent of the activity's intent, computed once
// per intent (intentKey).
func (d *activityDetail) shownIntent() api.IntentShown {
	if key := d.intentKey(); key != d.shownFor {
		d.shown, d.shownFor = api.ShowIntent(d.activity.Intent, nil), key
	}
	return d.shown
}

// displayIntent is the intent as the detail shows it: an oauth sign-in's OIDC
// token is not drawn. The service repeats it to every member; bound to the
// requester's target key and exchanged once, it is worth nothing to them,
// but a credential has no business in a frame or a terminal's scrollback.
func displayIntent(in api.Intent) api.Intent {
	if p := in.OauthIntent; p != nil && p.OidcToken != "" {
		shown := *p
		shown.OidcToken = fmt.Sprintf("(hidden: a %d-character OIDC token)", len(p.OidcToken))
		in.OauthIntent = &shown
	}
	return in
}

// displayResult is the result as the detail shows it: a read-only session's
// token is a bearer credential, so the console never draws it (a frame can be
// seen over a shoulder or captured by a terminal's scrollback); the CLI prints
// it (sessionTokenHint). Its expiry, epoch seconds, is shown as a time.
func displayResult(c *Common, a api.Activity) api.Result {
	res := a.Result
	if r := res.CreateReadOnlySessionResult; r != nil {
		shown := *r
		if r.Session != "" {
			shown.Session = fmt.Sprintf("(hidden: a %d-character session token; see below)", len(r.Session))
		}
		shown.SessionExpiry = epochText(c.Now(), r.SessionExpiry)
		res.CreateReadOnlySessionResult = &shown
	}
	return res
}

// sessionTokenHint is the command that prints a read-only session's hidden
// token, naming the config and profile this console runs on ('vigil demo'
// has no config where the CLI looks by default), and for how long it works;
// "" when the result holds no token. It is drawn outside the JSON, where a
// shell quote would be escaped again.
func sessionTokenHint(c *Common, a api.Activity) string {
	r := a.Result.CreateReadOnlySessionResult
	if r == nil || r.Session == "" {
		return ""
	}
	hint := "hidden; printed by: vigil activity get --json " + cliProfileFlags(c) + api.SanitizeID(a.ID)
	if c.CLIProfileNote != "" {
		hint += " (" + c.CLIProfileNote + ")"
	}
	return hint
}

// epochText shows epoch seconds as a time, "2026-11-23 22:40:41 UTC (in
// 59m)"; anything else is shown as it came (cleaned where it is drawn).
func epochText(now time.Time, secs string) string {
	n, err := strconv.ParseInt(secs, 10, 64)
	if err != nil || n <= 0 {
		return secs
	}
	t := time.Unix(n, 0).UTC()
	if t.Year() > 9999 {
		return secs
	}
	when := t.Format("2006-01-02 15:04:05 UTC")
	if d := t.Sub(now); d > 0 {
		return when + " (in " + ui.HumanDuration(d.Truncate(time.Minute)) + ")"
	}
	return when + " (expired)"
}

// cliProfileFlags are the flags, each followed by a space, with which a vigil
// verb runs on the console's profile.
func cliProfileFlags(c *Common) string {
	var flags string
	if c.ConfigPath != "" {
		flags = "--config " + shellword.Quote(c.ConfigPath) + " "
	}
	if c.Profile != "" {
		flags += "--profile " + shellword.Quote(c.Profile) + " "
	}
	return flags
}

func isEmptyJSON(v any) bool {
	out, err := json.Marshal(v)
	return err != nil || string(out) == "{}" || string(out) == "null"
}
