package api_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/keys"
	"github.com/vigil-console/vigil/server/servertest"
)

// envelope is a create_user_tag submit body with these parameters, as raw JSON.
func envelope(org, params string) []byte {
	return []byte(`{"type":"` + api.TypeCreateUserTag + `","timestampMs":"` + strconv.FormatInt(time.Now().UnixMilli(), 10) +
		`","organizationId":"` + org + `","parameters":` + params + `}`)
}

// SPEC.md makes create_user_tag's userIds required (the key), not non-empty:
// a tag made first and given to users later. Both the typed client (a nil
// list goes as []) and a raw [] complete with an empty userIds result; a
// missing or null key is still refused.
func TestCreateUserTagWithoutUsers(t *testing.T) {
	demo := servertest.StartDemo(t)
	ctx := context.Background()
	alice, bob := demo.Client("alice"), demo.Client("bob")

	act, err := alice.CreateUserTag(ctx, api.CreateUserTagParams{UserTagName: "given-later"})
	if err != nil {
		t.Fatalf("create_user_tag without users: %v", err)
	}
	if in := act.Intent.CreateUserTagIntent; in == nil || in.UserIDs == nil || len(in.UserIDs) != 0 {
		t.Errorf("intent: %+v, want userIds []", in)
	}
	if _, err := bob.ApproveActivity(ctx, act.Fingerprint); err != nil {
		t.Fatalf("bob approves: %v", err)
	}
	raw, err := alice.QueryRaw(ctx, api.QueryGetActivity, api.GetActivityRequest{OrganizationID: demo.Info.OrganizationID, ActivityID: act.ID})
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		Activity struct {
			Status string
			Result struct {
				CreateUserTagResult struct {
					UserTagID string          `json:"userTagId"`
					UserIDs   json.RawMessage `json:"userIds"`
				} `json:"createUserTagResult"`
			}
		}
	}
	if err := json.Unmarshal(raw, &got); err != nil {
		t.Fatal(err)
	}
	r := got.Activity.Result.CreateUserTagResult
	if got.Activity.Status != api.StatusCompleted || r.UserTagID == "" || string(r.UserIDs) != "[]" {
		t.Errorf("completed tag: status %s, result %+v (userIds %s), want COMPLETED with userIds []", got.Activity.Status, r, r.UserIDs)
	}

	for params, want := range map[string]int{
		`{"userTagName":"raw-empty","userIds":[]}`:   http.StatusOK,
		`{"userTagName":"raw-null","userIds":null}`:  http.StatusBadRequest,
		`{"userTagName":"raw-missing"}`:              http.StatusBadRequest,
		`{"userTagName":"raw-blank","userIds":[""]}`: http.StatusBadRequest,
	} {
		reply, err := alice.Send(ctx, api.SubmitPrefix+"create_user_tag", envelope(demo.Info.OrganizationID, params))
		if err != nil {
			t.Fatal(err)
		}
		if reply.Status != want {
			t.Errorf("%s: %d %s, want %d", params, reply.Status, reply.Body, want)
		}
		if want == http.StatusBadRequest && !strings.Contains(string(reply.Body), "parameters.userIds") {
			t.Errorf("%s: the refusal does not name userIds: %s", params, reply.Body)
		}
	}
}

// SPEC.md's sample reply shows a timestampMs at the top of the activity
// object: the service sends the creation time there, a string of epoch
// milliseconds, in every reply that holds the record. result keeps its one key
// named after the operation's result (no copy of the record under
// result.activity; docs/local-service.md).
func TestActivityCarriesTimestampMs(t *testing.T) {
	demo := servertest.StartDemo(t)
	ctx := context.Background()
	alice := demo.Client("alice")
	before := time.Now().UnixMilli()
	act, err := alice.CreateUserTag(ctx, api.CreateUserTagParams{UserTagName: "stamped", UserIDs: []string{demo.Info.Members[0].UserID}})
	if err != nil {
		t.Fatal(err)
	}
	ms, err := api.ParseDecimal(act.TimestampMs)
	if err != nil || ms < before-1 || ms > time.Now().UnixMilli() {
		t.Fatalf("submit reply timestampMs %q (%v), want the creation time in epoch ms, after %d", act.TimestampMs, err, before)
	}
	if created := act.CreatedAt.Time().UnixMilli(); ms != created {
		t.Errorf("timestampMs %d is not createdAt %d", ms, created)
	}

	if _, err := demo.Client("bob").ApproveActivity(ctx, act.Fingerprint); err != nil {
		t.Fatal(err)
	}
	org := demo.Info.OrganizationID
	get, err := alice.QueryRaw(ctx, api.QueryGetActivity, api.GetActivityRequest{OrganizationID: org, ActivityID: act.ID})
	if err != nil {
		t.Fatal(err)
	}
	list, err := alice.QueryRaw(ctx, api.QueryListActivities, api.ListActivitiesRequest{OrganizationID: org})
	if err != nil {
		t.Fatal(err)
	}
	var one struct{ Activity map[string]json.RawMessage }
	var page struct{ Activities []map[string]json.RawMessage }
	if err := json.Unmarshal(get, &one); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(list, &page); err != nil {
		t.Fatal(err)
	}
	want := `"` + act.TimestampMs + `"`
	if got := string(one.Activity["timestampMs"]); got != want {
		t.Errorf("get_activity timestampMs = %s, want %s", got, want)
	}
	if len(page.Activities) == 0 {
		t.Fatal("list_activities is empty")
	}
	for _, a := range page.Activities {
		if ts := string(a["timestampMs"]); len(ts) < 3 || ts[0] != '"' {
			t.Errorf("list_activities: activity %s has timestampMs %s, want a string", a["id"], ts)
		}
		if string(a["id"]) == `"`+act.ID+`"` && string(a["timestampMs"]) != want {
			t.Errorf("list_activities timestampMs = %s, want %s", a["timestampMs"], want)
		}
	}
	var result map[string]json.RawMessage
	if err := json.Unmarshal(one.Activity["result"], &result); err != nil {
		t.Fatal(err)
	}
	if _, copied := result["activity"]; copied || len(result) != 1 {
		t.Errorf("result keys: %s, want only createUserTagResult", one.Activity["result"])
	}
}

// SPEC.md requires organizationId in every submit and query. A client made
// without one refuses every stamped request before sending it, with a
// *ValidationError naming organizationId; the calls that need no organization
// (the webhook JWKS, the auth proxy) still work.
func TestClientWithoutOrganizationSendsNoStampedRequest(t *testing.T) {
	demo := servertest.StartDemo(t)
	ctx := context.Background()
	var sent atomic.Int64
	var paths sync.Map
	service := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		sent.Add(1)
		paths.Store(r.URL.Path, true)
		demo.Server.Handler().ServeHTTP(w, r)
	}))
	defer service.Close()
	proxy := httptest.NewServer(demo.Server.AuthProxyHandler())
	defer proxy.Close()
	k, err := keys.Store{Dir: demo.KeysDir}.Load("alice")
	if err != nil {
		t.Fatal(err)
	}
	c, err := api.NewClient(service.URL, "", k, api.WithAuthProxy(proxy.URL, demo.Info.AuthProxyConfigID))
	if err != nil {
		t.Fatalf("a client without an organization is refused outright: %v", err)
	}
	tag := api.CreateUserTagParams{UserTagName: "t", UserIDs: []string{demo.Info.Members[0].UserID}}
	calls := map[string]func() error{
		"whoami":          func() error { _, err := c.Whoami(ctx); return err },
		"get_activity":    func() error { _, err := c.GetActivity(ctx, "a-1"); return err },
		"list_activities": func() error { _, err := c.ListActivities(ctx, api.ListActivitiesOptions{}); return err },
		"query raw":       func() error { _, err := c.QueryRaw(ctx, api.QueryListUsers, api.ListUsersRequest{}); return err },
		"create_user_tag": func() error { _, err := c.CreateUserTag(ctx, tag); return err },
		"submit raw":      func() error { _, _, err := c.SubmitRaw(ctx, "create_user_tag", &tag); return err },
		"approve":         func() error { _, err := c.ApproveActivity(ctx, "sha256:00"); return err },
		"send": func() error {
			_, err := c.Send(ctx, api.QueryPrefix+"whoami", []byte(`{"organizationId":""}`))
			return err
		},
	}
	for name, call := range calls {
		err := call()
		var ve *api.ValidationError
		if !errors.As(err, &ve) || ve.Field != "organizationId" || !strings.Contains(err.Error(), "organization_id") {
			t.Errorf("%s: err = %v, want a *ValidationError naming organizationId and saying what to set", name, err)
		}
		if !errors.Is(err, api.ErrInvalidArgument) {
			t.Errorf("%s: %v is not ErrInvalidArgument", name, err)
		}
	}
	if n := sent.Load(); n != 0 {
		var got []string
		paths.Range(func(k, _ any) bool { got = append(got, k.(string)); return true })
		t.Errorf("%d requests reached the service without an organization: %v", n, got)
	}
	if jwks, err := c.WebhookJWKS(ctx); err != nil || len(jwks.Keys) == 0 {
		t.Errorf("JWKS without an organization: %+v %v", jwks, err)
	}
	if cfg, err := c.WalletKitConfig(ctx); err != nil || cfg == nil {
		t.Errorf("auth proxy without an organization: %+v %v", cfg, err)
	}
}
