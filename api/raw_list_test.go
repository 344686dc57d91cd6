package api_test

import (
	"context"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/server/servertest"
)

// vigil request for list_users, a list the service cannot page, reads it
// with the unpaged-list bound (max_list_reply_mib) as ListUsers does, and
// over that bound says which setting to raise.
func TestSendReadsUnpagedListsWithTheListBound(t *testing.T) {
	demo := servertest.StartDemo(t)
	ctx := context.Background()
	demo.AddOrdinaryUsers(1300)
	body := []byte(`{"organizationId":"` + demo.Info.OrganizationID + `"}`)

	roomy := demo.ClientAt(demo.URL, "alice", api.WithMaxReplyBytes(api.MinReplyBytes), api.WithMaxListReplyBytes(2*api.MinReplyBytes, ""))
	whole, err := roomy.QueryRaw(ctx, api.QueryListUsers, api.ListUsersRequest{OrganizationID: demo.Info.OrganizationID})
	if err != nil || len(whole) <= api.MinReplyBytes {
		t.Fatalf("set-up: list_users is %d bytes (%v); the test needs it over %d", len(whole), err, api.MinReplyBytes)
	}
	r, err := roomy.Send(ctx, api.QueryPrefix+api.QueryListUsers, body)
	if err != nil || r.Status != 200 {
		t.Fatalf("the typed query reads list_users, Send refuses it: %v", err)
	}

	const setting = `max_list_reply_mib (in MiB) in profile "big" of /tmp/config.toml`
	tight := demo.ClientAt(demo.URL, "alice", api.WithMaxListReplyBytes(api.MinReplyBytes, setting))
	_, err = tight.Send(ctx, api.QueryPrefix+api.QueryListUsers, body)
	if err == nil || !strings.Contains(err.Error(), setting) {
		t.Errorf("a list_users over the list bound: err = %v; want it to name %s", err, setting)
	}
}
