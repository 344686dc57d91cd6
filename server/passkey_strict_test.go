package server

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/keys"
)

// writtenPasskey signs the clientDataJSON that write makes from the
// browser's challenge for the body and the passkey's origin, as a browser or
// a tampered client could send it.
type writtenPasskey struct {
	*browserPasskey
	write func(challenge, origin string) string
}

func (p writtenPasskey) Stamp(body []byte) (string, string, error) {
	return p.assert([]byte(p.write(browserChallenge(body), p.origin)), 0x05, 9) // user present and verified
}

// A passkey's clientDataJSON is read as a browser writes it: a duplicated
// or differently-cased type, challenge or origin, or a padded challenge, is
// refused with a 401 that says what is wrong, even though the passkey
// signed it; what browsers really add (crossOrigin false, other members) is
// accepted.
func TestPasskeyClientDataIsReadStrictly(t *testing.T) {
	e := newEnv(t)
	pk := newBrowserPasskey(t, "strict-cred", "https://app.example.com", "app.example.com")
	o, err := e.srv.CreateOrganization(ctxT(t), "Strict Org", 1, []UserSpec{
		{Name: "pk", Root: true, Authenticators: []AuthenticatorSpec{{Name: "laptop", CredentialID: pk.credentialID, PublicKey: pk.publicKeyHex()}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	body := []byte(`{"organizationId":"` + o.ID + `"}`)
	send := func(write func(c, origin string) string) reply {
		return e.post(api.QueryPrefix+"list_activities", body, writtenPasskey{pk, write})
	}
	chrome := func(c, origin string) string {
		return `{"type":"webauthn.get","challenge":"` + c + `","origin":"` + origin + `","crossOrigin":false,"other_keys_can_be_added_here":"do not compare clientDataJSON against a template. See https://goo.gl/yabPex"}`
	}
	if r := send(chrome); r.status != 200 {
		t.Fatalf("clientDataJSON as Chrome writes it: HTTP %d %s", r.status, r.body)
	}
	otherChallenge := func() string {
		d := sha256.Sum256([]byte(`{"organizationId":"elsewhere"}`))
		return base64.RawURLEncoding.EncodeToString([]byte(hex.EncodeToString(d[:])))
	}()
	cases := []struct {
		name  string
		write func(c, origin string) string
		says  string
	}{
		{"type twice", func(c, origin string) string {
			return `{"type":"webauthn.create","challenge":"` + c + `","origin":"` + origin + `","type":"webauthn.get"}`
		}, `"type" twice`},
		{"challenge twice", func(c, origin string) string {
			return `{"type":"webauthn.get","challenge":"` + otherChallenge + `","origin":"` + origin + `","challenge":"` + c + `"}`
		}, `"challenge" twice`},
		{"origin twice", func(c, origin string) string {
			return `{"type":"webauthn.get","challenge":"` + c + `","origin":"https://evil.example","origin":"` + origin + `"}`
		}, `"origin" twice`},
		{"TYPE in capitals", func(c, origin string) string {
			return `{"TYPE":"webauthn.get","challenge":"` + c + `","origin":"` + origin + `"}`
		}, "case-sensitive"},
		{"Challenge capitalised", func(c, origin string) string {
			return `{"type":"webauthn.get","Challenge":"` + c + `","origin":"` + origin + `"}`
		}, "case-sensitive"},
		{"padded challenge", func(c, origin string) string {
			return `{"type":"webauthn.get","challenge":"` + c + `==","origin":"` + origin + `"}`
		}, "padding"},
	}
	for _, c := range cases {
		r := send(c.write)
		if r.status != 401 || len(r.err.Details) != 1 || r.err.Details[0].ErrorCode != "INVALID_STAMP" || !strings.Contains(r.err.Message, c.says) {
			t.Errorf("%s: HTTP %d %s; want 401 INVALID_STAMP saying %q", c.name, r.status, r.body, c.says)
		}
	}
}

// A passkey assertion made in a frame of another site's page (crossOrigin
// true, topOrigin that page) is refused, saying why and what to do, unless
// the organization lists that page's origin in FEATURE_NAME_WEBAUTHN_ORIGINS.
func TestPasskeyInACrossOriginFrameIsRefusedUnlessItsPageIsListed(t *testing.T) {
	e := newEnv(t)
	ctx := ctxT(t)
	adminKey, err := keys.Generate(keys.SchemeP256)
	if err != nil {
		t.Fatal(err)
	}
	pk := newBrowserPasskey(t, "framed-cred", "https://app.example.com", "app.example.com")
	o, err := e.srv.CreateOrganization(ctx, "Framed Org", 1, []UserSpec{
		{Name: "admin", Root: true, APIKeys: []APIKeySpec{{Name: "k", PublicKey: adminKey.PublicKeyHex()}}},
		{Name: "pk", Authenticators: []AuthenticatorSpec{{Name: "laptop", CredentialID: pk.credentialID, PublicKey: pk.publicKeyHex()}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	framed := writtenPasskey{pk, func(c, origin string) string {
		return `{"type":"webauthn.get","challenge":"` + c + `","origin":"` + origin + `","crossOrigin":true,"topOrigin":"https://shop.example"}`
	}}
	topLevel := writtenPasskey{pk, func(c, origin string) string {
		return `{"type":"webauthn.get","challenge":"` + c + `","origin":"` + origin + `","crossOrigin":false}`
	}}
	query := func(st keys.Stamper) reply {
		return e.post(api.QueryPrefix+"list_activities", []byte(`{"organizationId":"`+o.ID+`"}`), st)
	}
	refused := func(when string) {
		t.Helper()
		r := query(framed)
		if r.status != 401 || len(r.err.Details) != 1 || r.err.Details[0].ErrorCode != "INVALID_STAMP" {
			t.Fatalf("%s: framed assertion got HTTP %d %s, want 401 INVALID_STAMP", when, r.status, r.body)
		}
		for _, want := range []string{`"https://shop.example"`, "did not host the ceremony", "top-level page", api.FeatureWebauthnOrigins} {
			if !strings.Contains(r.err.Message, want) {
				t.Errorf("%s: the refusal does not say %q: %s", when, want, r.err.Message)
			}
		}
	}
	if r := query(topLevel); r.status != 200 {
		t.Fatalf("top-level assertion: HTTP %d %s", r.status, r.body)
	}
	refused("no origins set")

	admin, err := api.NewClient(e.http.URL, o.ID, adminKey)
	if err != nil {
		t.Fatal(err)
	}
	setOrigins := func(value string) {
		t.Helper()
		set, err := admin.SetOrganizationFeature(ctx, api.SetOrganizationFeatureParams{Name: api.FeatureWebauthnOrigins, Value: value})
		if err != nil || set.Status != api.StatusCompleted {
			t.Fatalf("set origins %q: %v %+v", value, err, set)
		}
	}
	setOrigins("https://app.example.com")
	refused("only the frame's origin listed")
	setOrigins("https://app.example.com,https://shop.example")
	if r := query(framed); r.status != 200 {
		t.Fatalf("framed assertion with its page listed: HTTP %d %s", r.status, r.body)
	}
}
