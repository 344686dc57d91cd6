package server

import (
	"encoding/hex"
	"strings"
	"testing"

	"github.com/decred/dcrd/dcrec/secp256k1/v4"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/keys"
)

// An API key registered as secp256k1 whose bytes are also a P-256 point
// cannot stamp as P-256: the registered type, which votes and policies show,
// would not be the curve that signed. The refusal names both.
func TestAPIKeyStampMustUseTheRegisteredCurve(t *testing.T) {
	e := newEnv(t)
	// A P-256 key whose compressed form is a secp256k1 point too (about half are).
	var k *keys.Key
	for range 200 {
		c, err := keys.Generate(keys.SchemeP256)
		if err != nil {
			t.Fatal(err)
		}
		raw, _ := hex.DecodeString(c.PublicKeyHex())
		if _, err := secp256k1.ParsePubKey(raw); err == nil {
			k = c
			break
		}
	}
	if k == nil {
		t.Fatal("no P-256 key in 200 is a secp256k1 point")
	}
	o, err := e.srv.CreateOrganization(ctxT(t), "Curve Org", 1, []UserSpec{
		{Name: "u", Root: true, APIKeys: []APIKeySpec{{Name: "k", PublicKey: k.PublicKeyHex(), CredentialType: api.CredentialAPIKeySecp256k1}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	r := e.post(api.QueryPrefix+"list_activities", []byte(`{"organizationId":"`+o.ID+`"}`), k)
	wantError(t, r, 401, api.CodeUnauthenticated, "INVALID_STAMP")
	for _, want := range []string{api.CredentialAPIKeySecp256k1, keys.SchemeP256} {
		if !strings.Contains(r.err.Message, want) {
			t.Errorf("the refusal does not name %s: %s", want, r.err.Message)
		}
	}
}
