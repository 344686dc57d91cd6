package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"

	"github.com/vigil-console/vigil/api"
)

const requestUsage = `Usage: vigil request --path /public/v1/... (--body JSON | --body-file F) [--stamp-only] [flags]

Stamps exactly the bytes of the body with the profile's key and POSTs them to
the profile's service at --path; nothing is added, removed or reordered (a
trailing newline in a file is sent and signed too). The reply's status goes to
standard error and its body to standard output (JSON re-indented, characters
that could act on a terminal escaped). Exit status 1 when the status is not 2xx;
4 (outcome unknown, look before sending again) for a submit answered 5xx, or
2xx with a reply that names no activity (a proxy's page) or another activity
than the request's (another organization, type or fingerprint), or
a reply whose JSON can be read two ways (a key twice, or only in another case
than a field's: "ACTIVITY"), which is then not printed.
A submit whose reply's activity ran and FAILED exits 1, saying so on
standard error, as the typed submit verbs do (a COMPLETED activity, or one
waiting for votes, exits 0); the reply is still printed.
A vote (an approve_activity or reject_activity body) is checked as 'vigil
activity approve' checks one: its reply must show the vote on the activity
whose fingerprint the body names, found before sending among those waiting
for votes, else among the newest; else exit 4, saying so. A reply settled by
reading the activity again prints that read, as the service sent it, instead
of the reply. The same vote sent again after a lost reply, even in a new body
the service answers 409, is "already" there when the activity shows it signed
with the profile's key: exit 0. An approval whose activity ran and FAILED
exits 1, saying so, whether sent the first time or again, as 'vigil activity
approve' does. A body of the other vote is refused before sending (exit 1).
A vote refused because the activity ended after the read (NOT_VOTABLE) says,
from a read of it since, that it was not counted (exit 1).

--stamp-only sends nothing: it prints the request line (POST URL), the stamp and
Content-Type header lines and, after a blank line, the body byte for byte, for
use with curl or another client.
'vigil stamp --verify' checks that output.

A read-only profile (read_only = true) sends queries only: it refuses a submit
path, --stamp-only, and a body that a submit path would take as an activity
(a member type, timestampMs or parameters, whatever its case or punctuation,
at any depth), since a stamp signs the body and not the path.

A submit body holding what looks like a private key in a name or notes
(policyName, mfaPolicyName, userTagName, apiKeyName, receiverUserName,
label, notes, at any depth) is refused before sending or stamping (exit 2):
it would be recorded for every member to see, for good.

Flags:
  --path P          /public/v1/query/NAME or /public/v1/submit/NAME
  --body JSON       the request body, as given
  --body-file F     read the body from F ("-" is standard input)
  --stamp-only      print the URL, stamp and body instead of sending
  --profile NAME    config profile (default $VIGIL_PROFILE, then default_profile)
  --config FILE     config file (default $VIGIL_CONFIG, then $XDG_CONFIG_HOME/vigil/config.toml)

Examples:
  vigil request --path /public/v1/query/whoami --body '{"organizationId":"..."}'
  vigil request --path /public/v1/submit/create_user_tag --body-file tag.json
  vigil request --stamp-only --path /public/v1/query/list_users --body-file q.json
`

func cmdRequest(ctx context.Context, c proc, args []string) error {
	fs := newFlagSet("request", requestUsage)
	var conn connFlags
	conn.register(fs, false)
	path := fs.String("path", "", "the operation's `P`ath")
	body := fs.String("body", "", "the request body `JSON`")
	bodyFile := fs.String("body-file", "", "read the body from `F` (- for standard input)")
	stampOnly := fs.Bool("stamp-only", false, "")
	if err := parseFlagsOnly(c, fs, args); err != nil {
		return err
	}
	set := visited(fs)
	submit, op, err := api.OperationPath(*path)
	if err != nil {
		return usagef("request: --path: %v", err)
	}
	if set["body"] == set["body-file"] {
		return usagef("request takes the body from exactly one of --body JSON or --body-file F (\"-\" for standard input)")
	}
	data := []byte(*body)
	if set["body-file"] {
		var from string
		var err error
		data, from, err = readInput(ctx, c, *bodyFile, "the body", api.MaxRequestBodyBytes)
		if errors.Is(err, errNoInput) {
			return usagef("request: --body-file -: there is no standard input")
		}
		if err != nil {
			return fmt.Errorf("request: body: %w", err)
		}
		if len(data) > api.MaxRequestBodyBytes {
			return usagef("request: the body from %s is over %d bytes, the service's limit; give a smaller body", from, api.MaxRequestBodyBytes)
		}
	}
	if !json.Valid(data) {
		return usagef("request: the body is not valid JSON; the service takes a JSON object such as {\"organizationId\":\"...\"}")
	}
	if submit {
		// Checked before a stamp is printed too: whoever sends it records it.
		if err := api.SecretInRequestBody(data); err != nil {
			return usagef("request: %v", err)
		}
	}
	client, p, err := conn.client(c)
	if err != nil {
		return err
	}
	if submit && p.ReadOnly {
		return fmt.Errorf("request: profile %q is read-only (read_only = true): it cannot submit", p.Name)
	}
	if *stampOnly && p.ReadOnly {
		// A printed stamp leaves every check vigil makes behind it.
		return fmt.Errorf("request: profile %q is read-only (read_only = true): --stamp-only prints a credential for others to send, which a read-only profile does not make; drop --stamp-only to send the query with vigil, or use a profile that may submit", p.Name)
	}
	if *stampOnly {
		stamper, err := profileStamper(p, c.getenv)
		if err != nil {
			return err
		}
		name, value, err := stamper.Stamp(data)
		if err != nil {
			return fmt.Errorf("request: stamp: %w", err)
		}
		fmt.Fprintf(c.stdout, "POST %s%s\n%s: %s\nContent-Type: application/json\n\n", client.BaseURL(), *path, name, value)
		_, err = c.stdout.Write(data)
		return err
	}
	var vote *requestVote
	if submit {
		if vote, err = readRequestVote(ctx, client, data); err != nil {
			return err
		}
	}
	reply, err := client.Send(ctx, *path, data)
	if err != nil {
		return fmt.Errorf("request: %w", err)
	}
	fmt.Fprintf(c.stderr, "HTTP %d %s\n", reply.Status, http.StatusText(reply.Status))
	if vote != nil {
		// Only the vote carrying the stamp just sent is this vote (api.VoteSince).
		vote.me = vote.me.Sent(reply.Signature)
	}
	// The outcome is settled before anything is printed, so that a failure
	// to print (a full disk, a closed pipe) cannot replace "look first"
	// with exit 1, "safe to run again".
	var outcome error
	var reread shownActivity // the activity read after a vote, when its reply did not show it
	if err := ambiguousSubmitReply(reply.Status, reply.Body, vote.lookAdvice()); submit && err != nil {
		return err // nothing printed: a script would read another reply than the one decided on
	} else if submit && api.ReplyMayHaveRecorded(reply.Status, reply.Body) {
		outcome = &exitStatus{exitOutcomeUnknown, fmt.Sprintf("request: the service answered %d %s: outcome unknown, the submit may have been recorded; look with 'vigil activity list --limit 10' before sending it again",
			reply.Status, http.StatusText(reply.Status))}
	} else if reply.Status < 200 || reply.Status > 299 {
		outcome = &exitStatus{exitFailure, fmt.Sprintf("request: the service answered %d %s", reply.Status, http.StatusText(reply.Status))}
		if submit && vote != nil && reply.Status == http.StatusConflict {
			// A second vote: the same one already cast is no failure.
			reread, outcome = vote.castAlready(ctx, c, client, outcome)
		} else if submit && vote != nil && api.ReplyRefusedWith(reply.Status, reply.Body, api.ErrorCodeNotVotable) {
			// Another member's vote ended it after the read above.
			reread, outcome = vote.endedFirst(ctx, c, client, outcome)
		}
	} else if _, _, ok := replyActivity(reply.Body); submit && !ok {
		// A 2xx that names no activity (a proxy's page) is no proof either
		// way, as for the typed submits.
		outcome = &exitStatus{exitOutcomeUnknown, fmt.Sprintf("request: the service answered %d %s with a reply that names no activity: outcome unknown, the submit may have been recorded; look with 'vigil activity list --limit 10' before sending it again",
			reply.Status, http.StatusText(reply.Status))}
	} else if why := api.SubmitReplyMismatch(data, reply.Body); submit && why != "" {
		// Another activity's reply (a cache's, a proxy's) says nothing of this one.
		outcome = &exitStatus{exitOutcomeUnknown, fmt.Sprintf("request: the service answered %d %s, but %s: outcome unknown, the submit may have been recorded; look with 'vigil activity list --limit 10' before sending it again",
			reply.Status, http.StatusText(reply.Status), why)}
	} else if submit && vote != nil {
		// As 'vigil activity approve': the reply must show the vote on
		// the activity voted on, not merely carry its fingerprint.
		reread, outcome = vote.check(ctx, c, client, reply.Status, reply.Body)
	}
	var ran error // the submit or approval is there, and its run FAILED: exit 1 once printed
	switch {
	case outcome != nil || !submit:
	case vote != nil:
		ran = vote.ranFailed(reread, reply.Body)
	default:
		ran = submitRanFailed(op, reply.Body)
	}
	var werr error
	if reread.Activity != nil {
		// As 'vigil activity approve': the reply did not show the vote, the
		// read since did; a script reading stdout gets the activity as it is,
		// in the service's own bytes (standard error says they are the read).
		if werr = writeJSON(c.stdout, reread.raw); werr != nil && outcome == nil {
			return voteRecordedNotPrinted(vote.approve, reread.exact.ID, reread.exact.Status, werr)
		}
	} else if json.Valid(reply.Body) && len(reply.Body) > 0 {
		werr = writeJSON(c.stdout, json.RawMessage(reply.Body))
	} else if len(reply.Body) > 0 {
		_, werr = fmt.Fprintln(c.stdout, api.Sanitize(string(reply.Body)))
	}
	if outcome != nil {
		return outcome
	}
	if werr == nil {
		return ran
	}
	if submit {
		return submitReplyNotPrinted(reply.Body, werr)
	}
	return fmt.Errorf("request: %w", werr)
}

// submitReplyNotPrinted is the error of a submit answered 2xx whose reply
// could not be written to standard output: the activity is recorded, so
// the error names it (recordedNotPrinted), or, when the reply does not
// say which, sends the user to look before sending it again.
func submitReplyNotPrinted(body []byte, werr error) error {
	if id, status, ok := replyActivity(body); ok {
		return recordedNotPrinted(id, status, werr)
	}
	return &exitStatus{exitOutcomeUnknown, fmt.Sprintf("request: the service accepted the submit, but printing its reply failed: %s; look with 'vigil activity list --limit 10' before sending it again",
		api.Sanitize(werr.Error()))}
}

// replyActivity is the id and status of the activity a submit's reply
// names; ok is false for a reply that names none.
func replyActivity(body []byte) (id, status string, ok bool) {
	var r struct {
		Activity struct {
			ID     string `json:"id"`
			Status string `json:"status"`
		} `json:"activity"`
	}
	if json.Unmarshal(body, &r) != nil || r.Activity.ID == "" {
		return "", "", false
	}
	return r.Activity.ID, r.Activity.Status, true
}
