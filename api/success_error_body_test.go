package api_test

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/server/servertest"
)

// A proxy that answers 200 for the service's refusal must not make the
// refusal pass for an empty record: a whoami of nobody, a root quorum of
// no one, an organization without users.
func TestSuccessStatusWithErrorBodyIsRefused(t *testing.T) {
	demo := servertest.StartDemo(t)
	ctx := context.Background()
	// The service's own refusal of a lookup, passed on below with status 200.
	ask, err := json.Marshal(api.GetUserRequest{OrganizationID: demo.Info.OrganizationID, UserID: "no-such-user"})
	if err != nil {
		t.Fatal(err)
	}
	refusal, err := demo.Client("alice").Send(ctx, api.QueryPrefix+api.QueryGetUser, ask)
	if err != nil || refusal.Status != http.StatusNotFound {
		t.Fatalf("the service's refusal: %v, %+v", err, refusal)
	}
	url := demo.Rewriting(func(op string, _, reply []byte) []byte {
		if strings.HasPrefix(op, "query/") {
			return refusal.Body
		}
		return reply
	})
	c := demo.ClientAt(url, "alice")
	const said = "the reply says success (HTTP 200) but its body is an error"

	if who, err := c.Whoami(ctx); err == nil || !strings.Contains(err.Error(), said) || !strings.Contains(err.Error(), "(NotFound)") {
		t.Errorf("whoami: %+v, %v", who, err)
	}
	if cfg, err := c.GetOrganizationConfigs(ctx); err == nil || !strings.Contains(err.Error(), said) {
		t.Errorf("configs: %+v, %v", cfg, err)
	}
	if users, err := c.ListUsers(ctx); err == nil || !strings.Contains(err.Error(), said) {
		t.Errorf("users: %+v, %v", users, err)
	}
	if raw, err := c.QueryRaw(ctx, api.QueryWhoami, api.WhoamiRequest{OrganizationID: demo.Info.OrganizationID}); err == nil || !strings.Contains(err.Error(), said) {
		t.Errorf("raw whoami: %s, %v", raw, err)
	}
}
