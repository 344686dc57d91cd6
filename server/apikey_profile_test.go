package server_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/keys"
	"github.com/vigil-console/vigil/server"
	"github.com/vigil-console/vigil/server/servertest"
)

// SPEC.md's API key record has credential.sessionProfileId for
// CREDENTIAL_TYPE_LOGIN keys: a LOGIN key registered with one is served with
// it by get_api_key (and in the user's record); other keys carry none.
func TestLoginKeySessionProfileRoundTrip(t *testing.T) {
	demo := servertest.StartDemo(t)
	ctx := context.Background()
	org := demo.Info.OrganizationID
	k, err := keys.Generate(keys.SchemeP256)
	if err != nil {
		t.Fatal(err)
	}
	userID, err := demo.Server.CreateUser(ctx, org, server.UserSpec{Name: "kiosk", APIKeys: []server.APIKeySpec{{
		Name: "kiosk login", PublicKey: k.PublicKeyHex(), CredentialType: api.CredentialLogin, SessionProfileID: "session-profile-7"}}})
	if err != nil {
		t.Fatal(err)
	}
	alice := demo.Client("alice")
	u, err := alice.GetUser(ctx, userID)
	if err != nil || len(u.APIKeys) != 1 {
		t.Fatalf("get_user: %+v %v", u, err)
	}
	if got := u.APIKeys[0].Credential; got.Type != api.CredentialLogin || got.SessionProfileID != "session-profile-7" {
		t.Errorf("get_user's key credential: %+v", got)
	}
	keyID := u.APIKeys[0].APIKeyID
	raw, err := alice.QueryRaw(ctx, api.QueryGetAPIKey, api.GetAPIKeyRequest{OrganizationID: org, APIKeyID: keyID})
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		APIKey struct{ Credential map[string]string } `json:"apiKey"`
	}
	if err := json.Unmarshal(raw, &got); err != nil {
		t.Fatal(err)
	}
	if c := got.APIKey.Credential; c["type"] != api.CredentialLogin || c["sessionProfileId"] != "session-profile-7" {
		t.Errorf("get_api_key credential: %v", c)
	}

	// Any other key has no sessionProfileId key at all.
	me, err := alice.Whoami(ctx)
	if err != nil {
		t.Fatal(err)
	}
	mine, err := alice.GetUser(ctx, me.UserID)
	if err != nil || len(mine.APIKeys) == 0 {
		t.Fatalf("alice: %+v %v", mine, err)
	}
	raw, err = alice.QueryRaw(ctx, api.QueryGetAPIKey, api.GetAPIKeyRequest{OrganizationID: org, APIKeyID: mine.APIKeys[0].APIKeyID})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(raw), "sessionProfileId") {
		t.Errorf("a P-256 API key is served with a session profile: %s", raw)
	}
}

// A key SPEC.md would not describe is refused when registered, and nothing of
// the user is created: a LOGIN key without a session profile, a session
// profile on another type, a type that is not a credential type.
func TestAPIKeySpecRefusesWhatSpecDoesNotAllow(t *testing.T) {
	demo := servertest.StartDemo(t)
	ctx := context.Background()
	for name, tc := range map[string]struct {
		spec server.APIKeySpec
		says string
	}{
		"login without profile": {server.APIKeySpec{CredentialType: api.CredentialLogin}, "has no session profile id"},
		"login blank profile":   {server.APIKeySpec{CredentialType: api.CredentialLogin, SessionProfileID: "  "}, "has no session profile id"},
		"profile on P-256":      {server.APIKeySpec{CredentialType: api.CredentialAPIKeyP256, SessionProfileID: "sp"}, "only a CREDENTIAL_TYPE_LOGIN key may have"},
		"profile on default":    {server.APIKeySpec{SessionProfileID: "sp"}, "only a CREDENTIAL_TYPE_LOGIN key may have"},
		"unknown type":          {server.APIKeySpec{CredentialType: "CREDENTIAL_TYPE_PASSWORD"}, "is not a credential type; use one of CREDENTIAL_TYPE_WEBAUTHN_AUTHENTICATOR"},
	} {
		k, err := keys.Generate(keys.SchemeP256)
		if err != nil {
			t.Fatal(err)
		}
		tc.spec.PublicKey = k.PublicKeyHex()
		user := "refused-" + strings.ReplaceAll(name, " ", "-")
		_, err = demo.Server.CreateUser(ctx, demo.Info.OrganizationID, server.UserSpec{Name: user, APIKeys: []server.APIKeySpec{tc.spec}})
		if err == nil || !strings.Contains(err.Error(), tc.says) {
			t.Errorf("%s: err = %v, want one saying %q", name, err, tc.says)
		}
		users, err := demo.Client("alice").ListUsers(ctx)
		if err != nil {
			t.Fatal(err)
		}
		for _, u := range users {
			if u.UserName == user {
				t.Errorf("%s: the user was created although its key was refused", name)
			}
		}
	}
}
