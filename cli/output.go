package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/policy"
)

// writeJSON is the one JSON writer of the verbs: api.EncodeJSON, which keeps
// values exact and writes every character that could act on a terminal as a
// \uXXXX escape. A json.RawMessage is written as the service sent it, re-indented.
func writeJSON(w io.Writer, v any) error {
	if err := api.EncodeJSON(w, v); err != nil {
		return fmt.Errorf("write JSON: %w", err)
	}
	return nil
}

// table writes rows aligned in columns under a header.
func table(w io.Writer, header []string, rows [][]string) error {
	return writeColumns(w, 2, append([][]string{header}, rows...))
}

// fields writes "name: value" lines aligned; empty values are left out. A
// value holding line breaks (exprText) has its later lines under its first.
func fields(w io.Writer, kv ...string) error {
	var lines [][]string
	for i := 0; i+1 < len(kv); i += 2 {
		if kv[i+1] == "" {
			continue
		}
		for j, part := range strings.Split(kv[i+1], "\n") {
			label := ""
			if j == 0 {
				label = kv[i] + ":"
			}
			lines = append(lines, []string{label, part})
		}
	}
	return writeColumns(w, 1, lines)
}

// timeText shows a wire time as UTC, or "" when unset.
func timeText(t api.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.Time().Format("2006-01-02 15:04:05Z")
}

// compactJSON shows a value as one line of JSON for summaries. v must hold
// exact strings (as the service sent them): api.EncodeJSON escapes them once,
// so that a real newline shows as \n and the two characters "\n" typed as text
// as \\n. A value already sanitised would have its escapes escaped again, and
// both would show as \\n.
func compactJSON(v any) string {
	var indented, b bytes.Buffer
	if api.EncodeJSON(&indented, v) != nil || json.Compact(&b, indented.Bytes()) != nil {
		return "?"
	}
	return b.String()
}

// shownActivity is an activity to print for people, the way the console shows
// one: decoded exactly (exact) and escaped once, at output, by printActivity
// and intentShown. The embedded Activity is the same record sanitised as the
// client sanitises every reply, for the callers' own messages (ids, status).
// Only decodeShownActivity makes one, so a record decoded and sanitised
// elsewhere cannot reach printActivity and be escaped twice.
type shownActivity struct {
	*api.Activity
	exact *api.Activity
	raw   json.RawMessage // the reply as the service sent it, for printing as received
	// usersUnread: the organization's user list could not be read for it
	// (activityUsers), so the requester is named as their vote says.
	usersUnread bool
}

// decodeShownActivity decodes a reply holding one activity ({"activity": …},
// the reply of get_activity and of every submit) for printing.
func decodeShownActivity(op string, raw json.RawMessage) (shownActivity, error) {
	var exact, clean api.ActivityResponse
	if json.Unmarshal(raw, &exact) != nil || json.Unmarshal(raw, &clean) != nil {
		return shownActivity{}, fmt.Errorf("%s: the reply is not the expected JSON; the server may not be this service", op)
	}
	api.SanitizeValue(&clean)
	return shownActivity{Activity: &clean.Activity, exact: &exact.Activity, raw: raw}, nil
}

// getActivityShown reads an activity for printing.
func getActivityShown(ctx context.Context, client *api.Client, id string) (shownActivity, error) {
	raw, err := client.QueryRaw(ctx, api.QueryGetActivity, api.GetActivityRequest{OrganizationID: client.OrganizationID(), ActivityID: id})
	if err != nil {
		return shownActivity{}, err
	}
	if err := ambiguousReread(raw); err != nil {
		// Printed as sent (--json, 'vigil request'), decided on decoded: both must be the same activity.
		return shownActivity{}, err
	}
	a, err := decodeShownActivity("query/"+api.QueryGetActivity, raw)
	if err != nil {
		return shownActivity{}, err
	}
	if why := api.ActivityReplyMismatch(client.OrganizationID(), id, a.exact); why != "" {
		return shownActivity{}, fmt.Errorf("query/%s: %s", api.QueryGetActivity, why)
	}
	return a, nil
}

// submitShown submits one operation and returns the activity for printing and
// the reply as sent (for --json).
func submitShown(ctx context.Context, client *api.Client, path string, params api.Params, opts ...api.SubmitOption) (shownActivity, json.RawMessage, error) {
	_, raw, err := client.SubmitRaw(ctx, path, params, opts...)
	if err != nil {
		return shownActivity{}, nil, err
	}
	a, err := decodeShownActivity("submit/"+path, raw)
	return a, raw, err
}

// activityRequester is who submitted the activity: the first vote is the
// requester's own approval. a must be exact (as the service sent it): the name
// is escaped here, as the console shows it (api.NameText), quoted when it
// could pass for another.
func activityRequester(a *api.Activity) string {
	// The first vote is the submitter's only in the first voting round
	// (policy.SubmitterOf); a later round's first voter is someone else.
	if policy.SubmitterOf(*a) == "" {
		return "?"
	}
	v := a.Votes[0]
	if v.User.UserName != "" {
		return api.NameWithID(v.User.UserName, v.UserID)
	}
	return api.SanitizeID(v.UserID)
}

// voteDetails is what the vote prompt shows above its question: the
// activity, its requester and status, and its intent (voteIntentText). For
// an oauth activity it lists the organization's users, to name the user the
// token's subject is linked to; without them the prompt still shows the
// token's unverified issuer and subject, and says the user is not named.
// For a policy it names the tags and users its expressions refer to by id
// (idRefsBlock). For a feature change it says the value the new one replaces,
// as the console's approval view does: what the vote removes is part of it.
func voteDetails(ctx context.Context, c proc, client *api.Client, a shownActivity) string {
	return votePrompt(ctx, c, client, a, "", "")
}

// votePrompt is voteDetails with the fingerprint the vote signs, which is
// all its parameters are, and signer (signedFor; "": left out), the
// organization and key it is signed for: what is shown is what is signed.
// said are the warnings on the vote said before it (lines, each ending in
// a newline), its first lines.
func votePrompt(ctx context.Context, c proc, client *api.Client, a shownActivity, said, signer string) string {
	users, note := oidcUsers(ctx, client, a)
	if note != "" {
		note = "\n" + note
	}
	// The requester is named from the organization's user list, read exact
	// (oidcUsers are sanitized): the requester's vote's own name is the
	// service's label, which no signature covers (requesterShown).
	requester, listed := requesterShown(ctx, client, a.exact)
	if refs := idRefsBlock(ctx, c, client, a.exact.Intent, listed); refs != "" {
		note += "\n" + strings.TrimSuffix(refs, "\n")
	}
	if ws := policyWarningsBlock(a.exact.Intent); ws != "" {
		note += "\n" + strings.TrimSuffix(ws, "\n")
	}
	// From the list read for the requester, not read again; read here when
	// no requester was known to read it for (a later voting round).
	readUsers := policy.SubmitterOf(*a.exact) == ""
	if names := intentNamesBlock(ctx, c, client, a.exact, listed, readUsers); names != "" {
		note += "\n" + strings.TrimSuffix(names, "\n")
	}
	// First, before anything that reads like a go-ahead, as the console's
	// vote dialog: nothing may bind the intent shown (intentWarning).
	warning := said
	if w := intentWarning(a.exact, listed); w != "" {
		warning += w + "\n"
	}
	if p := a.exact.Intent.SetOrganizationFeatureIntent; p != nil {
		note += "\n  replaces: " + currentFeature(ctx, client, p.Name)
		if w := api.FeatureValueWarning(p.Name, p.Value); w != "" {
			warning += w + "\n" // first, before anything that reads like a go-ahead
		}
	}
	prompt := fmt.Sprintf("%sactivity:  %s\ntype:      %s\nrequester: %s\nstatus:    %s\n%s%s",
		warning, a.ID, a.Type, requester, a.Status, voteIntentText(a, users), note)
	// What the vote signs comes last, right above the question: a long
	// intent scrolls the top of the prompt off the terminal, never its end.
	// For the same reason the warnings that come first are said again here
	// when the prompt is longer than a terminal shows.
	end := "signs:     fingerprint " + api.SanitizeID(a.Fingerprint)
	if signer != "" {
		end += "\nfor:       " + signer
	}
	// Rows shown: the prompt's and the end's as the terminal wraps them,
	// and the question's.
	rows, cols := promptScreen(c)
	if warning != "" && screenRows(prompt+"\n"+end, cols)+1 > rows {
		end = "repeated from the top of this prompt:\n" + warning + end
	}
	return prompt + "\n" + end
}

// voteIntentText is the intent as the vote prompt shows it (intentShown),
// after the activity's lines and before the notes on it.
func voteIntentText(a shownActivity, users []api.User) string {
	head, body := intentShown(a, users)
	return strings.Join(append([]string{"intent:    " + head}, body...), "\n")
}

// intentShown is the intent as people read it, in the vote prompt and in
// activity get: a head naming the operation, then every field on a line of
// its own (api.ShowIntent), expressions a source line a line, secrets named
// not shown. The voter signs what they read, so nothing that decides what
// the activity does is cut; only long free text is, and then a last line
// says where to read it whole (as it says why an intent is not shown
// faithfully). users name the user an OIDC token is linked to (nil: not
// named).
func intentShown(a shownActivity, users []api.User) (head string, body []string) {
	in := a.exact.Intent
	typ, params := in.Params()
	switch keys := in.Keys(); {
	case len(keys) > 1:
		head = fmt.Sprintf("%d operations: %s (each below under its own key)", len(keys), strings.Join(quotedKeys(keys), ", "))
	case params != nil:
		op, _ := api.OperationByType(typ)
		head = op.Path
	case len(in.Other) > 0:
		// The real service has operations vigil does not know: their intent
		// is shown field by field as sent, never left out.
		head = strings.Join(quotedKeys(in.UnknownKeys()), ", ") + " (" + unknownWhat(in.UnknownKeys()) + "; every field as sent)"
	default:
		return "(none that vigil can show; 'vigil activity get --json " + a.ID + "' shows the reply as sent)", nil
	}
	shown := api.ShowIntent(in, users)
	shortened := false
	for _, l := range shown.Lines {
		body = append(body, "  "+l)
		shortened = shortened || api.IsShortened(l)
	}
	if len(shown.Doubts) > 0 {
		body = append(body, fmt.Sprintf("WARNING: vigil cannot show this intent faithfully and whole: %s; 'vigil activity get --json %s' shows it as sent", strings.Join(shown.Doubts, "; "), a.ID))
	} else if shortened {
		body = append(body, fmt.Sprintf("(long text shortened; 'vigil activity get --json %s' shows it whole)", a.ID))
	}
	// The service may run either the operation the type names or the one
	// the intent holds: whoever reads it here is told, as the voter is.
	if doubt := in.TypeDoubt(a.exact.Type); doubt != "" {
		body = append(body, "WARNING: the activity's intent is not of its type ("+doubt+")")
	}
	return head, body
}

// intentDoubt says why the activity holds no intent the prompt can show
// faithfully and whole (known or not), or "" when it holds one: a member
// must not approve what they cannot read, unless they say so (--yes).
func intentDoubt(a shownActivity) string {
	in := a.exact.Intent
	if len(in.Keys()) == 0 {
		return "the activity holds no intent vigil can show"
	}
	if doubts := api.ShowIntent(in, nil).Doubts; len(doubts) > 0 {
		return "vigil cannot show the activity's intent faithfully and whole (" + strings.Join(doubts, "; ") + ")"
	}
	if doubt := in.TypeDoubt(a.exact.Type); doubt != "" {
		return "the activity's intent is not of its type (" + doubt + ")"
	}
	return ""
}

// unknownWhat says what vigil does not know of the intent keys kept as sent:
// their type, or (for an operation it knows, api.KnowsIntentKey) this shape
// of it.
func unknownWhat(keys []string) string {
	for _, k := range keys {
		if api.KnowsIntentKey(k) {
			return "a type vigil does not know, or one it knows in a shape it does not"
		}
	}
	return "a type vigil does not know"
}

// quotedKeys are intent keys as labels, as api.IntentLines shows them: two
// keys that differ never read the same (a tampered key and one spelled as
// its escaped form).
func quotedKeys(keys []string) []string {
	out := make([]string, len(keys))
	for i, k := range keys {
		out[i] = api.KeyLabel(k)
	}
	return out
}

// printActivity writes an activity for people: what it is, who asked, where it
// stands, the votes, and the result or failure. Every value comes from the
// exact record and is escaped here, once.
func printActivity(w io.Writer, shown shownActivity) error {
	return printActivityNaming(w, shown, nil)
}

// printActivityNaming is printActivity naming, among users, the user an
// OIDC token in the intent is linked to, and saying whose key signed each
// verified vote (keyOwnerText), and naming voters from users (voterText;
// nil: none of this is said, voters are named as their votes name them).
func printActivityNaming(w io.Writer, shown shownActivity, users []api.User) error {
	a := shown.exact
	votes := make([]string, 0, len(a.Votes))
	checks, intentCheck := api.CheckActivityVotes(*a, users)
	for i, v := range a.Votes {
		name := voterText(&a.Votes[i], users)
		votes = append(votes, name+" "+strings.ToLower(strings.TrimPrefix(api.Sanitize(v.Selection), "VOTE_SELECTION_"))+" "+voteCheckOwnerText(checks[i], &a.Votes[i], users))
	}
	result := resultText(a.Result)
	failure := ""
	if a.Failure != nil {
		failure = fmt.Sprintf("%s (code %d)", api.Sanitize(a.Failure.Message), a.Failure.Code)
		// The specifics the service gives beyond the message, as sent, a
		// line each under it.
		details, notShown := api.FailureDetailLines(a.Failure)
		for _, d := range details {
			failure += "\ndetail: " + d
		}
		if notShown > 0 {
			failure += "\n" + api.FailureDetailsNotShown(notShown)
		}
	}
	you := []string{}
	if a.CanApprove {
		you = append(you, "approve")
	}
	if a.CanReject {
		you = append(you, "reject")
	}
	// The intent as the vote prompt shows it, its lines under its head, so
	// that an expression of several lines reads as it was written.
	intentHead, intentBody := intentShown(shown, users)
	err := fields(w,
		"id", api.SanitizeID(a.ID),
		"type", api.Sanitize(a.Type),
		"status", api.Sanitize(a.Status),
		"requester", requesterLine(shown, users),
		"intent", strings.Join(append([]string{intentHead}, intentBody...), "\n"),
		"intent check", intentCheckText(intentCheck),
		"votes", strings.Join(votes, "\n"),
		"you may", strings.Join(you, ", "),
		"result", result,
		"failure", failure,
		"fingerprint", api.SanitizeID(a.Fingerprint),
		"created", timeText(a.CreatedAt),
		"updated", timeText(a.UpdatedAt),
	)
	return err
}

// requesterLine is the requester as printActivityNaming names them: from
// users (requesterText), or, when the list could not be read, as their
// vote says, marked so.
func requesterLine(shown shownActivity, users []api.User) string {
	if shown.usersUnread && users == nil && policy.SubmitterOf(*shown.exact) != "" {
		return requesterUnlisted(shown.exact)
	}
	return requesterText(shown.exact, users)
}

// resultText is a result on one line: the known fields, then the fields
// vigil does not know and any result key it does not know, each escaped by
// compactJSON as the known ones are. "" when there is none.
func resultText(r api.Result) string {
	var parts []string
	if v := r.Value(); v != nil {
		parts = append(parts, compactJSON(v))
	}
	var unknown []string
	for _, m := range r.UnknownFields {
		unknown = append(unknown, api.SanitizeID(m.Key)+"="+compactJSON(json.RawMessage(m.Value)))
	}
	for _, key := range slices.Sorted(maps.Keys(r.Other)) {
		unknown = append(unknown, api.SanitizeID(key)+"="+compactJSON(r.Other[key]))
	}
	if len(unknown) > 0 {
		parts = append(parts, "fields vigil does not know: "+strings.Join(unknown, ", "))
	}
	return strings.Join(parts, "; ")
}

// printSubmitted reports a submitted activity; when it waits for votes it says
// how to follow it, and when it ran and FAILED it is an error (exit 1).
// The service has recorded the activity by now, so a failure to print it
// (a full disk, a closed pipe) is never exit 1 "safe to run again": it is
// recordedNotPrinted, which names the activity.
func printSubmitted(w io.Writer, a shownActivity, raw json.RawMessage, asJSON bool) error {
	return printSubmittedNaming(w, a, raw, asJSON, nil)
}

// printSubmittedNaming is printSubmitted saying, among users, whose key
// signed each verified vote (printActivityNaming).
func printSubmittedNaming(w io.Writer, a shownActivity, raw json.RawMessage, asJSON bool, users []api.User) error {
	if asJSON {
		if err := writeJSON(w, raw); err != nil {
			return recordedNotPrinted(a.ID, a.Status, err)
		}
		return failedRun(a.Activity)
	}
	if err := printActivityNaming(w, a, users); err != nil {
		return recordedNotPrinted(a.ID, a.Status, err)
	}
	if !api.IsTerminal(a.Status) {
		if _, err := fmt.Fprintf(w, "\nThe activity waits for votes; follow it with: vigil activity wait %s\n", a.ID); err != nil {
			return recordedNotPrinted(a.ID, a.Status, err)
		}
	}
	return failedRun(a.Activity)
}

// recordedNotPrinted is the error of a submit the service recorded whose
// result could not be written to standard output. It is exit 4 (look
// first), as a lost reply is: running the command again would make a
// second activity, and standard error is the only place left to say which
// one was made.
func recordedNotPrinted(id, status string, err error) error {
	id = api.SanitizeID(id)
	return &exitStatus{exitOutcomeUnknown, fmt.Sprintf(
		"activity %s was recorded (%s), but printing it failed: %s; do not submit it again: %s",
		id, api.Sanitize(status), api.Sanitize(err.Error()), seeItAfterRefusal(id, err))}
}
