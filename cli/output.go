package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"unicode/utf8"

	"github.com/vigil-console/vigil/api"
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
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, strings.Join(header, "\t"))
	for _, r := range rows {
		fmt.Fprintln(tw, strings.Join(r, "\t"))
	}
	return tw.Flush()
}

// fields writes "name: value" lines aligned; empty values are left out.
func fields(w io.Writer, kv ...string) error {
	tw := tabwriter.NewWriter(w, 0, 4, 1, ' ', 0)
	for i := 0; i+1 < len(kv); i += 2 {
		if kv[i+1] != "" {
			fmt.Fprintf(tw, "%s:\t%s\n", kv[i], kv[i+1])
		}
	}
	return tw.Flush()
}

// timeText shows a wire time as UTC, or "" when unset.
func timeText(t api.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.Time().Format("2006-01-02 15:04:05Z")
}

// compactJSON shows a (sanitised) value as one line of JSON for summaries.
func compactJSON(v any) string {
	var indented, b bytes.Buffer
	if api.EncodeJSON(&indented, v) != nil || json.Compact(&b, indented.Bytes()) != nil {
		return "?"
	}
	return b.String()
}

// activityRequester is who submitted the activity: the first vote is the
// requester's own approval.
func activityRequester(a *api.Activity) string {
	if len(a.Votes) == 0 {
		return "?"
	}
	v := a.Votes[0]
	if v.User.UserName != "" {
		return v.User.UserName + " (" + v.UserID + ")"
	}
	return v.UserID
}

// getActivityShown reads an activity for printing: every field sanitised as
// the client does, except the intent, kept exactly as the service sent it.
// intentText prints the intent through api.EncodeJSON, which escapes at output:
// a real U+202E in a name then shows as \u202e and the six characters "\u202e"
// typed into it as \\u202e, where a sanitised copy would show both alike.
func getActivityShown(ctx context.Context, client *api.Client, id string) (*api.Activity, error) {
	raw, err := client.QueryRaw(ctx, api.QueryGetActivity, api.GetActivityRequest{OrganizationID: client.OrganizationID(), ActivityID: id})
	if err != nil {
		return nil, err
	}
	var exact, clean api.ActivityResponse
	if json.Unmarshal(raw, &exact) != nil || json.Unmarshal(raw, &clean) != nil {
		return nil, fmt.Errorf("query/%s: the reply is not the expected JSON; the server may not be this service", api.QueryGetActivity)
	}
	api.SanitizeValue(&clean)
	clean.Activity.Intent = exact.Activity.Intent // read only by intentText
	return &clean.Activity, nil
}

// intentText is the operation and its parameters on one line. The intent may
// be exact (getActivityShown): compactJSON escapes what it prints.
func intentText(a *api.Activity) string {
	typ, params := a.Intent.Params()
	if params == nil {
		return "(none)"
	}
	op, _ := api.OperationByType(typ)
	text := compactJSON(params)
	if n := utf8.RuneCountInString(text); n > maxIntentRunes {
		text = string([]rune(text)[:maxIntentRunes]) + fmt.Sprintf("… (%d characters; --json shows all)", n)
	}
	return op.Path + " " + text
}

// maxIntentRunes bounds an intent on one line: a 400 kB ABI is not read in a
// terminal.
const maxIntentRunes = 300

// printActivity writes an activity for people: what it is, who asked, where it
// stands, the votes, and the result or failure.
func printActivity(w io.Writer, a *api.Activity) error {
	votes := make([]string, 0, len(a.Votes))
	for _, v := range a.Votes {
		name := v.User.UserName
		if name == "" {
			name = v.UserID
		}
		votes = append(votes, name+" "+strings.ToLower(strings.TrimPrefix(v.Selection, "VOTE_SELECTION_")))
	}
	result := ""
	if r := a.Result.Value(); r != nil {
		result = compactJSON(r)
	}
	failure := ""
	if a.Failure != nil {
		failure = fmt.Sprintf("%s (code %d)", a.Failure.Message, a.Failure.Code)
	}
	you := []string{}
	if a.CanApprove {
		you = append(you, "approve")
	}
	if a.CanReject {
		you = append(you, "reject")
	}
	return fields(w,
		"id", a.ID,
		"type", a.Type,
		"status", a.Status,
		"requester", activityRequester(a),
		"intent", intentText(a),
		"votes", strings.Join(votes, ", "),
		"you may", strings.Join(you, ", "),
		"result", result,
		"failure", failure,
		"fingerprint", a.Fingerprint,
		"created", timeText(a.CreatedAt),
		"updated", timeText(a.UpdatedAt),
	)
}

// printSubmitted reports a submitted activity; when it waits for votes it says
// how to follow it.
func printSubmitted(w io.Writer, a *api.Activity, raw json.RawMessage, asJSON bool) error {
	if asJSON {
		return writeJSON(w, raw)
	}
	if err := printActivity(w, a); err != nil {
		return err
	}
	if !api.IsTerminal(a.Status) {
		fmt.Fprintf(w, "\nThe activity waits for votes; follow it with: vigil activity wait %s\n", a.ID)
	}
	return nil
}
