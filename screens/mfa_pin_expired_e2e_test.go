package screens

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/keys"
	"github.com/vigil-console/vigil/server"
	"github.com/vigil-console/vigil/server/servertest"
)

// A key may expire after an MFA policy pinned to it is stored; it then
// signs nothing, so the step can never be met: the MFA policy detail flags
// the pin, saying the key expired (by the service's clock, the console's).
func TestEndToEndMfaDetailFlagsAPinToAnExpiredKey(t *testing.T) {
	var offset atomic.Int64 // the service's clock minus this machine's
	d := servertest.StartDemoOn(t, func() time.Time { return time.Now().Add(time.Duration(offset.Load())) })
	ctx := context.Background()
	hour, _ := keys.Generate(keys.SchemeP256)
	ids, err := d.Server.CreateUsers(ctx, d.Info.OrganizationID, []server.UserSpec{{Name: "pinny", Email: "pinny@example.com",
		APIKeys: []server.APIKeySpec{{Name: "hour", PublicKey: hour.PublicKeyHex(), ExpirationSeconds: 3600}}}})
	if err != nil {
		t.Fatal(err)
	}
	u, err := d.Client("alice").GetUser(ctx, ids[0])
	if err != nil || len(u.APIKeys) != 1 {
		t.Fatalf("pinny: %+v %v", u, err)
	}
	key := u.APIKeys[0].APIKeyID
	act, err := d.Client("alice").CreateMfaPolicy(ctx, api.CreateMfaPolicyParams{UserID: ids[0], MfaPolicyName: "pinned to the hour key", Condition: "true",
		RequiredAuthenticationMethods: []api.AuthenticationStep{{Any: []api.AuthenticationMethod{{Type: api.AuthAPIKey, ID: key}}}}})
	if err != nil {
		t.Fatal(err)
	}
	if act = approvedByBob(t, d, act); act.Status != api.StatusCompleted {
		t.Fatalf("create_mfa_policy is %s", act.Status)
	}
	offset.Store(int64(3 * time.Hour)) // the key has expired

	h := demoHarnessVia(t, d.Client("alice"), ProofSettings{Apps: d.Info.EnclaveApps})
	h.gotoScreen("MFA policies")
	users, err := d.Client("alice").ListUsers(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for range len(users) + 1 {
		if strings.Contains(h.frame(), "MFA policies of pinny") {
			break
		}
		h.key("U")
	}
	if !strings.Contains(h.frame(), "pinned to the hour key") {
		t.Fatalf("pinny's policy is not listed:\n%s", h.frame())
	}
	h.key("enter")
	out := h.frame()
	if !strings.Contains(out, "can never be met") || !strings.Contains(out, "expired") {
		t.Errorf("the API_KEY pinned to an expired key is not flagged as never met:\n%s", out)
	}
}
