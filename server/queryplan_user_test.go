package server

import (
	"reflect"
	"regexp"
	"strings"
	"testing"
)

// credentialTable matches a statement reading rows kept per user: an
// organization holds thousands of them (keys, passkeys, tags, identities,
// MFA policies), a user a few.
var credentialTable = regexp.MustCompile(`FROM (api_keys|authenticators|user_tag_members|oidc_identities|mfa_policies)\b`)

// readsByRow reports the plan lines of q that read rows other than by the
// user, a row id or a public key: those walk an organization's (or the
// service's) rows to find one user's.
func readsByRow(plan []string) []string {
	var wide []string
	for _, line := range plan {
		if !strings.HasPrefix(line, "SCAN ") && !strings.HasPrefix(line, "SEARCH ") {
			continue
		}
		if !strings.Contains(line, "user_id=?") && !strings.Contains(line, "(id=?)") &&
			!strings.Contains(line, "public_key=?") && !strings.Contains(line, "issuer=?") {
			wide = append(wide, line)
		}
	}
	return wide
}

// checkPerUserReadsByUser fails, saying fault, for each of traced that
// reads a per-user table (credentialTable) other than by the user, a row id
// or a public key. It returns how many of traced read a per-user table.
func checkPerUserReadsByUser(t *testing.T, e *testEnv, traced []tracedQuery, fault string) int {
	t.Helper()
	n := 0
	for _, q := range traced {
		if !credentialTable.MatchString(q.query) {
			continue
		}
		n++
		if plan := explain(t, e, q); len(readsByRow(plan)) > 0 {
			t.Errorf("%s (%q):\n  %s\nplan: %q", fault, readsByRow(plan), q.query, plan)
		}
	}
	return n
}

// TestGetUserReadsOnlyThatUsersRows checks the plan of every statement
// get_user runs: each reads the user's own keys, passkeys, tags, identities
// and MFA policies through an index on the user, never the organization's
// (whose cost grows with every member: 5,000 users with 50 keys each made
// one get_user read 250,000 keys). The record is the one list_users gives.
func TestGetUserReadsOnlyThatUsersRows(t *testing.T) {
	e := newEnv(t)
	ctx := ctxT(t)
	alice := e.clients["alice"]
	reads := traceReads(e)
	bob, err := alice.GetUser(ctx, e.user("bob"))
	if err != nil {
		t.Fatal(err)
	}
	traced := checkPerUserReadsByUser(t, e, reads(), "get_user reads more than the user's rows")
	if traced < 5 {
		t.Fatalf("only %d statements on per-user tables traced; the trace missed get_user's", traced)
	}
	users, err := alice.ListUsers(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, u := range users {
		if u.UserID == bob.UserID {
			if len(u.APIKeys) == 0 || len(u.UserTags) == 0 || len(u.OauthProviders) == 0 {
				t.Fatalf("bob in list_users has keys %d, tags %d, identities %d: the fixture changed", len(u.APIKeys), len(u.UserTags), len(u.OauthProviders))
			}
			if !reflect.DeepEqual(u, *bob) {
				t.Errorf("get_user:\n %+v\nlist_users:\n %+v", *bob, u)
			}
			return
		}
	}
	t.Fatalf("bob (%s) is not in list_users", bob.UserID)
}

// TestQuorumGuardReadsRootCredentialsByUser checks the plans of the quorum
// guard's reads (in the write transaction of every deletion of a root
// member's key): the root members' keys and passkeys come through an index
// on the user, not a walk of every passkey the service holds.
func TestQuorumGuardReadsRootCredentialsByUser(t *testing.T) {
	e := newEnv(t)
	ctx := ctxT(t)
	o, err := loadOrg(ctx, e.srv.db.read, e.org.ID)
	if err != nil {
		t.Fatal(err)
	}
	reads := traceReads(e)
	members, _, err := e.srv.rootCredentials(ctx, e.srv.db.read, o, false)
	if err != nil || len(members) != len(o.RootIDs) {
		t.Fatalf("root credentials: %d members of %d, %v", len(members), len(o.RootIDs), err)
	}
	traced := checkPerUserReadsByUser(t, e, reads(), "the quorum guard reads more than the root members' rows")
	if traced < 2 {
		t.Fatalf("only %d statements on per-user tables traced", traced)
	}
}
