package screens

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	mrand "math/rand/v2"
	"testing"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/keys"
)

// The differential test's generators beyond counts and tags: the activity
// types the console votes on and conditions on their fields, and members
// who also hold a passkey and vote with it.

// testPasskey stamps as a browser's passkey does (an assertion any origin
// is taken from while the organization sets no allowed origins).
type testPasskey struct {
	priv         *ecdsa.PrivateKey
	credentialID string
}

func newTestPasskey(t *testing.T, credential string) *testPasskey {
	t.Helper()
	priv, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	return &testPasskey{priv: priv, credentialID: base64.RawURLEncoding.EncodeToString([]byte(credential))}
}

func (p *testPasskey) publicKeyHex() string {
	b, err := p.priv.PublicKey.Bytes()
	if err != nil {
		panic(err)
	}
	return hex.EncodeToString(b)
}

func (p *testPasskey) Stamp(body []byte) (string, string, error) {
	d := sha256.Sum256(body)
	challenge := base64.RawURLEncoding.EncodeToString([]byte(hex.EncodeToString(d[:])))
	clientData, err := json.Marshal(map[string]string{"type": "webauthn.get", "challenge": challenge, "origin": "https://console.example"})
	if err != nil {
		return "", "", err
	}
	rp := sha256.Sum256([]byte("console.example"))
	authData := binary.BigEndian.AppendUint32(append(rp[:], 0x01), 0) // user present, signCount 0
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

// predSubmission is an activity kind the differential test submits.
type predSubmission int

const (
	submitUserTag predSubmission = iota
	submitInvitation
	submitFeature // root only: policies do not decide it
)

func (s predSubmission) String() string {
	return [...]string{"create_user_tag", "create_invitations", "set_organization_feature"}[s]
}

func randomSubmission(rng *mrand.Rand) predSubmission {
	switch k := rng.IntN(10); {
	case k < 6:
		return submitUserTag
	case k < 9:
		return submitInvitation
	}
	return submitFeature
}

// submit has member i of o submit an activity of kind s, named after ci.
func (e *predEnv) submit(o *predOrg, i int, s predSubmission, ci int) (*api.Activity, error) {
	cl := o.clients[i]
	switch s {
	case submitInvitation:
		return cl.CreateInvitations(e.ctx, api.CreateInvitationsParams{Invitations: []api.Invitation{{
			ReceiverUserName: fmt.Sprintf("guest%d", ci), ReceiverUserEmail: fmt.Sprintf("guest%d-%d@x.test", ci, e.n),
			ReceiverUserTags: []string{}, AccessType: api.AccessTypeAll, SenderUserID: o.ids[i]}}})
	case submitFeature:
		return cl.SetOrganizationFeature(e.ctx, api.SetOrganizationFeatureParams{Name: api.FeatureEmailAuth, Value: api.FeatureEnabled})
	}
	return cl.CreateUserTag(e.ctx, api.CreateUserTagParams{UserTagName: fmt.Sprintf("t%d", ci), UserIDs: []string{}})
}

// randomCondition is one of the conditions the differential test draws
// from: on the type, resource and action of the activity, and on its
// parameters (some of which the other activity types do not have), for
// the activity named after ci.
func randomCondition(rng *mrand.Rand, ci int) string {
	switch rng.IntN(12) {
	case 0, 1, 2:
		return tagCondition
	case 3:
		return tagCondition + " && activity.params.user_tag_name != 'never'"
	case 4:
		return fmt.Sprintf("activity.params.user_tag_name == 't%d'", ci) // absent on an invitation
	case 5:
		return "activity.resource == 'INVITATION' && activity.action == 'CREATE'"
	case 6:
		return "activity.type == 'ACTIVITY_TYPE_CREATE_INVITATIONS'"
	case 7:
		return "activity.action == 'CREATE' && activity.resource != 'POLICY'"
	case 8:
		return "" // every activity, policies the test creates later too
	case 9:
		return "activity.type != 'ACTIVITY_TYPE_CREATE_USER_TAG' && activity.resource != 'POLICY'"
	case 10:
		return "activity.type in ['ACTIVITY_TYPE_CREATE_USER_TAG', 'ACTIVITY_TYPE_CREATE_INVITATIONS']"
	}
	return fmt.Sprintf("activity.type == 'ACTIVITY_TYPE_CREATE_INVITATIONS' || activity.params.user_tag_name == 't%d'", ci+1)
}

// randomCredentialConsensus is one of the consensus expressions reading
// the credentials approvals were made with (their type, passkeys
// included), alone or with the approvers' tags.
func randomCredentialConsensus(rng *mrand.Rand, o *predOrg) string {
	tag := o.tags[[]string{"ops", "fin"}[rng.IntN(2)]]
	if tag == "" {
		tag = "no-such-tag"
	}
	switch rng.IntN(6) {
	case 0:
		return "credentials.any(c, c.type == 'CREDENTIAL_TYPE_WEBAUTHN_AUTHENTICATOR')"
	case 1:
		return "credentials.any(c, c.type == 'CREDENTIAL_TYPE_API_KEY_P256')"
	case 2:
		return "credentials.filter(c, c.type == 'CREDENTIAL_TYPE_WEBAUTHN_AUTHENTICATOR').count() >= 1 && approvers.count() >= 2"
	case 3:
		return fmt.Sprintf("credentials.any(c, c.type == 'CREDENTIAL_TYPE_API_KEY_ED25519') && approvers.any(user, user.tags.contains('%s'))", tag)
	case 4:
		return "credentials.all(c, c.type != 'CREDENTIAL_TYPE_WEBAUTHN_AUTHENTICATOR')"
	}
	return fmt.Sprintf("approvers.filter(user, user.tags.contains('%s')).count() >= 1 && credentials.count() >= 2", tag)
}
