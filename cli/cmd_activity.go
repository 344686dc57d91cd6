package cli

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"slices"
	"strings"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/keys"
	"github.com/vigil-console/vigil/proof"
)

const activityUsage = `vigil activity — list, inspect, vote on and follow activities

Usage:
  vigil activity list [--status S]… [--type T]… [--limit N] [--before|--after ID] [--json]
  vigil activity get [--json] ID
  vigil activity approve [--yes] ID
  vigil activity reject [--yes] ID
  vigil activity wait [--timeout D] ID
  vigil activity evaluations [--json] ID
  vigil activity proofs [--json] ID

Every subcommand takes --profile NAME and --config FILE (or $VIGIL_PROFILE,
$VIGIL_CONFIG) and -h for its flags and examples.
`

func cmdActivity(ctx context.Context, c proc, args []string) error {
	return runGroup(ctx, c, "activity", activityUsage, []subcommand{
		{"list", activityList},
		{"get", activityGet},
		{"approve", func(ctx context.Context, c proc, args []string) error { return activityVote(ctx, c, args, true) }},
		{"reject", func(ctx context.Context, c proc, args []string) error { return activityVote(ctx, c, args, false) }},
		{"wait", activityWait},
		{"evaluations", activityEvaluations},
		{"proofs", activityProofs},
	}, args)
}

const activityListUsage = `Usage: vigil activity list [--status S]… [--type T]… [--limit N] [--before|--after ID] [--json]

Lists the organization's activities, newest first. --status and --type may be
repeated; a status is given in full (ACTIVITY_STATUS_PENDING) or by its last
word (pending, completed, failed, rejected, consensus-needed, created,
authenticators-needed); a type in full or without ACTIVITY_TYPE_.
--after ID pages on to older activities (give the last id of a page), --before
ID back to newer ones. --json prints {"activities":[…]} with the records exactly
as the service sent them.

Examples:
  vigil activity list --status consensus-needed
  vigil activity list --type delete_api_keys --limit 50 --json | jq '.activities[].id'
  vigil activity list --limit 100 --after 0192a6c4-…

Flags:
`

// statusValue turns "consensus-needed" or ACTIVITY_STATUS_CONSENSUS_NEEDED into
// the wire value.
func statusValue(s string) (string, error) {
	v := strings.ToUpper(strings.ReplaceAll(strings.TrimSpace(s), "-", "_"))
	if !strings.HasPrefix(v, "ACTIVITY_STATUS_") {
		v = "ACTIVITY_STATUS_" + v
	}
	for _, st := range api.ActivityStatuses() {
		if st == v {
			return v, nil
		}
	}
	words := make([]string, 0, 7)
	for _, st := range api.ActivityStatuses() {
		words = append(words, strings.ToLower(strings.ReplaceAll(strings.TrimPrefix(st, "ACTIVITY_STATUS_"), "_", "-")))
	}
	return "", usagef("--status %q is not an activity status; use one of %s", s, strings.Join(words, ", "))
}

// typeValue turns "delete_api_keys" or ACTIVITY_TYPE_DELETE_API_KEYS into the
// wire value of a type (api.ParseActivityType). A well-formed type vigil does
// not know (the real service has many more, such as
// ACTIVITY_TYPE_CREATE_USERS_V3) is sent as it is, with known false: the
// caller says so, since a typo would otherwise read as "no such activities".
func typeValue(s string) (v string, known bool, err error) {
	v, known, ok := api.ParseActivityType(s)
	if !ok {
		return "", false, usagef("--type %q is not an activity type; use one such as create_policy, delete_api_keys or %s (letters, digits and _ only)", s, api.TypeCreateUserTag)
	}
	return v, known, nil
}

func activityList(ctx context.Context, c proc, args []string) error {
	var statuses, types listFlag
	var limit int
	var opts api.ListActivitiesOptions
	return queryVerb{
		name: "activity list", usage: activityListUsage,
		flags: func(fs *flag.FlagSet) {
			fs.Var(&statuses, "status", "only activities with status `S` (repeatable)")
			fs.Var(&types, "type", "only activities of type `T` (repeatable)")
			decimalVar(fs, &limit, "limit", "at most `N` activities, 1 to 100 (default: the service's 10)")
			fs.StringVar(&opts.Before, "before", "", "only activities newer than activity `ID` (the page before it)")
			fs.StringVar(&opts.After, "after", "", "only activities older than activity `ID` (the next page)")
		},
		check: func(given map[string]bool) error {
			if given["limit"] && (limit < 1 || limit > 100) {
				return usagef("--limit %d: use 1 to 100", limit)
			}
			if opts.Before != "" && opts.After != "" {
				return usagef("give --before or --after, not both: a page goes one way")
			}
			opts.Limit = limit
			for _, s := range statuses {
				v, err := statusValue(s)
				if err != nil {
					return err
				}
				opts.Statuses = append(opts.Statuses, v)
			}
			for _, t := range types {
				if keys.PathLooksSecret(t) {
					// Sent, or noted upper-cased, it would print the key again.
					return usagef("activity list: --type takes an activity type, and nothing was sent: the value given is %s", keys.SecretArg(t, "an activity type"))
				}
				v, known, err := typeValue(t)
				if err != nil {
					return err
				}
				if !known {
					fmt.Fprintf(c.stderr, "note: %s is not a type vigil knows; it is sent as given (check its spelling if nothing matches)\n", v)
				}
				opts.Types = append(opts.Types, v)
			}
			return nil
		},
		raw: func(ctx context.Context, client *api.Client, _ string) (json.RawMessage, error) {
			raw, err := client.ListActivitiesRaw(ctx, opts)
			if err != nil {
				return nil, err
			}
			var page struct {
				Activities []struct {
					ID string `json:"id"`
				} `json:"activities"`
			}
			if err := api.CheckReplyJSON(raw, &page); err != nil {
				// Printed as sent; a cursor from what encoding/json read
				// would name a page of another listing than jq reads.
				fmt.Fprintf(c.stderr, "could not check whether more follow: the reply can be read two ways (%s)\n", ambiguityText(err))
			} else if json.Unmarshal(raw, &page) == nil && len(page.Activities) > 0 {
				acts := page.Activities
				noteFollowing(ctx, c, client, opts, len(acts), acts[0].ID, acts[len(acts)-1].ID)
			}
			return raw, nil
		},
		show: func(ctx context.Context, c proc, client *api.Client, _ string) error {
			raw, err := client.ListActivitiesRaw(ctx, opts)
			if err != nil {
				return err
			}
			// Exact, and escaped below at output: the requester's name is
			// quoted as the console quotes it (api.NameText).
			var list api.ListActivitiesResponse
			if err := json.Unmarshal(raw, &list); err != nil {
				return fmt.Errorf("query/%s: the reply is not the expected JSON; the server may not be this service", api.QueryListActivities)
			}
			acts := list.Activities
			if len(acts) == 0 {
				msg := "no activities match"
				if slices.Contains(opts.Statuses, api.StatusPending) && !slices.Contains(opts.Statuses, api.StatusConsensusNeeded) {
					// PENDING is the service's brief state before policies run;
					// what waits for votes (the console's "pending") is CONSENSUS_NEEDED.
					msg += "; activities waiting for votes are --status consensus-needed"
				}
				fmt.Fprintln(c.stderr, msg)
				return nil
			}
			rows := make([][]string, 0, len(acts))
			for i := range acts {
				a := &acts[i]
				rows = append(rows, []string{api.SanitizeID(a.ID), timeText(a.CreatedAt), strings.TrimPrefix(api.Sanitize(a.Type), "ACTIVITY_TYPE_"),
					strings.TrimPrefix(api.Sanitize(a.Status), "ACTIVITY_STATUS_"), activityRequester(a)})
			}
			if err := table(c.stdout, []string{"ID", "CREATED", "TYPE", "STATUS", "REQUESTER"}, rows); err != nil {
				return err
			}
			noteFollowing(ctx, c, client, opts, len(acts), acts[0].ID, acts[len(acts)-1].ID)
			return nil
		},
	}.run(ctx, c, args)
}

// noteFollowing says on stderr when activities the listing's filters match
// lie beyond the page just printed, with the flag that shows them: a script
// reading stdout, or --json, would otherwise take a full page (the service's
// default of 10, or --limit) for all there is. A page shorter than asked for
// may also have been cut short, its activities being large (by the service,
// or by the client when a reply would be larger than it reads), and says so.
// first and last are the page's first and last ids, as received; with
// --before the page goes towards newer activities, so those are the ones
// that follow. When the look fails, it says that it could not tell.
func noteFollowing(ctx context.Context, c proc, client *api.Client, opts api.ListActivitiesOptions, n int, first, last string) {
	asked := cmp.Or(opts.Limit, api.DefaultListLimit)
	older, edge, flagName, which := true, last, "--after", "older"
	if opts.Before != "" {
		older, edge, flagName, which = false, first, "--before", "newer"
	}
	more, err := api.ActivitiesFollow(ctx, client, opts, edge, older)
	if err != nil {
		// Silence would read as "this is all there is".
		fmt.Fprintf(c.stderr, "could not check whether more follow: %v; to look, run again with %s %s\n", err, flagName, api.SanitizeID(edge))
		return
	}
	if !more {
		return
	}
	cut := ""
	if n < asked {
		cut = fmt.Sprintf("%d of the %d asked for: the page was cut short, its activities being large; ", n, asked)
	}
	fmt.Fprintf(c.stderr, "%s%s ones follow: %s %s\n", cut, which, flagName, api.SanitizeID(edge))
}

const activityGetUsage = `Usage: vigil activity get [--json] ID

Shows one activity: type, status, requester, intent, votes, result or failure
(its message, code and each of its details as a line of JSON).
For a policy (create_policy, create_mfa_policy) it then names the tags and
users its condition and consensus refer to by id, with a WARNING for an id
that is neither a tag nor a user of the organization, and for create_policy
a WARNING for each thing its condition or consensus does differently on the
real service (a comparison no activity meets, a parameter the service does not
expose, an approver's .name), as 'policy create' warned its author. For an invitation it
names each sender and tag, for a key deletion the user and each key, with a
WARNING for one that is not the organization's.

Examples:
  vigil activity get 0192a6c4-…
  vigil activity get --json 0192a6c4-… | jq .activity.status

Flags:
`

func activityGet(ctx context.Context, c proc, args []string) error {
	return queryVerb{
		name: "activity get", usage: activityGetUsage, arg: "activity id",
		raw: func(ctx context.Context, client *api.Client, id string) (json.RawMessage, error) {
			// Bound to id as the text form is: a script must not act on
			// another activity's status printed under the id it asked for.
			raw, err := client.QueryRecordRaw(ctx, api.QueryGetActivity, api.GetActivityRequest{OrganizationID: client.OrganizationID(), ActivityID: id})
			if err != nil {
				return nil, err
			}
			checked, err := checkedReply(ctx, client, raw)
			if err != nil {
				return nil, fmt.Errorf("%w; read the reply as sent with 'vigil request --path /public/v1/query/%s' instead", err, api.QueryGetActivity)
			}
			return checked, nil
		},
		show: func(ctx context.Context, c proc, client *api.Client, id string) error {
			a, err := getActivityShown(ctx, client, id)
			if err != nil {
				return err
			}
			users, notes := activityUsers(ctx, client, &a)
			if err := printActivityNaming(c.stdout, a, users); err != nil {
				return err
			}
			for _, note := range notes {
				fmt.Fprintln(c.stderr, "vigil: note: "+note)
			}
			if refs := idRefsBlock(ctx, c, client, a.exact.Intent, users); refs != "" {
				_, err = fmt.Fprint(c.stdout, "\n"+refs)
			}
			if ws := policyWarningsBlock(a.exact.Intent); ws != "" && err == nil {
				_, err = fmt.Fprint(c.stdout, "\n"+ws)
			}
			if names := intentNamesBlock(ctx, c, client, a.exact, users, true); names != "" && err == nil {
				_, err = fmt.Fprint(c.stdout, "\n"+names)
			}
			return err
		},
	}.run(ctx, c, args)
}

const activityVoteUsage = `Usage: vigil activity %[1]s [--yes] ID

Votes to %[1]s the activity. On a terminal it first shows what is being voted
on (the intent, the requester, the status, and activity get's WARNINGs of a
proposed policy's ids, condition and consensus) and asks; a script must pass
--yes, or the vote is refused. With --yes, approve still says a proposed
policy's condition and consensus WARNINGs on standard error before it votes. It prints the activity after the vote; --json prints
the service's reply with vigil's checks of its votes and intent (voteChecks,
intentCheck), as 'vigil activity get --json' does. A vote that arrives
after another member ended the activity (while the prompt was open, say) is
not counted: it says so and exits 1; your own same vote, cast meanwhile from
elsewhere, exits 0.

Examples:
  vigil activity %[1]s 0192a6c4-…
  vigil activity %[1]s --yes --profile ci 0192a6c4-…

Flags:
`

func activityVote(ctx context.Context, c proc, args []string, approve bool) error {
	verb := map[bool]string{true: "approve", false: "reject"}[approve]
	fs := newFlagSet("activity "+verb, fmt.Sprintf(activityVoteUsage, verb))
	var conn connFlags
	conn.register(fs, true)
	yes := fs.Bool("yes", false, "vote without asking (for scripts)")
	pos, err := parseFlags(c, fs, args)
	if err != nil {
		return err
	}
	id, err := oneArg("activity "+verb, "activity id", pos)
	if err != nil {
		return err
	}
	client, prof, err := conn.submitClient(c)
	if err != nil {
		return err
	}
	a, err := getActivityShown(ctx, client, id)
	if err != nil {
		return fmt.Errorf("%s %s: %w", verb, api.SanitizeID(id), err)
	}
	if api.IsTerminal(a.Status) {
		return votedOnEnded(ctx, c, client, a, approve, conn.json)
	}
	if (approve && !a.CanApprove) || (!approve && !a.CanReject) {
		return whyNoVote(ctx, c, client, a, approve, conn.json)
	}
	if doubt := intentDoubt(a); approve && !*yes && doubt != "" {
		// Fail closed: the prompt would ask for approval of an activity
		// whose intent it cannot show, or not all of it.
		id := api.SanitizeID(a.ID)
		return usagef("approve %s: %s, so you would approve without seeing all it does; read the reply as sent with 'vigil activity get --json %s', and pass --yes only if you still mean to approve it", id, doubt, id)
	}
	// Said first; where a prompt asks, as its own opening lines, so that a
	// prompt longer than the screen says them again (votePrompt).
	var said strings.Builder
	warned := c
	if _, asks := stdinTerminal(c); asks && !*yes {
		warned.stderr = &said
	}
	if approve {
		// As the console's vote dialog, on an approval only.
		warnVoterMfa(ctx, warned, client, a)
		// An approval may be the vote that runs a deletion of keys: the
		// same warnings as 'vigil apikey delete'.
		if p := a.exact.Intent.DeleteAPIKeysIntent; p != nil {
			warnApprovedKeyDeletion(ctx, warned, client, prof.Name, p)
		}
		// The prompt puts these first; --yes reads no prompt, so they are said here.
		if *yes {
			warnIntentUnchecked(ctx, c, client, a.exact)
			warnPolicyUnread(c.stderr, a.exact.Intent)
		}
		if p := a.exact.Intent.SetOrganizationFeatureIntent; p != nil && *yes {
			if w := api.FeatureValueWarning(p.Name, p.Value); w != "" {
				fmt.Fprintf(c.stderr, "vigil: warning: %s\n", strings.TrimPrefix(w, "WARNING: "))
			}
		}
	}
	details := "" // read only to be shown: --yes asks nothing
	if !*yes {
		details = votePrompt(ctx, c, client, a, said.String(), signedFor(client, prof))
	}
	if err := confirm(ctx, c, *yes, strings.ToUpper(verb[:1])+verb[1:]+" this activity", details); err != nil {
		return err
	}
	me := voterOf(ctx, client)
	var params api.Params = &api.ApproveActivityParams{Fingerprint: a.Fingerprint}
	if !approve {
		params = &api.RejectActivityParams{Fingerprint: a.Fingerprint}
	}
	var sig string
	after, raw, err := submitShown(ctx, client, verb+"_activity", params, api.NoteSignature(&sig))
	// Only the vote carrying the stamp just sent is this vote (api.VoteSince).
	me = me.Sent(sig)
	if errors.Is(err, api.ErrOutcomeUnknown) {
		// The vote may have counted: look, rather than leave the voter guessing.
		return voteOutcome(ctx, c, client, a, me, approve, conn.json, err)
	}
	if err != nil {
		refused := fmt.Errorf("%s %s: %w", verb, a.ID, err)
		if refusedAfterRead(err) {
			return votedAfterRead(ctx, c, client, a, approve, conn.json, refused)
		}
		return refused
	}
	switch sorted, err := checkVoteReply(a.exact.ID, me, approve, a.exact, after); sorted {
	case api.VoteReplyUnsure:
		return voteOutcome(ctx, c, client, a, me, approve, conn.json, err)
	case api.VoteReplyOtherActivity:
		return err
	}
	if conn.json {
		err = writeCheckedJSON(ctx, c.stdout, client, raw)
	} else {
		after.exact.Intent = a.exact.Intent // the same activity (checkVoteReply): its intent as shown before the vote
		err = printActivityOwners(ctx, c, client, after)
	}
	if err != nil {
		return voteRecordedNotPrinted(approve, after.ID, after.Status, err)
	}
	return failedRun(after.Activity)
}

// voteRecordedNotPrinted is the error of a vote the service recorded whose
// result could not be written to standard output: exit 4 (look first), as
// for a recorded submit (recordedNotPrinted), naming the activity and the
// vote, since standard error is the only place left to say it counted.
func voteRecordedNotPrinted(approve bool, id, status string, err error) error {
	vote := map[bool]string{true: "approval", false: "rejection"}[approve]
	id = api.SanitizeID(id)
	return &exitStatus{exitOutcomeUnknown, fmt.Sprintf(
		"your %s of activity %s was recorded (the activity is now %s), but printing it failed: %s; do not vote again: %s",
		vote, id, api.Sanitize(status), api.Sanitize(err.Error()), seeItAfterRefusal(id, err))}
}

// failedRun is the error (exitFailure) of a vote or submit that made the activity
// run and the run FAILED: a script must not take it for success. The activity
// was printed already; the error says why on standard error.
func failedRun(a *api.Activity) error {
	if a == nil || a.Status != api.StatusFailed {
		return nil
	}
	why := "the service gave no reason"
	if a.Failure != nil && a.Failure.Message != "" {
		why = api.Sanitize(api.ClipMessage(a.Failure.Message))
	}
	return &exitStatus{exitFailure, fmt.Sprintf("activity %s ran and FAILED: %s", api.SanitizeID(a.ID), why)}
}

// voteOutcome settles a vote whose reply was lost by reading the activity
// again (settleVote): the vote is there (ending as if the reply had come:
// exit 0, or 1 when the approval made it run and the run FAILED, with a
// note) or the outcome is unknown (exitOutcomeUnknown).
func voteOutcome(ctx context.Context, c proc, client *api.Client, before shownActivity, me api.Voter, approve, asJSON bool, sendErr error) error {
	a, err := settleVote(ctx, client, before, me, approve, sendErr)
	if err != nil {
		return err
	}
	fmt.Fprintf(c.stderr, "vigil: %v\nvigil: the activity shows your vote, so it counted\n", sendErr)
	if err := showActivity(ctx, c, client, a, asJSON); err != nil {
		return voteRecordedNotPrinted(approve, a.ID, a.Status, err)
	}
	// As when the reply arrives: a script must not take a failed run for success.
	return failedRun(a.Activity)
}

// showActivity prints a, or with --json the service's own reply it was
// read from (getActivityShown) with its checks (checkedReply): the read the
// caller decided on, not a second one that could say something else.
func showActivity(ctx context.Context, c proc, client *api.Client, a shownActivity, asJSON bool) error {
	if !asJSON {
		return printActivityOwners(ctx, c, client, a)
	}
	return writeCheckedJSON(ctx, c.stdout, client, a.raw)
}

const activityEvaluationsUsage = `Usage: vigil activity evaluations [--json] ID

Lists the policy evaluations of an activity: one per vote that triggered an
evaluation, each with every policy that ran, by name, and its outcome. An
approval's evaluation starts with an "(overall)" row: what it decided and why,
as the console explains it ("-  (overall) not reproducible: …" when deciding
it again today gives another outcome than the service recorded). An
evaluation in which no policy ran (the root quorum decided) is one line with
its outcome and why.

Examples:
  vigil activity evaluations 0192a6c4-…
  vigil activity evaluations --json 0192a6c4-…

Flags:
`

func activityEvaluations(ctx context.Context, c proc, args []string) error {
	return queryVerb{
		name: "activity evaluations", usage: activityEvaluationsUsage, arg: "activity id",
		exact: true, // showEvaluations escapes what it prints, once
		raw: func(ctx context.Context, client *api.Client, id string) (json.RawMessage, error) {
			return client.QueryRecordRaw(ctx, api.QueryGetPolicyEvaluations, api.GetPolicyEvaluationsRequest{OrganizationID: client.OrganizationID(), ActivityID: id})
		},
		show: showEvaluations,
	}.run(ctx, c, args)
}

const activityProofsUsage = `Usage: vigil activity proofs [--json] ID

Lists the app proofs of an activity submitted with app proofs requested
(list_app_proofs), each with whether its payload is about this activity (its
id, type, fingerprint and result hash); exit status 1 when one is about another
activity. Signatures are not checked here. --json prints the reply unchecked
(exit 0), for 'vigil proof verify --app-proofs FILE --activity ID', which
checks it against the enclave's boot proof.

Examples:
  vigil activity proofs 0192a6c4-…
  vigil activity proofs --json 0192a6c4-… > proofs.json

Flags:
`

func activityProofs(ctx context.Context, c proc, args []string) error {
	return queryVerb{
		name: "activity proofs", usage: activityProofsUsage, arg: "activity id",
		// The binding hashes the result the enclave signed: a sanitized copy of
		// a result holding a control or invisible character would hash
		// differently and call a genuine proof tampered with. Every string
		// printed below is escaped here instead.
		exact: true,
		raw: func(ctx context.Context, client *api.Client, id string) (json.RawMessage, error) {
			return client.QueryRaw(ctx, api.QueryListAppProofs, api.ListAppProofsRequest{OrganizationID: client.OrganizationID(), ActivityID: id})
		},
		show: func(ctx context.Context, c proc, client *api.Client, id string) error {
			proofs, err := client.ListAppProofs(ctx, id)
			if err != nil {
				return err
			}
			if len(proofs) == 0 {
				fmt.Fprintln(c.stderr, noAppProofsWhy(ctx, client, id))
				return nil
			}
			act, err := client.GetActivity(ctx, id)
			if err != nil {
				return fmt.Errorf("get the activity to compare its app proofs with: %w", err)
			}
			var elsewhere []string
			for i, p := range proofs {
				if i > 0 {
					fmt.Fprintln(c.stdout)
				}
				st, why := proof.BindAppProof(p, proof.SubjectOf(*act))
				if st == proof.Fail {
					elsewhere = append(elsewhere, fmt.Sprintf("#%d", i+1))
				}
				kv := []string{"proof", fmt.Sprintf("#%d", i+1), "scheme", api.Sanitize(p.Scheme), "public key", api.Sanitize(p.PublicKey),
					"payload", api.Sanitize(p.ProofPayload), "activity", statusMark(st) + " " + api.Sanitize(why)}
				if st == proof.Pass {
					kv = append(kv, "intent", statusMark(proof.NotApplicable)+" "+proof.IntentNotCovered)
				}
				if err := fields(c.stdout, append(kv, "signature", api.Sanitize(p.Signature))...); err != nil {
					return err
				}
			}
			if len(elsewhere) > 0 {
				return fmt.Errorf("app proof %s is not about this activity: it proves nothing about it", strings.Join(elsewhere, ", "))
			}
			return nil
		},
	}.run(ctx, c, args)
}

// noAppProofsWhy says why an activity has no app proofs: the service makes them
// when it completes, and only when they were requested at submission.
func noAppProofsWhy(ctx context.Context, client *api.Client, id string) string {
	a, err := client.GetActivity(ctx, id)
	switch {
	case err != nil:
		return "no app proofs for this activity"
	case a.Status == api.StatusCompleted:
		return "no app proofs for this activity: it was not submitted with app proofs requested (--app-proofs)"
	case api.IsTerminal(a.Status):
		return "no app proofs: the activity is " + api.Sanitize(a.Status) + "; app proofs come only with a completed activity"
	default:
		return "no app proofs yet: the activity is " + api.Sanitize(a.Status) + "; its app proofs (if they were requested) are made when it completes"
	}
}
