package servertest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"

	"github.com/vigil-console/vigil/keys"
	"github.com/vigil-console/vigil/server"
)

// AddOrdinaryUsers adds n users to the organization the way a large one has
// them: each with 4 API keys, 3 passkeys and 3 tags (about 3.6 kB in
// list_users), named user-00000, user-00001, …. It writes through the
// service directly, in one transaction, which is far quicker than n stamped
// activities.
func (d *Demo) AddOrdinaryUsers(n int) {
	d.t.Helper()
	users := make([]server.UserSpec, 0, n)
	for i := range n {
		u := server.UserSpec{Name: fmt.Sprintf("user-%05d", i), Email: fmt.Sprintf("user-%05d@example.com", i),
			Tags: []string{fmt.Sprintf("team-%d", i%50), fmt.Sprintf("site-%d", i%7), "staff"}}
		for k := range 4 {
			u.APIKeys = append(u.APIKeys, server.APIKeySpec{Name: fmt.Sprintf("ci key %d", k), PublicKey: d.newPublicKey()})
		}
		for a := range 3 {
			u.Authenticators = append(u.Authenticators, server.AuthenticatorSpec{Name: fmt.Sprintf("YubiKey %d", a),
				CredentialID: randomHex(32), PublicKey: d.newPublicKey(), Transports: []string{"AUTHENTICATOR_TRANSPORT_USB"}})
		}
		users = append(users, u)
	}
	if _, err := d.Server.CreateUsers(context.Background(), d.Info.OrganizationID, users); err != nil {
		d.t.Fatalf("add %d users: %v", n, err)
	}
}

// newPublicKey is a fresh P-256 public key: the service refuses a key that
// is not a point of its curve, or one already registered in the organization.
func (d *Demo) newPublicKey() string {
	k, err := keys.Generate(keys.SchemeP256)
	if err != nil {
		d.t.Fatalf("generate a key: %v", err)
	}
	return k.PublicKeyHex()
}

func randomHex(n int) string {
	b := make([]byte, n)
	rand.Read(b)
	return hex.EncodeToString(b)
}

// AddPlainUsers adds n users with no keys, passkeys or tags, named
// user-00000, user-00001, …, in one transaction: for tests that need many
// users to choose from, not large records.
func (d *Demo) AddPlainUsers(n int) {
	d.t.Helper()
	users := make([]server.UserSpec, 0, n)
	for i := range n {
		users = append(users, server.UserSpec{Name: fmt.Sprintf("user-%05d", i), Email: fmt.Sprintf("user-%05d@example.com", i)})
	}
	if _, err := d.Server.CreateUsers(context.Background(), d.Info.OrganizationID, users); err != nil {
		d.t.Fatalf("add %d users: %v", n, err)
	}
}

// AddUserWithKeys adds one user named name with apiKeys API keys ("key
// 0000", "key 0001", …; every third expires in a day, so the record shows
// both kinds) and authenticators passkeys, in one transaction, and returns
// its id: for the record of a user with many credentials.
func (d *Demo) AddUserWithKeys(name string, apiKeys, authenticators int) string {
	d.t.Helper()
	u := server.UserSpec{Name: name, Email: name + "@example.com"}
	for k := range apiKeys {
		spec := server.APIKeySpec{Name: fmt.Sprintf("key %04d", k), PublicKey: d.newPublicKey()}
		if k%3 == 0 {
			spec.ExpirationSeconds = 24 * 60 * 60
		}
		u.APIKeys = append(u.APIKeys, spec)
	}
	for a := range authenticators {
		u.Authenticators = append(u.Authenticators, server.AuthenticatorSpec{Name: fmt.Sprintf("YubiKey %04d", a),
			CredentialID: randomHex(32), PublicKey: d.newPublicKey(), Transports: []string{"AUTHENTICATOR_TRANSPORT_USB"}})
	}
	ids, err := d.Server.CreateUsers(context.Background(), d.Info.OrganizationID, []server.UserSpec{u})
	if err != nil {
		d.t.Fatalf("add %s with %d API keys and %d passkeys: %v", name, apiKeys, authenticators, err)
	}
	return ids[0]
}
