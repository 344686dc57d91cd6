package cli

import (
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/vigil-console/vigil/api"
)

// bob's MFA policy pins his OAuth key, which has expired (60 s) by the service's
// clock: the policy could not be met before the deletion, so deleting the
// key (routine cleanup) does not lock bob out, and apikey delete does not
// say it does.
func TestAPIKeyDeleteOfAnExpiredPinnedKeyDoesNotWarnOfLockOut(t *testing.T) {
	offset := new(atomic.Int64) // the service's clock minus this machine's
	e := newVerbEnvOn(t, func() time.Time { return time.Now().Add(time.Duration(offset.Load())) })
	e.loginOAuthAs("bob", "bob-oauth", "--expiration", "60s")
	oauth, _ := e.apiKeysOf("bob")
	if len(oauth) != 1 {
		t.Fatalf("bob's OAuth keys: %q", oauth)
	}
	id := e.keyNamed("bob", oauth[0])
	e.givesBobMfaPolicy("OAuth key for everything", api.AuthenticationStep{Any: []api.AuthenticationMethod{{Type: api.AuthOauth, ID: id}}})

	offset.Store(int64(2 * time.Minute)) // within the service's ±5m on request times
	code, out, errOut := e.run("", "apikey", "delete", "--yes", "--profile", "alice", id)
	wantExit(t, "alice deletes bob's expired OAuth key", code, 0, out, errOut)
	if strings.Contains(errOut, "MFA policy") {
		t.Errorf("deleting an expired key, whose pin no vote could meet already, is said to lock bob's policy out:\nstderr: %s", errOut)
	}
}

// bob's MFA policy asks for any API key, and pins none: deleting his only
// API key leaves every activity the policy covers waiting for a vote he can
// never cast, and apikey delete says so first.
func TestAPIKeyDeleteOfTheLastKeyAnUnpinnedMethodNeedsWarns(t *testing.T) {
	e := newVerbEnv(t)
	e.givesBobMfaPolicy("any API key", api.AuthenticationStep{Any: []api.AuthenticationMethod{{Type: api.AuthAPIKey}}})
	code, out, errOut := e.run("", "apikey", "delete", "--yes", "--profile", "alice", e.onlyKeyOf("bob"))
	wantExit(t, "alice deletes bob's only key", code, 0, out, errOut)
	if !strings.Contains(errOut, `MFA policy "any API key"`) || !strings.Contains(errOut, "can never be cast") {
		t.Errorf("deleting bob's only API key, which his MFA policy's only method needs: no warning that the policy can then never be met:\nstderr: %s", errOut)
	}
}
