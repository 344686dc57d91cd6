package server

import (
	"testing"

	"github.com/vigil-console/vigil/api"
)

// The real service's policy overview: "All users have implicit permission to
// change their own credentials, unless a policy explicitly allows or denies
// those actions." A user whose key leaked can revoke it without a policy;
// the same request on someone else's keys is still implicitly denied, and a
// deny policy still wins.
func TestUserMayDeleteOwnAPIKeyWithoutPolicy(t *testing.T) {
	e := newEnvWith(t, envOptions{threshold: 2, extra: map[string][]string{"dave": nil, "erin": nil}})
	ctx := ctxT(t)
	keyOf := func(name string) string {
		t.Helper()
		u, err := e.clients[name].GetUser(ctx, e.user(name))
		if err != nil || len(u.APIKeys) == 0 {
			t.Fatalf("%s's keys: %v %+v", name, err, u)
		}
		return u.APIKeys[0].APIKeyID
	}

	other, err := e.clients["dave"].DeleteAPIKeys(ctx, api.DeleteAPIKeysParams{UserID: e.user("erin"), APIKeyIDs: []string{keyOf("erin")}})
	if err != nil {
		t.Fatal(err)
	}
	if other.Status != api.StatusFailed {
		t.Fatalf("dave deleting erin's key with no policy: %s, want FAILED (implicit deny)", other.Status)
	}

	e.addPolicy("no key deletions by erin", api.EffectDeny, "activity.type == 'ACTIVITY_TYPE_DELETE_API_KEYS'",
		"approvers.any(u, u.id == '"+e.user("erin")+"')")
	denied, err := e.clients["erin"].DeleteAPIKeys(ctx, api.DeleteAPIKeysParams{UserID: e.user("erin"), APIKeyIDs: []string{keyOf("erin")}})
	if err != nil {
		t.Fatal(err)
	}
	if denied.Status != api.StatusFailed {
		t.Fatalf("erin deleting her own key under a deny: %s, want FAILED (a policy that denies wins)", denied.Status)
	}
	if _, err := e.clients["erin"].GetUser(ctx, e.user("erin")); err != nil {
		t.Fatalf("erin's key was deleted despite the deny: %v", err)
	}

	own := keyOf("dave")
	del, err := e.clients["dave"].DeleteAPIKeys(ctx, api.DeleteAPIKeysParams{UserID: e.user("dave"), APIKeyIDs: []string{own}})
	if err != nil {
		t.Fatalf("delete own key: %v", err)
	}
	if del.Status != api.StatusCompleted {
		t.Fatalf("dave deleting his own API key with no policy: %s, want COMPLETED (implicit permission to change own credentials)", del.Status)
	}
	u, err := e.clients["alice"].GetUser(ctx, e.user("dave"))
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range u.APIKeys {
		if k.APIKeyID == own {
			t.Fatalf("dave's key %s is still registered after the completed deletion", own)
		}
	}
}
