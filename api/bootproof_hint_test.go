package api_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/server/servertest"
)

// A boot proof the service does not have has no id to check: by app name the
// name is wrong (or the enclave has not booted); by key, nothing the key
// signed can be trusted. The generic not-found advice would mislead.
func TestBootProofNotFoundSaysWhatToDo(t *testing.T) {
	demo := servertest.StartDemo(t)
	c := demo.Client("alice")
	ctx := context.Background()

	_, byApp := c.GetLatestBootProof(ctx, "policy-engine-x")
	if !errors.Is(byApp, api.ErrNotFound) || !strings.Contains(byApp.Error(), "BOOT_PROOF_NOT_FOUND); the service has no boot proof under this app name: check the name (enclave_apps in the profile, or --app), or the enclave has not booted yet") {
		t.Errorf("unknown app: %v", byApp)
	}
	_, byKey := c.GetBootProof(ctx, "04"+strings.Repeat("ab", 129))
	if !errors.Is(byKey, api.ErrNotFound) || !strings.Contains(byKey.Error(), "BOOT_PROOF_NOT_FOUND); no enclave booted with this key is known to the service, so nothing signed with it (such as an app proof) can be trusted") {
		t.Errorf("unknown key: %v", byKey)
	}
}
