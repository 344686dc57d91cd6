package api

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"encoding/hex"
	"testing"

	"github.com/vigil-console/vigil/keys"
)

func newP256Hex(t *testing.T) string {
	t.Helper()
	k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	return hex.EncodeToString(elliptic.MarshalCompressed(elliptic.P256(), k.X, k.Y))
}

// CREDENTIAL_TYPE_LOGIN is a P-256 key (keys.CanonicalPublicKey,
// keys.SchemeOfCredentialType, the local service registers and verifies
// it): a vote signed with bob's login key is bob's, and a vote claimed as
// bob's with a key that is none of his is "not listed" — not "unchecked".
func TestVoteKeyOwnerReadsLoginKeysAsP256(t *testing.T) {
	login, other := newP256Hex(t), newP256Hex(t)
	users := []User{{UserID: "bob", APIKeys: []APIKey{{APIKeyName: "session",
		Credential: Credential{Type: keys.CredentialLogin, PublicKey: login}}}}}
	if o := VoteKeyOwner(users, &Vote{UserID: "bob", Scheme: keys.SchemeP256, PublicKey: login}); o.State != KeyListed {
		t.Errorf("a vote signed with bob's login key: %+v, want listed", o)
	}
	if o := VoteKeyOwner(users, &Vote{UserID: "bob", Scheme: keys.SchemeP256, PublicKey: other}); o.State != KeyNotListed {
		t.Errorf("a vote claimed as bob's with another key: %+v, want not listed (the swapped-user-id warning)", o)
	}
}
