package cli

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/vigil-console/vigil/api"
)

const activityWaitUsage = `Usage: vigil activity wait [--timeout D] ID

Follows the activity until it ends and prints its final state.
Exit status: 0 when it COMPLETED, 1 when it FAILED or was REJECTED (or on an
error), 2 when --timeout passed first. A poll the service does not answer in
time is noted on standard error and asked again until --timeout passes (with
--timeout 0, until it answers). Waiting changes nothing, so after a timeout or
an interrupt run the same command again to go on waiting.

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
// (tests give it a short request timeout).
func waitForActivity(ctx context.Context, c proc, args []string, opts ...api.Option) error {
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
	client, _, err := profileClient(c, conn.config, conn.profile, opts...)
	if err != nil {
		return err
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
	progress := func(a *api.Activity) bool {
		status = a.Status
		if now := fmt.Sprintf("%s, %d vote(s)", strings.TrimPrefix(a.Status, "ACTIVITY_STATUS_"), len(a.Votes)); now != seen {
			fmt.Fprintf(c.stderr, "activity %s: %s\n", a.ID, now)
			seen = now
		}
		return api.IsTerminal(a.Status)
	}
	var a *api.Activity
	for {
		a, err = client.WaitForActivity(waitCtx, id, progress)
		if err == nil {
			break
		}
		// Only the wait's own deadline is --timeout: a request that timed out
		// (the HTTP client's limit) matches context.DeadlineExceeded too.
		switch {
		case ctx.Err() != nil:
			return fmt.Errorf("activity %s: interrupted while %s; run the same command again to go on waiting", api.SanitizeID(id), status)
		case waitCtx.Err() != nil:
			return &exitStatus{2, fmt.Sprintf("activity %s: still %s after %s (--timeout %s); run the same command again to go on waiting",
				api.SanitizeID(id), status, time.Since(start).Round(time.Second), *timeout)}
		case errors.Is(err, context.DeadlineExceeded):
			// The service did not answer in time; waiting is still what was
			// asked for.
			why := strings.TrimPrefix(err.Error(), "wait for activity "+api.SanitizeID(id)+": ")
			fmt.Fprintf(c.stderr, "activity %s: the service did not answer (%s); asking again\n", api.SanitizeID(id), why)
			continue
		}
		return err
	}
	if conn.json {
		// The final state as the service sends it, not as decoded for display.
		raw, err := client.QueryRaw(ctx, api.QueryGetActivity, api.GetActivityRequest{OrganizationID: client.OrganizationID(), ActivityID: a.ID})
		if err == nil {
			err = writeJSON(c.stdout, raw)
		}
		if err != nil {
			return fmt.Errorf("activity %s: %w", a.ID, err)
		}
	} else {
		// The final state read again to be printed from its exact strings.
		shown, err := getActivityShown(ctx, client, id)
		if err == nil {
			err = printActivity(c.stdout, shown)
		}
		if err != nil {
			return fmt.Errorf("activity %s: %w", a.ID, err)
		}
	}
	if a.Status != api.StatusCompleted {
		return &exitStatus{1, fmt.Sprintf("activity %s ended %s", a.ID, strings.TrimPrefix(a.Status, "ACTIVITY_STATUS_"))}
	}
	return nil
}
