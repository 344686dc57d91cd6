package api

import (
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"encoding/hex"
	"strings"
	"testing"

	"github.com/decred/dcrd/dcrec/secp256k1/v4"

	"github.com/vigil-console/vigil/keys"
)

// A key is its curve and its bytes together: a secp256k1 vote key whose
// 33 bytes are also a P-256 point, or an Ed25519 key whose bytes a "P-256"
// credential holds, is not the voter's key, although the bytes are the
// same. The same bytes under the vote's own curve are; under a credential
// type vigil cannot read, the key is unchecked, not "not listed".
func TestVoteKeyOwnerComparesTheCurveWithTheKey(t *testing.T) {
	var k1 []byte
	for range 200 {
		priv, err := secp256k1.GeneratePrivateKey()
		if err != nil {
			t.Fatal(err)
		}
		b := priv.PubKey().SerializeCompressed()
		if x, _ := elliptic.UnmarshalCompressed(elliptic.P256(), b); x != nil {
			k1 = b
			break
		}
	}
	if k1 == nil {
		t.Fatal("set-up: no secp256k1 key whose bytes are a P-256 point")
	}
	edPub, _, _ := ed25519.GenerateKey(rand.Reader)
	for _, tc := range []struct {
		name     string
		vote     *Vote
		credType string
	}{
		{"secp256k1 vote, P-256 API key of the same bytes",
			&Vote{UserID: "bob", Scheme: keys.SchemeSecp256k1, PublicKey: hex.EncodeToString(k1)}, keys.CredentialAPIKeyP256},
		{"P-256 (passkey) vote, secp256k1 API key of the same bytes",
			&Vote{UserID: "bob", Scheme: keys.SchemeWebAuthn, PublicKey: hex.EncodeToString(k1)}, keys.CredentialAPIKeySecp256k1},
		{"Ed25519 vote, P-256 API key of the same (unparsable) bytes",
			&Vote{UserID: "bob", Scheme: keys.SchemeEd25519, PublicKey: hex.EncodeToString(edPub)}, keys.CredentialAPIKeyP256},
	} {
		t.Run(tc.name, func(t *testing.T) {
			users := []User{{UserID: "bob", APIKeys: []APIKey{{APIKeyName: "bob's",
				Credential: Credential{Type: tc.credType, PublicKey: strings.ToUpper(tc.vote.PublicKey)}}}}}
			if o := VoteKeyOwner(users, tc.vote); o.State == KeyListed {
				t.Errorf("a %s key is reported as bob's %s key %q: %+v; want not listed", tc.vote.Scheme, tc.credType, o.KeyName, o)
			}
		})
	}
	t.Run("the same curve is the voter's key", func(t *testing.T) {
		v := &Vote{UserID: "bob", Scheme: keys.SchemeSecp256k1, PublicKey: hex.EncodeToString(k1)}
		users := []User{{UserID: "bob", APIKeys: []APIKey{{APIKeyName: "bob's",
			Credential: Credential{Type: keys.CredentialAPIKeySecp256k1, PublicKey: strings.ToUpper(v.PublicKey)}}}}}
		if o := VoteKeyOwner(users, v); o.State != KeyListed || o.KeyName != "bob's" {
			t.Errorf("bob's own secp256k1 key: %+v, want listed", o)
		}
	})
	t.Run("a credential type vigil cannot read is no evidence", func(t *testing.T) {
		v := &Vote{UserID: "bob", Scheme: keys.SchemeEd25519, PublicKey: hex.EncodeToString(edPub)}
		users := []User{{UserID: "bob", APIKeys: []APIKey{{APIKeyName: "bob's",
			Credential: Credential{Type: "CREDENTIAL_TYPE_FROM_THE_FUTURE", PublicKey: v.PublicKey}}}}}
		if o := VoteKeyOwner(users, v); o.State != KeyUnchecked || !o.Unreadable || o.User == nil {
			t.Errorf("a key of an unknown credential type: %+v, want unchecked for its unreadable key", o)
		}
	})
}
