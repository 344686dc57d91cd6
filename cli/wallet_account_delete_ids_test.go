package cli

import (
	"context"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
)

// An id after -- that starts with - is a flag put in the wrong place
// (--without-export taken for an id would delete without it): refused, as
// tag create refuses such a user, and nothing is sent.
func TestWalletAccountDeleteRefusesAFlagAsAnID(t *testing.T) {
	e := newVerbEnv(t)
	before, err := e.client("alice").ListActivities(context.Background(), api.ListActivitiesOptions{Limit: 100})
	if err != nil {
		t.Fatal(err)
	}
	code, out, errOut := e.run("", "wallet-account", "delete", "--yes", "--", "wa-1", "--without-export")
	wantExit(t, "wallet-account delete -- ID --without-export", code, exitUsage, out, errOut)
	if !strings.Contains(errOut, `"--without-export" looks like a flag`) {
		t.Errorf("the refusal should name the flag: %s", errOut)
	}
	after, err := e.client("alice").ListActivities(context.Background(), api.ListActivitiesOptions{Limit: 100})
	if err != nil {
		t.Fatal(err)
	}
	if len(after) != len(before) {
		t.Errorf("a refused delete was sent: %d activities, then %d", len(before), len(after))
	}
}
