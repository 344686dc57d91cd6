package cli

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/vigil-console/vigil/api"
)

// printActivityOwners prints a as 'activity get' does: when a vote
// verified (or the intent holds an OIDC token), it reads the
// organization's users once (activityUsers) to say whose key signed each
// vote, and names the ids of an invitation or key deletion
// (intentNamesBlock). A read that fails fails nothing: the activity is
// printed all the same, with a note on standard error saying what is not checked and why.
// Only a failure to print is returned.
func printActivityOwners(ctx context.Context, c proc, client *api.Client, a shownActivity) error {
	users, notes := activityUsers(ctx, client, &a)
	if err := printActivityNaming(c.stdout, a, users); err != nil {
		return err
	}
	for _, note := range notes {
		fmt.Fprintln(c.stderr, "vigil: note: "+note)
	}
	if names := intentNamesBlock(ctx, c, client, a.exact, users, true); names != "" {
		_, err := fmt.Fprint(c.stdout, "\n"+names)
		return err
	}
	return nil
}

// submitted is printSubmitted for a submit verb: the activity printed
// with its votes' key owners named (printActivityOwners), or with --json
// the reply as sent with its checks (checkedReply). The activity is
// recorded either way: a reply refused there is recordedNotPrinted.
func submitted(ctx context.Context, c proc, client *api.Client, a shownActivity, raw json.RawMessage, asJSON bool) error {
	var users []api.User
	var notes []string
	if asJSON {
		checked, err := checkedReply(ctx, client, raw)
		if err != nil {
			return recordedNotPrinted(a.ID, a.Status, err)
		}
		raw = checked
	} else if a.exact != nil {
		users, notes = activityUsers(ctx, client, &a)
	}
	err := printSubmittedNaming(c.stdout, a, raw, asJSON, users)
	for _, note := range notes {
		fmt.Fprintln(c.stderr, "vigil: note: "+note)
	}
	return err
}
