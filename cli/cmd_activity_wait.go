package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/vigil-console/vigil/api"
)

const activityWaitUsage = `Usage: vigil activity wait [--timeout D] ID

Follows the activity until it ends and prints its final state (--json: the
service's reply with vigil's vote and intent checks, as 'activity get --json').
Exit status: 0 when it COMPLETED, 1 when it FAILED or was REJECTED, 2 when
--timeout passed first, 3 when the wait itself failed (the service refused
it, an interrupt, a bad reply): how the activity ends is then not known.
While the service does not answer (no connection, a timeout, a 429 or 5xx
from it or a gateway) the wait goes on, saying so on standard error once per
outage, until --timeout passes (with --timeout 0, until it answers); so does
the final read of the ended activity. An end seen always sets the exit status
(0 or 1), even when the final state cannot then be read to print (with
--json the copy seen when it ended is printed instead, and standard error
says so; when that copy cannot be printed either, nothing is on standard
output and the exit status is 3, standard error naming the end). Waiting
changes nothing, so after a timeout or an interrupt run the same command
again to go on waiting.

Examples:
  vigil activity wait 0192a6c4-…
  vigil activity wait --timeout 30m 0192a6c4-… && echo done

Flags:
`

// exitStatus is an error that sets the exit code itself.
type exitStatus struct {
	code int
	msg  string
}

func (e *exitStatus) Error() string { return e.msg }

func activityWait(ctx context.Context, c proc, args []string) error {
	return waitForActivity(ctx, c, args)
}

// waitForActivity is activity wait; opts are added to the profile client's
// (tests give it a short request timeout). An error that is not the
// activity's own end, --timeout or a usage mistake exits exitWaitFailed, so
// that exit 1 means only FAILED or REJECTED to a script that waits.
func waitForActivity(ctx context.Context, c proc, args []string, opts ...api.Option) error {
	err := waitUntilEnded(ctx, c, args, opts...)
	var es *exitStatus
	var u usageError
	var h helpUnwritten
	if err == nil || errors.Is(err, errHelpShown) || errors.As(err, &es) || errors.As(err, &u) || errors.As(err, &h) {
		return err
	}
	return &exitStatus{exitWaitFailed, err.Error()}
}

// firstPause and maxPause bound the pause between polls while the service
// does not answer (on top of the client's own retries of each poll).
const (
	firstPause = time.Second
	maxPause   = 15 * time.Second
)

func waitUntilEnded(ctx context.Context, c proc, args []string, opts ...api.Option) error {
	fs := newFlagSet("activity wait", activityWaitUsage)
	var conn connFlags
	conn.register(fs, true)
	timeout := fs.Duration("timeout", 10*time.Minute, "give up after `D` (e.g. 90s, 30m); 0 waits without limit")
	pos, err := parseFlags(c, fs, args)
	if err != nil {
		return err
	}
	id, err := oneArg("activity wait", "activity id", pos)
	if err != nil {
		return err
	}
	if *timeout < 0 {
		return usagef("--timeout %s is negative; give a duration such as 10m, or 0 for no limit", *timeout)
	}
	// Exact: with --json the copy seen ending may be printed as it was sent
	// (escaped once, by the JSON encoder); what goes to stderr is escaped here.
	client, _, err := profileClient(c, conn.config, conn.profile, append(slices.Clip(opts), api.WithExactStrings())...)
	if err != nil {
		// A missing config or profile, a missing or expired key: a local
		// mistake that waiting again never heals, so exit 1 as every verb
		// does, not 3 ("run it again to resume").
		return &exitStatus{exitFailure, err.Error()}
	}
	start := time.Now()
	waitCtx := ctx
	if *timeout > 0 {
		var cancel context.CancelFunc
		waitCtx, cancel = context.WithTimeout(ctx, *timeout)
		defer cancel()
	}
	// Each status and vote count seen goes to standard error, so a person
	// watching knows it is alive; the final state goes to standard output.
	seen := ""
	status := "unknown"
	outage := false // a poll failed since the service last answered
	pause := firstPause
	progress := func(a *api.Activity) bool {
		if outage {
			fmt.Fprintf(c.stderr, "activity %s: the service answers again\n", api.SanitizeID(a.ID))
			outage, pause = false, firstPause
		}
		status = api.Sanitize(a.Status)
		if now := fmt.Sprintf("%s, %d vote(s)", strings.TrimPrefix(status, "ACTIVITY_STATUS_"), len(a.Votes)); now != seen {
			fmt.Fprintf(c.stderr, "activity %s: %s\n", api.SanitizeID(a.ID), now)
			seen = now
		}
		return api.IsTerminal(a.Status)
	}
	until := ""
	if *timeout > 0 {
		until = fmt.Sprintf(" or --timeout %s passes", *timeout)
	}
	var a *api.Activity
	var sent json.RawMessage // the reply that showed the end, for --json's fallback
	for {
		a, sent, err = client.WaitForActivityRaw(waitCtx, id, progress)
		if err == nil {
			break
		}
		// Only the wait's own deadline is --timeout: a request that timed out
		// (the HTTP client's limit) matches context.DeadlineExceeded too.
		switch {
		case ctx.Err() != nil:
			return &exitStatus{exitWaitFailed, fmt.Sprintf("activity %s: interrupted while %s; run the same command again to go on waiting", api.SanitizeID(id), status)}
		case waitCtx.Err() != nil:
			return &exitStatus{exitUsage, fmt.Sprintf("activity %s: still %s after %s (--timeout %s); run the same command again to go on waiting",
				api.SanitizeID(id), status, time.Since(start).Round(time.Second), *timeout)}
		case !serviceNotAnswering(err):
			return fmt.Errorf("%w; how the activity ends is not known: check with 'vigil activity get %s'", err, api.SanitizeID(id))
		}
		// A restart of the service or of a gateway: waiting is still what
		// was asked for. Said once per outage, not at every poll.
		if !outage {
			outage = true
			why := strings.TrimPrefix(err.Error(), "wait for activity "+api.SanitizeID(id)+": ")
			fmt.Fprintf(c.stderr, "activity %s: the service did not answer (%s); retrying until it does%s\n", api.SanitizeID(id), why, until)
		}
		select {
		case <-waitCtx.Done(): // the next poll reports which
		case <-time.After(pause):
		}
		pause = min(2*pause, maxPause)
	}
	// The end is known from here on: a final state that cannot be read or
	// printed is said on standard error, and the exit status is still the
	// activity's own.
	ended := strings.TrimPrefix(api.Sanitize(a.Status), "ACTIVITY_STATUS_")
	shownID := api.SanitizeID(a.ID)
	code := exitOK
	if a.Status != api.StatusCompleted {
		code = exitFailure
	}
	if err := printEnded(ctx, waitCtx, c, client, a.ID, conn.json, pause); err != nil {
		if !conn.json {
			return &exitStatus{code, fmt.Sprintf("activity %s ended %s; its final state is not printed (%v): see it with 'vigil activity get %s'",
				shownID, ended, err, shownID)}
		}
		// A script parsing standard output still gets a record: the copy
		// whose status showed the end, as the service sent it (fields vigil
		// does not model too), said to be that and not a final read.
		// When neither can be printed, standard output is empty: exit 3,
		// not the activity's own 0 or 1, so that a script does not read
		// an empty file as the record of a COMPLETED activity.
		if werr := writeCheckedJSON(ctx, c.stdout, client, sent); werr != nil {
			return &exitStatus{exitWaitFailed, fmt.Sprintf("activity %s ended %s, but nothing is printed: neither its final state (%v) nor the copy seen when it ended (%v) can be; see it with 'vigil activity get %s' (without --json, which refuses such a reply too)",
				shownID, ended, err, werr, shownID)}
		}
		return &exitStatus{code, fmt.Sprintf("activity %s ended %s; the final read failed (%v), so the JSON printed is the copy seen when it ended, not a final read: see the final state with 'vigil activity get %s'",
			shownID, ended, err, shownID)}
	}
	if code != exitOK {
		return &exitStatus{code, fmt.Sprintf("activity %s ended %s", shownID, ended)}
	}
	return nil
}

// printEnded reads the ended activity id again and prints it: with asJSON
// as the service sends it, else from its exact strings. While the service
// does not answer, the read is retried as the polls are, until waitCtx ends;
// an interrupt (ctx) stops it.
func printEnded(ctx, waitCtx context.Context, c proc, client *api.Client, id string, asJSON bool, pause time.Duration) error {
	saidOutage := false
	for {
		var print func() error
		var err error
		if asJSON {
			var raw json.RawMessage
			raw, err = client.QueryRaw(waitCtx, api.QueryGetActivity, api.GetActivityRequest{OrganizationID: client.OrganizationID(), ActivityID: id})
			if err == nil {
				// Printed as the final state of the end decided on, with
				// its checks: a read jq takes for another activity
				// (ambiguousReread, in withVoteChecks) is not that.
				raw, err = checkedReply(waitCtx, client, raw)
			}
			print = func() error { return writeJSON(c.stdout, raw) }
		} else {
			var shown shownActivity
			shown, err = getActivityShown(waitCtx, client, id)
			print = func() error { return printActivityOwners(waitCtx, c, client, shown) }
		}
		switch {
		case err == nil:
			return print()
		case ctx.Err() != nil:
			return fmt.Errorf("interrupted while reading it: %w", err)
		case waitCtx.Err() != nil:
			return fmt.Errorf("the service did not answer before --timeout passed: %w", err)
		case !serviceNotAnswering(err):
			return err
		}
		if !saidOutage {
			saidOutage = true
			fmt.Fprintf(c.stderr, "activity %s: ended; the service did not answer reading it to print (%v); retrying until it does or the wait ends\n", api.SanitizeID(id), err)
		}
		select {
		case <-waitCtx.Done(): // the next read reports why
		case <-time.After(pause):
		}
		pause = min(2*pause, maxPause)
	}
}

// serviceNotAnswering reports a poll that failed because the service (or a
// gateway in front of it) did not answer it: no connection, a dropped one, a
// timeout, or a 429 or 5xx. Anything else (a 4xx refusal, a reply that is
// not the service's, a local mistake) would fail the same way again.
func serviceNotAnswering(err error) bool {
	var apiErr *api.Error
	if errors.As(err, &apiErr) {
		return apiErr.StatusCode == http.StatusTooManyRequests || apiErr.StatusCode >= 500
	}
	var dnsErr *net.DNSError
	if errors.As(err, &dnsErr) {
		return !dnsErr.IsNotFound // a host that does not exist is the profile's mistake
	}
	var opErr *net.OpError
	var netErr net.Error
	return errors.As(err, &opErr) && opErr.Op == "dial" ||
		errors.As(err, &netErr) && netErr.Timeout() ||
		errors.Is(err, context.DeadlineExceeded) ||
		errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, syscall.ECONNRESET) || errors.Is(err, syscall.ECONNABORTED) ||
		errors.Is(err, syscall.EPIPE) || errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF)
}
