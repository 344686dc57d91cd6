package api

import (
	"crypto/ecdh"
	"crypto/rand"
	"encoding/hex"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/keys"
)

// A key listed uncompressed, or in upper-case hex, is the vote's
// compressed key: the voter's own. Another user's key is not listed; a
// voter the list does not hold is unchecked.
func TestVoteKeyOwnerComparesKeysCanonically(t *testing.T) {
	priv, err := ecdh.P256().GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	uncompressed := priv.PublicKey().Bytes()
	compressed := append([]byte{2 + uncompressed[64]&1}, uncompressed[1:33]...)
	v := &Vote{UserID: "bob", PublicKey: hex.EncodeToString(compressed), Scheme: keys.SchemeP256}
	cred := func(k string) Credential { return Credential{PublicKey: k, Type: keys.CredentialAPIKeyP256} }
	for _, spelt := range []string{hex.EncodeToString(uncompressed), strings.ToUpper(v.PublicKey)} {
		users := []User{
			{UserID: "carol", APIKeys: []APIKey{{APIKeyName: "carol's", Credential: cred(spelt)}}},
			{UserID: "bob", APIKeys: []APIKey{{APIKeyName: "bob's", Credential: cred(spelt)}}},
		}
		if o := VoteKeyOwner(users, v); o.State != KeyListed || o.KeyName != "bob's" || o.User.UserID != "bob" {
			t.Errorf("bob's key listed as %s: %+v, want listed as his", spelt, o)
		}
		shownAsCarols := *v
		shownAsCarols.UserID = "carol"
		users[0].APIKeys = nil
		if o := VoteKeyOwner(users, &shownAsCarols); o.State != KeyNotListed {
			t.Errorf("bob's key on a vote shown as carol's: %+v, want not listed", o)
		}
		if o := VoteKeyOwner(users[:1], v); o.State != KeyUnchecked {
			t.Errorf("a list without bob: %+v, want unchecked", o)
		}
	}
}
