package api_test

import (
	"context"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/server/servertest"
)

// list_users is one reply the service cannot page, and it grows with the
// organization. It must be readable past the bound of an ordinary reply, up
// to the bound of lists; over that, the error says which bound and where to
// raise it. Both bounds are lowered here, to a quarter of the least a client
// takes (1 MiB), so that 325 users (about 1.2 MB) stand for the 5,000 (18 MB)
// of a real organization: the client compares a reply with its bound, never
// with MinReplyBytes.
func TestListUsersPastTheOrdinaryReplyBound(t *testing.T) {
	demo := servertest.StartDemo(t)
	ctx := context.Background()
	const bound = api.MinReplyBytes / 4
	const n = 1300 / 4
	demo.AddOrdinaryUsers(n)
	whole, err := demo.Client("alice").QueryRaw(ctx, api.QueryListUsers, api.ListUsersRequest{OrganizationID: demo.Info.OrganizationID})
	if err != nil || len(whole) <= bound || len(whole) > 2*bound {
		t.Fatalf("list_users is %d bytes (%v); the test needs it over %d and at most %d", len(whole), err, bound, 2*bound)
	}

	roomy := demo.ClientAt(demo.URL, "alice", api.WithMaxReplyBytesBelowTheLeast(bound), api.WithMaxListReplyBytesBelowTheLeast(2*bound, ""))
	users, err := roomy.ListUsers(ctx)
	if err != nil || len(users) != n+len(demo.Info.Members) {
		t.Fatalf("ListUsers with a list bound over the reply: %d users, %v; want %d", len(users), err, n+len(demo.Info.Members))
	}
	// Every other reply keeps the ordinary bound.
	if _, err := roomy.QueryRaw(ctx, "get_user", api.GetUserRequest{OrganizationID: demo.Info.OrganizationID, UserID: users[0].UserID}); err != nil {
		t.Fatalf("get_user: %v", err)
	}

	const setting = `max_list_reply_mib (in MiB) in profile "big" of /tmp/config.toml`
	tight := demo.ClientAt(demo.URL, "alice", api.WithMaxListReplyBytesBelowTheLeast(bound, setting))
	_, err = tight.ListUsers(ctx)
	if err == nil || !strings.Contains(err.Error(), "list_users") || !strings.Contains(err.Error(), "1 MiB") || !strings.Contains(err.Error(), setting) {
		t.Errorf("ListUsers over the list bound: %v; want an error naming list_users, the 1 MiB bound and %s", err, setting)
	}
	if _, err := api.NewClient(demo.URL, demo.Info.OrganizationID, nil, api.WithMaxListReplyBytes(api.MinReplyBytes-1, "")); err == nil {
		t.Errorf("a list bound under %d bytes was taken", api.MinReplyBytes)
	}
}
