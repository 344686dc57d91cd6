package api_test

import (
	"context"
	"testing"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/server/servertest"
)

// A list_users reply holding nobody, however spelt, is a list read and
// empty: ListUsers returns it non-nil, as the checks (CheckActivityVotes,
// VoteKeyOwner) take nil for a list not read.
func TestListUsersReadEmptyIsNotNil(t *testing.T) {
	d := servertest.StartDemo(t)
	for _, reply := range []string{`{"users":[]}`, `{"users":null}`, `{}`} {
		t.Run(reply, func(t *testing.T) {
			url := d.Rewriting(func(op string, request, sent []byte) []byte {
				if op == "query/"+api.QueryListUsers {
					return []byte(reply)
				}
				return sent
			})
			users, err := d.ClientAt(url, "alice").ListUsers(context.Background())
			if err != nil {
				t.Fatalf("list users: %v", err)
			}
			if users == nil || len(users) != 0 {
				t.Errorf("reply %s: ListUsers returned %#v, want a non-nil empty list", reply, users)
			}
		})
	}
}
