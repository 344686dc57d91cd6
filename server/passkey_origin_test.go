package server

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/keys"
)

// browserPasskey stamps as a browser's passkey does: an assertion made at
// origin for relying party rpID, signed by priv.
type browserPasskey struct {
	priv         *ecdsa.PrivateKey
	credentialID string
	origin, rpID string
}

func newBrowserPasskey(t *testing.T, credential, origin, rpID string) *browserPasskey {
	t.Helper()
	priv, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	return &browserPasskey{priv: priv, credentialID: base64.RawURLEncoding.EncodeToString([]byte(credential)), origin: origin, rpID: rpID}
}

func (p *browserPasskey) publicKeyHex() string {
	b, err := p.priv.PublicKey.Bytes()
	if err != nil {
		panic(err)
	}
	return hex.EncodeToString(b)
}

func (p *browserPasskey) Stamp(body []byte) (string, string, error) {
	cd, err := json.Marshal(map[string]string{"type": "webauthn.get", "challenge": browserChallenge(body), "origin": p.origin})
	if err != nil {
		return "", "", err
	}
	return p.assert(cd, 0x01, 0) // user present, signCount 0
}

// browserChallenge is the challenge a browser writes for body: base64url,
// unpadded, of the lowercase hex SHA-256 of body.
func browserChallenge(body []byte) string {
	d := sha256.Sum256(body)
	return base64.RawURLEncoding.EncodeToString([]byte(hex.EncodeToString(d[:])))
}

// assert is the X-Stamp-WebAuthn header of an assertion over clientData,
// made for p's relying party with the authenticatorData flags and signCount
// given, signed by p's key.
func (p *browserPasskey) assert(clientData []byte, flags byte, signCount uint32) (string, string, error) {
	rp := sha256.Sum256([]byte(p.rpID))
	authData := binary.BigEndian.AppendUint32(append(rp[:], flags), signCount)
	cdh := sha256.Sum256(clientData)
	signed := sha256.Sum256(append(append([]byte{}, authData...), cdh[:]...))
	sig, err := ecdsa.SignASN1(rand.Reader, p.priv, signed[:])
	if err != nil {
		return "", "", err
	}
	enc := base64.RawURLEncoding.EncodeToString
	hv, err := json.Marshal(keys.WebAuthnStamp{AuthenticatorData: enc(authData), ClientDataJSON: enc(clientData), CredentialID: p.credentialID, Signature: enc(sig)})
	return keys.HeaderStampWebAuthn, string(hv), err
}

// withOrigin is the same passkey used at another origin, for another rpId.
func (p *browserPasskey) withOrigin(origin, rpID string) *browserPasskey {
	q := *p
	q.origin, q.rpID = origin, rpID
	return &q
}

// An organization that sets FEATURE_NAME_WEBAUTHN_ORIGINS accepts passkey
// stamps made at those origins only, and only for their relying party; the
// refusal names the origin seen and the ones allowed. Unset, any is taken.
func TestPasskeyStampsAreHeldToTheOrganizationsOrigins(t *testing.T) {
	e := newEnv(t)
	ctx := ctxT(t)
	adminKey, err := keys.Generate(keys.SchemeP256)
	if err != nil {
		t.Fatal(err)
	}
	pk := newBrowserPasskey(t, "cred-origins", "https://app.example.com", "app.example.com")
	o, err := e.srv.CreateOrganization(ctx, "Passkey Org", 1, []UserSpec{
		{Name: "admin", Root: true, APIKeys: []APIKeySpec{{Name: "k", PublicKey: adminKey.PublicKeyHex()}}},
		{Name: "pk", Authenticators: []AuthenticatorSpec{{Name: "laptop", CredentialID: pk.credentialID, PublicKey: pk.publicKeyHex()}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	query := func(st keys.Stamper) reply {
		return e.post(api.QueryPrefix+"list_activities", []byte(`{"organizationId":"`+o.ID+`"}`), st)
	}
	evil := pk.withOrigin("https://evil.example", "evil.example")
	if r := query(evil); r.status != 200 {
		t.Fatalf("without %s, a passkey stamp from any origin is accepted (documented); got HTTP %d %s", api.FeatureWebauthnOrigins, r.status, r.body)
	}

	admin, err := api.NewClient(e.http.URL, o.ID, adminKey)
	if err != nil {
		t.Fatal(err)
	}
	set, err := admin.SetOrganizationFeature(ctx, api.SetOrganizationFeatureParams{Name: api.FeatureWebauthnOrigins, Value: "https://app.example.com, http://localhost:3000"})
	if err != nil || set.Status != api.StatusCompleted {
		t.Fatalf("set origins: %v %+v", err, set)
	}
	if r := query(pk); r.status != 200 {
		t.Fatalf("passkey at an allowed origin: HTTP %d %s", r.status, r.body)
	}
	if r := query(pk.withOrigin("http://localhost:3000", "localhost")); r.status != 200 {
		t.Fatalf("passkey at the second allowed origin: HTTP %d %s", r.status, r.body)
	}
	r := query(evil)
	wantError(t, r, 401, api.CodeUnauthenticated, "INVALID_STAMP")
	for _, want := range []string{`"https://evil.example"`, `"https://app.example.com"`, `"http://localhost:3000"`} {
		if !strings.Contains(r.err.Message, want) {
			t.Errorf("the refusal does not name %s: %s", want, r.err.Message)
		}
	}
	// An allowed origin in the client data, but signed for another relying party.
	wantError(t, query(pk.withOrigin("https://app.example.com", "evil.example")), 401, api.CodeUnauthenticated, "INVALID_STAMP")
	// Near misses of an allowed origin are other origins.
	for _, origin := range []string{"https://app.example.com/", "http://app.example.com", "https://app.example.com:8443", "https://APP.example.com"} {
		wantError(t, query(pk.withOrigin(origin, "app.example.com")), 401, api.CodeUnauthenticated, "INVALID_STAMP")
	}
}

// Without a passkey, nobody can tell a registered credential id from an
// unknown one: an assertion that cannot be checked against a known
// credential gets the same refusal either way.
func TestPasskeyRefusalDoesNotTellWhetherACredentialIsRegistered(t *testing.T) {
	e := newEnv(t)
	victim := newBrowserPasskey(t, "victim-cred", "https://app.example.com", "app.example.com")
	if _, err := e.srv.CreateOrganization(ctxT(t), "Victim Org", 1, []UserSpec{
		{Name: "v", Root: true, Authenticators: []AuthenticatorSpec{{Name: "laptop", CredentialID: victim.credentialID, PublicKey: victim.publicKeyHex()}}},
	}); err != nil {
		t.Fatal(err)
	}
	body := []byte(`{"organizationId":"` + e.org.ID + `"}`)
	probe := func(p *browserPasskey) (int, string, string) {
		r := e.post(api.QueryPrefix+"list_activities", body, p)
		code := ""
		if len(r.err.Details) > 0 {
			code = r.err.Details[0].ErrorCode
		}
		return r.status, code, strings.ReplaceAll(r.err.Message, p.credentialID, "ID")
	}
	// A well-formed assertion by the wrong key, for the victim's id and for an id registered nowhere.
	forger := newBrowserPasskey(t, "victim-cred", "https://app.example.com", "app.example.com")
	nobody := newBrowserPasskey(t, "nobody", "https://app.example.com", "app.example.com")
	ks, kc, km := probe(forger)
	us, uc, um := probe(nobody)
	if ks != us || kc != uc || km != um {
		t.Fatalf("a probe tells a registered credential id (HTTP %d %s %q) from an unknown one (HTTP %d %s %q)", ks, kc, km, us, uc, um)
	}
	if ks != 401 || !strings.Contains(km, "sign with a passkey registered to your user") {
		t.Errorf("the refusal (HTTP %d) does not say what to do: %s", ks, km)
	}
}

// An origins value the CLI and console accept but that no browser sends as
// written (the host in capitals, an explicit default port) names the same
// origin: once the quorum approves it, passkeys signing there still work
// (compared as written, every passkey request of the organization, queries
// included, was refused, and a passkey-only root member could not vote to
// mend it). So does a port written with leading zeros (":0443" is 443).
func TestOriginsWrittenDifferentlyFromTheBrowserStillAdmitItsPasskeys(t *testing.T) {
	for _, value := range []string{"https://VIGIL.local", "https://vigil.local:443", "HTTPS://vigil.local",
		"https://vigil.local:0443", "https://vigil.local:00443"} { // leading zeros: the port the tools read as a number
		t.Run(value, func(t *testing.T) {
			if err := api.CheckFeatureValue(api.FeatureWebauthnOrigins, value); err != nil {
				t.Skipf("refused before submitting (good): %v", err)
			}
			e := newEnv(t)
			ctx := ctxT(t)
			adminKey, err := keys.Generate(keys.SchemeP256)
			if err != nil {
				t.Fatal(err)
			}
			pk, err := keys.NewSoftAuthenticator("")
			if err != nil {
				t.Fatal(err)
			}
			o, err := e.srv.CreateOrganization(ctx, "Origins Org", 1, []UserSpec{
				{Name: "admin", Root: true, APIKeys: []APIKeySpec{{Name: "k", PublicKey: adminKey.PublicKeyHex()}}},
				{Name: "pk", Authenticators: []AuthenticatorSpec{{Name: "laptop", CredentialID: pk.CredentialID(), PublicKey: pk.PublicKeyHex()}}},
			})
			if err != nil {
				t.Fatal(err)
			}
			admin, err := api.NewClient(e.http.URL, o.ID, adminKey)
			if err != nil {
				t.Fatal(err)
			}
			set, err := admin.SetOrganizationFeature(ctx, api.SetOrganizationFeatureParams{Name: api.FeatureWebauthnOrigins, Value: value})
			if err != nil || set.Status != api.StatusCompleted {
				t.Fatalf("set origins: %v %+v", err, set)
			}
			r := e.post(api.QueryPrefix+"list_activities", []byte(`{"organizationId":"`+o.ID+`"}`), pk)
			if r.status != 200 {
				t.Fatalf("value %q passed CheckFeatureValue and names the origin %s, yet the passkey signing there is refused: HTTP %d %s",
					value, keys.SoftAuthenticatorOrigin, r.status, r.body)
			}
		})
	}
}
