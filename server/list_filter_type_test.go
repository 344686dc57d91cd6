package server

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
)

// list_activities takes any activity type of the real service in
// filterByType (the official client's v1ActivityType): one this service
// never produces matches nothing; beside one it produces it changes
// nothing. A value not shaped like a type is a 400 saying the shape.
func TestListFilterTakesAnyWellFormedActivityType(t *testing.T) {
	e := newEnv(t)
	ctx := ctxT(t)
	if _, err := e.clients["alice"].CreateUserTag(ctx, api.CreateUserTagParams{UserTagName: "listed", UserIDs: []string{}}); err != nil {
		t.Fatal(err)
	}
	list := func(types ...string) ([]string, reply) {
		body, _ := json.Marshal(api.ListActivitiesRequest{OrganizationID: e.org.ID, FilterByType: types})
		r := e.post(api.QueryPrefix+api.QueryListActivities, body, e.keys["alice"])
		var got api.ListActivitiesResponse
		_ = json.Unmarshal(r.body, &got)
		var ids []string
		for _, a := range got.Activities {
			ids = append(ids, a.ID)
		}
		return ids, r
	}
	known, r := list(api.TypeCreateUserTag)
	if r.status != 200 || len(known) == 0 {
		t.Fatalf("filtered by a type the service holds: %d %s", r.status, r.body)
	}
	none, r := list("ACTIVITY_TYPE_CREATE_USERS_V3")
	if r.status != 200 || len(none) != 0 || !strings.Contains(string(r.body), `"activities":[]`) {
		t.Errorf("filtered by a type of the real service: %d %s", r.status, r.body)
	}
	both, r := list("ACTIVITY_TYPE_SIGN_TRANSACTION_V2", api.TypeCreateUserTag)
	if r.status != 200 || strings.Join(both, ",") != strings.Join(known, ",") {
		t.Errorf("an unheld type beside a held one: %d %v, want %v", r.status, both, known)
	}
	for _, bad := range []string{"create_user_tag", "ACTIVITY_TYPE_", "ACTIVITY_TYPE_create", "ACTIVITY_TYPE_A B", "activity_type_CREATE_USER_TAG"} {
		_, r := list(bad)
		if r.status != 400 || !strings.Contains(string(r.body), "INVALID_FIELD") || !strings.Contains(string(r.body), "ACTIVITY_TYPE_ followed by upper-case letters, digits and underscores") {
			t.Errorf("filterByType %q: %d %s, want a 400 saying the shape", bad, r.status, r.body)
		}
	}
}
