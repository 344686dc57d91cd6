package server

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/policy"
)

// A policy that reads user.tags by position must be decided by the service
// as the console predicts it from list_users/get_user: both must see a
// user's tags in one order. Dave's seeded tags share one creation time, so
// list_users orders them by their random ids, which almost never is the
// order they were added in; the consensus holds only when the service
// evaluates dave's tags in exactly list_users' order.
func TestPolicyTagsAreInListUsersOrder(t *testing.T) {
	names := []string{"t1", "t2", "t3", "t4", "t5", "t6", "t7", "t8"}
	e := newEnvWith(t, envOptions{threshold: 2, extra: map[string][]string{"dave": names}})
	ctx := ctxT(t)
	users, err := e.clients["alice"].ListUsers(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var apiOrder []string
	for _, u := range users {
		if u.UserID == e.user("dave") {
			apiOrder = u.UserTags
		}
	}
	if len(apiOrder) != len(names) {
		t.Fatalf("list_users gives dave tags %v, want %d", apiOrder, len(names))
	}
	quoted := make([]string, len(apiOrder))
	for i, id := range apiOrder {
		quoted[i] = fmt.Sprintf("'%s'", id)
	}
	e.addPolicy("dave's tags in order", api.EffectAllow, "activity.resource == 'USER'",
		fmt.Sprintf("approvers.any(u, u.tags == [%s])", strings.Join(quoted, ", ")))
	act, err := e.clients["dave"].CreateUserTag(ctx, api.CreateUserTagParams{UserTagName: "new", UserIDs: []string{}})
	if err != nil {
		t.Fatal(err)
	}
	got, err := e.clients["alice"].GetActivity(ctx, act.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.Status != api.StatusCompleted {
		t.Errorf("service: %s; the consensus on dave's tags in list_users' order %v did not hold, so the service "+
			"evaluates them in another order", got.Status, apiOrder)
	}
	records, err := e.clients["alice"].ListPolicies(ctx)
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := e.clients["alice"].GetOrganizationConfigs(ctx)
	if err != nil {
		t.Fatal(err)
	}
	current, _ := policy.PoliciesOf(records)
	in := policy.InputOfActivity(*got, policy.Members(users, *cfg), time.Time{})
	d := policy.Decide(current, in, policy.QuorumOf(cfg.Quorum), policy.RootOnly(got.Type))
	if service := map[string]string{api.StatusCompleted: api.OutcomeAllow}[got.Status]; service != d.Outcome {
		t.Errorf("service: %s; console's prediction: %s (%s)", got.Status, d.Outcome, d.Reason)
	}
}
