package screens

import (
	"fmt"
	"slices"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/policy"
	"github.com/vigil-console/vigil/ui"
)

// The vote dialog is the last thing a quorum member reads before signing, so
// it restates the whole intent (every field that decides what happens, names
// quoted so they cannot pass for the console's own words), who has voted, and
// what this vote would do by the policies the console knows. It scrolls when
// that does not fit.

func newPendingVote(c *Common, act *api.Activity, approve bool) *pendingVote {
	verb := "Approve"
	if !approve {
		verb = "Reject"
	}
	lines := []string{"type:        " + shortType(act.Type)}
	weight := map[int]int{}
	intent, warn, doubt := intentLines(c, act.Intent, weight)
	if typeDoubt := act.Intent.TypeDoubt(act.Type); typeDoubt != "" {
		doubt = strings.TrimPrefix(doubt+"; "+typeDoubt, "; ")
	}
	if doubt != "" && approve {
		// First, before anything that reads like a go-ahead.
		intent = append([]string{"WARNING: you cannot read all this activity does (" + doubt + "); do not approve it here unless you have read it whole with 'vigil activity get --json " + act.ID + "'"}, intent...)
		shifted, shiftedWeight := map[int]bool{0: true}, map[int]int{}
		for i, w := range warn {
			shifted[i+1] = w
		}
		for i, n := range weight {
			shiftedWeight[i+1] = n
		}
		warn, weight = shifted, shiftedWeight
	}
	lines = append(lines, intent...)
	// Who voted and what this vote would do, from the votes that count now
	// (one clock reading for both): a round that has ended counts no more.
	now := c.Now()
	counted := withCountingVotes(act, now)
	lines = append(lines,
		"requester:   "+requesterQuoted(c, act),
		"votes:       "+votesByName(c, counted),
	)
	doubtLine, thenLine, mfaLine, forgedLine, unsignedLine, unboundLine := -1, -1, -1, -1, -1, -1
	forged, signed := failedVotesWarning(c, counted)
	if forged != "" {
		forgedLine = len(lines)
		lines = append(lines, forged)
	}
	if unbound := intentCheckWarning(c, act); unbound != "" && approve {
		// Before the prediction: it is of what was submitted, which the
		// intent shown may not be.
		unboundLine = len(lines)
		lines = append(lines, unbound)
	}
	if then := voteConsequenceAt(c, counted, approve, now); then != "" {
		if act.IntentUnread() {
			thenLine = len(lines)
		}
		// The service counts what it shows; a vote nobody signed may be
		// the very one that makes this vote decide. Said only when what
		// happens differs, not merely the approvers named.
		alone := ""
		if forged != "" {
			if alone = voteConsequenceAt(c, signed, approve, now); samePrediction(alone, then) {
				alone = ""
			}
		}
		mfa, mfaNote := "", ""
		if approve {
			mfa, mfaNote = voterMfaWarning(c, act, now)
		}
		if mfa != "" {
			// The prediction is the consensus's; MFA may still hold it.
			then += " — as far as consensus goes: " + mfaNote
		}
		lines = append(lines, "if you "+strings.ToLower(verb)+": "+then)
		if alone != "" {
			unsignedLine = len(lines)
			lines = append(lines, "  but without the votes that FAILED their check: "+alone)
		}
		if doubt := credentialDoubt(c, counted); doubt != "" {
			doubtLine = len(lines)
			lines = append(lines, doubt)
		}
		if mfa != "" {
			mfaLine = len(lines)
			lines = append(lines, mfa)
		}
	}
	lines = append(lines, "fingerprint: "+ui.Clean(api.SanitizeID(act.Fingerprint)))
	d := ui.NewConfirm(verb+" this activity?", verb, lines...)
	d.Warn, d.WarnWeight = map[int]bool{}, map[int]int{}
	for i := range warn {
		d.Warn[1+i] = true // after the type line
	}
	for i, n := range weight {
		d.WarnWeight[1+i] = n
	}
	for _, l := range []int{doubtLine, thenLine, mfaLine, forgedLine, unsignedLine, unboundLine} {
		if l >= 0 {
			d.Warn[l] = true
		}
	}
	if doubt != "" && approve {
		d.Notice = "this console cannot show all of this intent: enter does not approve; y approves what you have not read"
	}
	before := *act
	before.Votes = slices.Clone(act.Votes)
	return &pendingVote{approve: approve, id: act.ID, fingerprint: act.Fingerprint, intent: intentSum(act.Intent), dialog: d, before: &before}
}

// field is one "label: value" line of the dialog, the values aligned.
func field(label, value string) string {
	return fmt.Sprintf("%-12s %s", label+":", value)
}

// idsText lists ids, each shown as an id is (quoted when tampered with).
func idsText(ids []string) string { return listText(ids, api.SanitizeID) }

// tagsText names user tags by their names, quoted as names are, each with
// its id (two tags may share a name); a tag the console cannot name is an
// "unknown tag", by id.
func tagsText(c *Common, ids []string) string {
	return listText(ids, func(id string) string {
		if n, ok := c.Org.TagNames[id]; ok {
			return api.Quote(n) + " (id " + api.SanitizeID(id) + ")"
		}
		return "unknown tag " + api.SanitizeID(id)
	})
}

// usersText names users by their names where known, with their ids.
func usersText(c *Common, ids []string) string {
	return listText(ids, func(id string) string {
		if n := c.Org.UserNames[id]; n != "" {
			return api.QuotedNameWithID(n, id)
		}
		return "user " + api.SanitizeID(id)
	})
}

// listText is ids, each as show gives it, joined by commas, or "(none)".
func listText(ids []string, show func(id string) string) string {
	if len(ids) == 0 {
		return "(none)"
	}
	out := make([]string, len(ids))
	for i, id := range ids {
		out[i] = show(id)
	}
	return strings.Join(out, ", ")
}

// orElseEmpty is users, or none (not nil: nil means they are unknown).
func orElseEmpty(users []api.User) []api.User {
	if users == nil {
		return []api.User{}
	}
	return users
}

// orElse is v, or what its absence means.
func orElse(v, none string) string {
	if v == "" {
		return none
	}
	return v
}

// senderText names the user an invitation is sent in the name of, quoted as
// the dialog names every member (a name cannot pass its words for the
// console's), with the id (two users may share a name); known is false when
// the console knows no such user, which the vote dialog shows as a warning:
// the service fails the invitation only once the quorum has voted.
func senderText(c *Common, id string) (text string, known bool) {
	if n, ok := c.Org.UserNames[id]; ok {
		return api.QuotedNameWithID(n, id), true
	}
	return "unknown user " + api.SanitizeID(id), false
}

// decidedSenderText is senderText's unknown user for a decided invitation:
// no warning, as the service will do nothing more with it.
func decidedSenderText(c *Common, id string) string {
	if !c.Org.Loaded {
		return api.SanitizeID(id) + " (not named: the organization's users are not loaded)"
	}
	return api.SanitizeID(id) + " (not among the organization's users as last loaded)"
}

// intentLines restate every field of an intent that decides what it does;
// warn holds the indexes of the lines to draw in the warning style.
// Secrets (an OIDC token, an encrypted client secret) are named, not shown.
// An intent of a type this console does not know (the real service has many
// more operations) is shown field by field as sent, after any it knows.
//
// doubt says why the lines are not the intent faithfully and whole (none
// the console can show, several operations, part of it cut), or is "": the
// dialog then warns, and says approving means approving unread.
//
// weight, when not nil, is given the lines that stand for several warnings
// (ui.Confirm.WarnWeight).
func intentLines(c *Common, in api.Intent, weight map[int]int) (lines []string, warn map[int]bool, doubt string) {
	keys := in.Keys()
	if len(keys) == 0 {
		return []string{field("what", noIntentText)}, map[int]bool{0: true}, "this console cannot show its intent"
	}
	if len(keys) == 1 && len(in.Other) == 0 {
		lines, warn = knownIntentLines(c, in, weight)
		// Its own words for it are not bounded as api.ShowIntent's lines are:
		// a list too long for those is not read here either.
		if doubts := api.ShowIntent(in, nil).Doubts; len(doubts) > 0 {
			doubt = strings.Join(doubts, "; ")
		}
		return lines, warn, doubt
	}
	// Several operations, or one this console does not know: every field
	// of each, as sent, generically (bounded; see api.ShowIntent).
	warn = map[int]bool{0: true}
	what := "an intent of a type this console does not know; every field as sent:"
	if len(keys) > 1 {
		what = fmt.Sprintf("an intent holding %d operations: %s; every field of each follows", len(keys), idsText(keys))
	}
	for _, k := range in.UnknownKeys() {
		if api.KnowsIntentKey(k) && len(keys) == 1 {
			what = "an intent this console knows in a shape it does not know (or of a type it does not); every field as sent:"
		}
	}
	lines = append(lines, field("what", what))
	shown := api.ShowIntent(in, orgUsers(c))
	for i, l := range shown.Lines {
		if strings.HasPrefix(l, "WARNING") || strings.HasPrefix(l, "(cut") || strings.Contains(l, "not in this shape") {
			warn[len(lines)+i] = true
		}
	}
	lines = append(lines, shown.Lines...)
	if len(shown.Doubts) > 0 {
		doubt = strings.Join(shown.Doubts, "; ")
	}
	return lines, warn, doubt
}

// orgUsers are the organization's users, to name whom an OIDC token signs
// in, or nil while the organization is not loaded.
func orgUsers(c *Common) []api.User {
	if !c.Org.Loaded {
		return nil
	}
	return orElseEmpty(c.Org.Users)
}

// knownIntentLines are intentLines of the intents this console knows.
func knownIntentLines(c *Common, in api.Intent, weight map[int]int) (lines []string, warn map[int]bool) {
	if in.CreateInvitationsIntent != nil {
		if len(in.CreateInvitationsIntent.Invitations) == 0 {
			// The service accepts it, and completes it inviting nobody.
			return []string{field("invite", "(none: this activity invites nobody)")}, nil
		}
		warn = map[int]bool{}
		for i, inv := range in.CreateInvitationsIntent.Invitations {
			sender, known := senderText(c, inv.SenderUserID)
			lines = append(lines, field(fmt.Sprintf("invite %d", i+1), api.Quote(inv.ReceiverUserName)+" <"+api.Quote(inv.ReceiverUserEmail)+">"),
				field("  access", strings.TrimPrefix(inv.AccessType, "ACCESS_TYPE_")),
				field("  tags", tagsText(c, inv.ReceiverUserTags)),
				field("  sender", sender))
			if !known {
				warn[len(lines)-1] = true
			}
			for _, id := range inv.ReceiverUserTags {
				if _, ok := c.Org.TagNames[id]; !ok {
					// The service takes any id: a tag nobody created.
					warn[len(lines)-2] = true
				}
			}
		}
		return lines, warn
	}
	if in.SetOrganizationFeatureIntent != nil {
		p := in.SetOrganizationFeatureIntent
		lines = []string{field("feature", strings.TrimPrefix(p.Name, "FEATURE_NAME_")), field("value", api.Quote(p.Value)),
			field("replaces", currentFeatureText(c, p.Name))}
		if w := api.FeatureValueWarning(p.Name, p.Value); w != "" {
			// First: a value the form refuses may lock every passkey out.
			return append([]string{w}, lines...), map[int]bool{0: true}
		}
		return lines, nil
	}
	if p := in.CreatePolicyIntentV3; p != nil {
		return policyIntentLines(c, p, weight)
	}
	if p := in.DeleteAPIKeysIntent; p != nil {
		return deleteKeysIntentLines(c, in, p)
	}
	if p := in.CreateMfaPolicyIntent; p != nil {
		warn = map[int]bool{}
		lines = []string{field("MFA policy", api.Quote(p.MfaPolicyName)), field("for", usersText(c, []string{p.UserID}))}
		lines = exprFieldLines(lines, warn, "condition", orElse(p.Condition, "(none)"))
		lines = exprNameLines(lines, warn, exprNames(c, p.Condition))
		// As the MFA screen reads them: methods by name, pins as the
		// credentials they are, and a pin no vote of the user can meet
		// flagged, as this is the last point to stop such a policy.
		var owner *api.User
		if i := slices.IndexFunc(c.Org.Users, func(u api.User) bool { return u.UserID == p.UserID }); i >= 0 {
			owner = &c.Org.Users[i]
		}
		creds := consoleCredentials(c, owner, true)
		steps := describeSteps(p.RequiredAuthenticationMethods, creds)
		lines = append(lines, field("steps", orElse(strings.Join(steps, "; "), "(none)")))
		for _, w := range unmeetablePins(p.RequiredAuthenticationMethods, creds) {
			warn[len(lines)] = true
			lines = append(lines, w)
		}
		return append(lines, field("order", fmt.Sprint(p.Order)), field("notes", api.Quote(p.Notes))), warn
	}
	if _, params := in.Params(); params == nil {
		return []string{field("what", noIntentText)}, map[int]bool{0: true}
	}
	return otherIntentLines(c, in), nil
}

// noIntentText is what the dialog says of an activity whose reply holds no
// intent the console can read: the console cannot show it (whatever the
// service sent), so the member must not approve it here.
const noIntentText = "this console cannot show the intent of this activity: do not approve what you cannot read ('vigil activity get --json' shows the reply as sent)"

// currentFeatureText is the value a feature has now, as the console last
// loaded the organization, or what its absence means.
func currentFeatureText(c *Common, name string) string {
	if !c.Org.Loaded {
		return "(unknown: the organization is not loaded)"
	}
	for _, f := range c.Org.Features {
		if f.Name == name {
			return api.Quote(f.Value)
		}
	}
	return "(not set now)"
}

// otherIntentLines are intentLines of the intents no field of which is
// drawn as a warning.
func otherIntentLines(c *Common, in api.Intent) []string {
	switch {
	case in.DeleteAPIKeysIntent != nil:
		p := in.DeleteAPIKeysIntent
		return []string{field("delete", plural(len(p.APIKeyIDs), "API key")+" of "+usersText(c, []string{p.UserID})),
			field("key ids", idsText(p.APIKeyIDs))}
	case in.DeleteWalletAccountsIntent != nil:
		p := in.DeleteWalletAccountsIntent
		lines := []string{field("delete", plural(len(p.WalletAccountIDs), "wallet account")), field("account ids", idsText(p.WalletAccountIDs))}
		if p.DeleteWithoutExport != nil && *p.DeleteWithoutExport {
			lines = append(lines, field("export", "NOT required: the keys may never have been exported"))
		}
		return lines
	case in.CreateUserTagIntent != nil:
		p := in.CreateUserTagIntent
		return []string{field("tag", api.Quote(p.UserTagName)), field("users", usersText(c, p.UserIDs))}
	case in.CreateSmartContractInterfaceIntent != nil:
		return contractInterfaceLines(in.CreateSmartContractInterfaceIntent)
	case in.UpdateOauth2CredentialIntent != nil:
		p := in.UpdateOauth2CredentialIntent
		return []string{field("credential", api.SanitizeID(p.Oauth2CredentialID)), field("provider", api.Quote(p.Provider)),
			field("client id", api.Quote(p.ClientID)), field("secret", "a new client secret (encrypted; not shown)")}
	case in.DeleteTvcDeploymentIntent != nil:
		return []string{field("delete", "TVC deployment "+api.SanitizeID(in.DeleteTvcDeploymentIntent.DeploymentID))}
	case in.OauthIntent != nil:
		p := in.OauthIntent
		lines := []string{field("new API key", api.OauthKeyNameText(p.APIKeyName)), field("public key", api.SanitizeID(p.TargetPublicKey)),
			field("expires", api.OauthExpiryText(p.ExpirationSeconds))}
		if p.InvalidateExisting != nil && *p.InvalidateExisting {
			lines = append(lines, field("existing", "the other OAuth keys of the token's user are invalidated"))
		}
		// The token alone says whose account this touches: its issuer and
		// subject, unverified, and the member linked to them.
		var users []api.User
		if c.Org.Loaded {
			users = orElseEmpty(c.Org.Users)
		}
		return append(lines, api.OIDCTokenLinesNaming(p.OidcToken, users, func(u api.User) string { return api.QuotedNameWithID(u.UserName, u.UserID) })...)
	case in.CreateReadOnlySessionIntent != nil:
		return []string{field("what", "a read-only session for the requester")}
	}
	// An intent the dialog has no words of its own for (a vote on a vote, or
	// one this console does not know): every field of it, the way the CLI's
	// prompt shows it, never the one cut line of its summary.
	if lines := api.IntentLines(in); len(lines) > 0 {
		return lines
	}
	return []string{field("what", noIntentText)}
}

func plural(n int, one string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %ss", n, one)
}

// requesterQuoted is who asked for act, as the vote dialog names members.
func requesterQuoted(c *Common, act *api.Activity) string {
	if len(act.Votes) == 0 {
		return "(unknown: the service sent no votes)"
	}
	if policy.SubmitterOf(*act) == "" {
		// The first vote shown is of a later round: naming its voter would
		// name the wrong member as the one who asked.
		return "(unknown: the votes shown are of a later voting round)"
	}
	return memberQuoted(c, &act.Votes[0])
}

// votesByName says who voted how, and the root quorum's count.
func votesByName(c *Common, act *api.Activity) string {
	var parts []string
	for i := range act.Votes {
		v := &act.Votes[i]
		how := "approved"
		if v.Selection == api.VoteRejected {
			how = "rejected"
		}
		who := memberQuoted(c, v) + relabelNote(c, v) + notOwnKeyNote(c, v)
		if isOwnVote(c, v) {
			who = "you"
		}
		parts = append(parts, who+" "+how)
	}
	s := orElse(strings.Join(parts, ", "), "none yet")
	return s + " (root quorum " + votesCell(c, act) + ")"
}

// voteConsequence is what the console's reading of the organization's
// policies says this vote would do now; "" when it cannot tell (the policies
// or members are not loaded, or the user is unknown).
func voteConsequence(c *Common, act *api.Activity, approve bool) string {
	return voteConsequenceAt(c, act, approve, c.Now())
}

// voteConsequenceAt is voteConsequence at now. Only the votes that count at
// now count, with this one, as the service counts them: the votes of a
// round that has ended do not, and this vote then starts a round alone.
// This vote joins those that count whatever their times say (a service's
// clock ahead of the console's), never starting a round of its own before
// them.
func voteConsequenceAt(c *Common, act *api.Activity, approve bool, now time.Time) string {
	ec := c.Org.Eval
	me, ok := ec.members[c.Org.UserID]
	if !ok || c.Org.UserID == "" {
		return ""
	}
	if c.voter().OtherKeyVote(act) != nil {
		// The vote would be added as whoami's user, who already has one the
		// console's key did not sign: who this vote counts as is not known.
		return ""
	}
	if refused := keyVotedAsOther(c, withCountingVotes(act, now).Votes); refused != "" {
		return refused
	}
	if act.IntentUnread() {
		// Worked out on empty params, a prediction would be a guess stated as fact.
		return api.CannotTellParams + ", which the policies may look at"
	}
	quorum := policy.QuorumOf(ec.quorum)
	rootOnly := policy.RootOnly(act.Type)
	// The vote carries the key the console signs with: the service records
	// that key's credential with an approval, and policies may read it.
	pub, scheme, known := ownVoteKey(c, me)
	if approve && !known && !rootOnly {
		if why := ownKeyUnknown(ec.ordered); why != "" {
			return why
		}
	}
	act = withCountingVotes(act, now)
	with := *act
	with.Votes = append(slices.Clone(act.Votes), api.Vote{UserID: me.ID, User: api.User{UserName: me.Name},
		Selection: api.VoteSelection(approve), CreatedAt: api.NewTime(now),
		PublicKey: pub, Scheme: scheme})
	if !approve {
		voted := map[string]bool{}
		for _, v := range with.Votes {
			voted[v.UserID] = true
		}
		approvals := *act // a rejection adds no approver
		in := policy.InputOfActivity(approvals, ec.members, now)
		// Only the members the service would still let vote: a member it
		// refuses (NOT_A_VOTER) can approve nothing.
		others := othersWhoMayVote(ec, in, rootOnly, voted)
		if len(others) == 0 {
			return "it is REJECTED: nobody else may vote on it, and a rejection by its last voter settles it"
		}
		reach := policy.Reachable(ec.ordered, in, quorum, rootOnly, others)
		if reach.Exhausted {
			return "it stays pending: the policies are too costly to tell whether the members who may still vote can approve it; more rejections or the approvals' expiry end it"
		}
		if reach.Reachable {
			return "it stays pending: the members who may still vote can approve it"
		}
		return "it is REJECTED: no way to reach consensus would remain"
	}
	in := policy.InputOfActivity(with, ec.members, now)
	d := policy.Decide(ec.ordered, in, quorum, rootOnly)
	switch d.Outcome {
	case api.OutcomeAllow:
		return "it is allowed and runs now (" + policy.Explain(d).BriefWhy(briefPolicies) + ")"
	case api.OutcomeDenyExplicit:
		return "it FAILS: " + policy.Explain(d).BriefWhy(briefPolicies)
	case api.OutcomeRequiresConsensus:
		return "it still waits — " + strings.TrimPrefix(policy.Explain(d).Why, "waiting: ")
	}
	return "by the console's reading of the policies: " + ui.Clean(d.Reason)
}

// voted takes a vote's own reply: the vote in flight is over.
func (a *Activities) voted(msg activityVotedMsg) tea.Cmd {
	if msg.id == a.voting {
		a.voting = ""
	}
	return a.reportVote(msg)
}

// reportVote says what became of a vote, and shows the activity as it left it.
func (a *Activities) reportVote(msg activityVotedMsg) tea.Cmd {
	if a.unsure != nil && a.unsure.id == msg.id {
		a.unsure = nil // this reply, or a read of the activity since, settles it
	}
	said := voteWords(a.c, msg, a.keys.Approve.Help().Key+" or "+a.keys.Reject.Help().Key)
	a.voteErr = ""
	order := copyOrder{msg.sent, a.gens.next()}
	switch voteOutcomeOf(a.c, msg) {
	case voteCounted:
		act := *msg.activity
		return tea.Batch(said.tell(), a.takeVoted(act, order))
	case voteCountedAnyway:
		return tea.Batch(said.tell(), a.takeVoted(*msg.current, order))
	case voteAlreadyCast:
		return tea.Batch(said.tell(), a.takeVoted(*msg.current, order))
	case voteTooLate:
		// Another member settled it first: say so in words, and show it.
		a.keepSettled(*msg.current, order)
		return tea.Batch(said.tell(), a.followOpen(*msg.current, order))
	case voteNotRecorded:
		// Looked, and the vote is not there yet.
		a.voteErr = said.entry
		return tea.Batch(said.tell(), a.load())
	case voteOnAnother:
		// The vote may have counted on another activity: said loudly,
		// and the list loaded again to show what it did.
		a.voteErr = said.entry
		return tea.Batch(said.tell(), a.load())
	case voteUnknown, voteVoterUnsure:
		// The vote may have been recorded: the status bar says so until a
		// read of the activity tells (r, the auto-refresh), and the list is
		// loaded again rather than let the user vote blind.
		a.voteErr = said.entry
		unsure := msg
		a.unsure = &unsure
		return tea.Batch(said.tell(), a.load())
	}
	a.voteErr = said.entry
	return said.tell()
}

// takeVoted shows the record a vote left: in the list (kept there when it
// has settled) and in the open detail, whose evaluations, app proofs and MFA
// status it fetches again (the vote changed them).
func (a *Activities) takeVoted(act api.Activity, order copyOrder) tea.Cmd {
	a.replace(act, order)
	if api.IsTerminal(act.Status) {
		a.keepSettled(act, order)
	}
	return a.followOpen(act, order)
}

// followOpen shows act, arrived as order, in the open detail when it is the
// open activity.
func (a *Activities) followOpen(act api.Activity, order copyOrder) tea.Cmd {
	if a.detail == nil || a.detail.activity.ID != act.ID {
		return nil
	}
	return a.detail.follow(a.c, act, order)
}

// vote sends the vote captured by the dialog, once.
func (a *Activities) vote(v pendingVote) tea.Cmd {
	client, err := a.c.submitter()
	if err != nil {
		return ui.Toast(err.Error(), true)
	}
	if a.voting != "" {
		return nil
	}
	a.voting = v.id
	a.dropPendingTopPoll()
	c, reader, sent, me := a.c, a.c.Reader, a.gens.next(), a.c.voter()
	return func() tea.Msg {
		if me.UserID == "" {
			// The organization did not load (its whoami failed): who votes
			// is read now, before the vote (an approval may delete the key),
			// or no vote can be told as yours.
			me.UserID = whoVotes(c, reader)
		}
		ctx, cancel := c.ctx()
		defer cancel()
		var act *api.Activity
		var err error
		verb := "approve"
		var sig string
		if v.approve {
			act, err = client.ApproveActivity(ctx, v.fingerprint, api.NoteSignature(&sig))
		} else {
			verb = "reject"
			act, err = client.RejectActivity(ctx, v.fingerprint, api.NoteSignature(&sig))
		}
		// Only the vote carrying the stamp just sent is this vote (api.VoteSince).
		me = me.Sent(sig)
		act, err = activityOrError(act, err)
		if err == nil && api.SortVoteReply(v.id, me, v.approve, v.before, act) == api.VoteReplyUnsure {
			// A success that does not show the vote (a cache's copy from
			// before it) says nothing of it: look, as after a lost reply.
			act, err = nil, fmt.Errorf("submit/%s_activity: %s: %w", verb, api.VoteReplyUnsureWhy(me, v.before, act), api.ErrOutcomeUnknown)
		}
		var current *api.Activity
		// A vote refused for the key itself was not recorded, and a read
		// stamped with the same key is refused alike: nothing to look up.
		if err != nil && !api.KeyRefused(err) {
			// Did the vote count after all (a lost reply, a gateway's 5xx, a
			// reply slower than the timeout), or was the activity settled
			// meanwhile? Either is said in words. A fresh deadline: the vote's
			// may be what ran out.
			rctx, rcancel := c.ctx()
			if cur, gerr := reader.GetActivity(rctx, v.id); gerr == nil {
				current = cur
			}
			rcancel()
		}
		if err != nil {
			c.Log.Warn("vote failed", "vote", verb, "activity", ui.Clean(api.SanitizeID(v.id)),
				"fingerprint", ui.Clean(api.SanitizeID(v.fingerprint)), "err", ui.Clean(err.Error()))
		} else {
			c.Log.Info("vote sent", "vote", verb, "activity", ui.Clean(api.SanitizeID(v.id)),
				"fingerprint", ui.Clean(api.SanitizeID(v.fingerprint)), "status", ui.Clean(act.Status))
		}
		return activityVotedMsg{id: v.id, approve: v.approve, activity: act, sent: sent, err: err, current: current, voter: me, before: v.before}
	}
}
