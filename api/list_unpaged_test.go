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
// raise it. Both bounds are lowered here so that 1,300 users (about 4.7 MB)
// stand for the 5,000 (18 MB) of a real organization.
func TestListUsersPastTheOrdinaryReplyBound(t *testing.T) {
	demo := servertest.StartDemo(t)
	ctx := context.Background()
	const n = 1300
	demo.AddOrdinaryUsers(n)
	whole, err := demo.Client("alice").QueryRaw(ctx, api.QueryListUsers, api.ListUsersRequest{OrganizationID: demo.Info.OrganizationID})
	if err != nil || len(whole) <= api.MinReplyBytes {
		t.Fatalf("list_users is %d bytes (%v); the test needs it over %d", len(whole), err, api.MinReplyBytes)
	}

	roomy := demo.ClientAt(demo.URL, "alice", api.WithMaxReplyBytes(api.MinReplyBytes), api.WithMaxListReplyBytes(2*api.MinReplyBytes, ""))
	users, err := roomy.ListUsers(ctx)
	if err != nil || len(users) != n+len(demo.Info.Members) {
		t.Fatalf("ListUsers with a list bound over the reply: %d users, %v; want %d", len(users), err, n+len(demo.Info.Members))
	}
	// Every other reply keeps the ordinary bound.
	if _, err := roomy.QueryRaw(ctx, "get_user", api.GetUserRequest{OrganizationID: demo.Info.OrganizationID, UserID: users[0].UserID}); err != nil {
		t.Fatalf("get_user: %v", err)
	}

	const setting = `max_list_reply_mib (in MiB) in profile "big" of /tmp/config.toml`
	tight := demo.ClientAt(demo.URL, "alice", api.WithMaxListReplyBytes(api.MinReplyBytes, setting))
	_, err = tight.ListUsers(ctx)
	if err == nil || !strings.Contains(err.Error(), "list_users") || !strings.Contains(err.Error(), "4 MiB") || !strings.Contains(err.Error(), setting) {
		t.Errorf("ListUsers over the list bound: %v; want an error naming list_users, the 4 MiB bound and %s", err, setting)
	}
	if _, err := api.NewClient(demo.URL, demo.Info.OrganizationID, nil, api.WithMaxListReplyBytes(api.MinReplyBytes-1, "")); err == nil {
		t.Errorf("a list bound under %d bytes was taken", api.MinReplyBytes)
	}
}
