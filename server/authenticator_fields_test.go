package server

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/keys"
)

// getUserAuthenticators reads a user's authenticators through get_user as the
// official client would, each as its raw fields.
func (e *testEnv) getUserAuthenticators(userID string) []map[string]json.RawMessage {
	e.t.Helper()
	body, _ := json.Marshal(api.GetUserRequest{OrganizationID: e.org.ID, UserID: userID})
	r := e.post(api.QueryPrefix+api.QueryGetUser, body, e.keys["alice"])
	if r.status != 200 {
		e.t.Fatalf("get_user: %d %s", r.status, r.body)
	}
	var got struct {
		User struct {
			Authenticators []map[string]json.RawMessage `json:"authenticators"`
		} `json:"user"`
	}
	if err := json.Unmarshal(r.body, &got); err != nil {
		e.t.Fatalf("reply: %s (%v)", r.body, err)
	}
	return got.User.Authenticators
}

// A passkey registered without a word about the device still carries every
// field the official client's v1Authenticator requires.
func TestAuthenticatorCarriesEveryRequiredField(t *testing.T) {
	e := newEnv(t)
	auth, err := keys.NewSoftAuthenticator("Y3JlZC0x")
	if err != nil {
		t.Fatal(err)
	}
	pat, err := e.srv.CreateUser(context.Background(), e.org.ID, UserSpec{Name: "pat",
		Authenticators: []AuthenticatorSpec{{Name: "yubikey", CredentialID: auth.CredentialID(), PublicKey: auth.PublicKeyHex()}}})
	if err != nil {
		t.Fatal(err)
	}
	got := e.getUserAuthenticators(pat)
	if len(got) != 1 {
		t.Fatalf("authenticators: %v", got)
	}
	for _, f := range []string{"transports", "attestationType", "aaguid", "credentialId", "model", "credential",
		"authenticatorId", "authenticatorName", "createdAt", "updatedAt"} {
		if v, ok := got[0][f]; !ok || string(v) == "null" {
			t.Errorf("authenticator lacks %s, which v1Authenticator requires", f)
		}
	}
	if string(got[0]["transports"]) != "[]" {
		t.Errorf("transports = %s, want []", got[0]["transports"])
	}
}

// What the registration said of the device is stored and returned as given;
// a value outside its domain is refused, saying what is allowed.
func TestAuthenticatorDeviceFieldsAreKeptAndChecked(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	auth, err := keys.NewSoftAuthenticator("Y3JlZC0y")
	if err != nil {
		t.Fatal(err)
	}
	spec := AuthenticatorSpec{Name: "key", CredentialID: auth.CredentialID(), PublicKey: auth.PublicKeyHex(),
		Transports: []string{api.TransportUSB, api.TransportNFC}, AttestationType: "direct",
		Aaguid: "cb69481e-8ff7-4039-93ec-0a2729a154a8", Model: "YubiKey 5 NFC"}
	pat, err := e.srv.CreateUser(ctx, e.org.ID, UserSpec{Name: "pat", Authenticators: []AuthenticatorSpec{spec}})
	if err != nil {
		t.Fatal(err)
	}
	u, err := e.clients["alice"].GetUser(ctx, pat)
	if err != nil || len(u.Authenticators) != 1 {
		t.Fatalf("get_user: %v %+v", err, u)
	}
	a := u.Authenticators[0]
	if strings.Join(a.Transports, ",") != strings.Join(spec.Transports, ",") || a.AttestationType != spec.AttestationType ||
		a.Aaguid != spec.Aaguid || a.Model != spec.Model {
		t.Errorf("authenticator = %+v, want the registration's %+v", a, spec)
	}

	for _, c := range []struct {
		change func(*AuthenticatorSpec)
		want   string
	}{
		{func(s *AuthenticatorSpec) { s.Transports = []string{"usb"} }, "AUTHENTICATOR_TRANSPORT_USB"},
		{func(s *AuthenticatorSpec) { s.AttestationType = "full" }, "none, indirect, direct, enterprise"},
		{func(s *AuthenticatorSpec) { s.Aaguid = "yubikey" }, "not a UUID"},
	} {
		bad := spec
		bad.CredentialID = "Y3JlZC0z"
		c.change(&bad)
		if _, err := e.srv.CreateUser(ctx, e.org.ID, UserSpec{Name: "bad", Authenticators: []AuthenticatorSpec{bad}}); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: err = %v, want one naming %q", bad, err, c.want)
		}
	}
}
