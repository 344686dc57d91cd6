package api_test

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/server/servertest"
)

// Private keys as they get pasted: 64 hex digits, an Ed25519 key in
// base64url, a PKCS#8 PEM. Throwaway keys, made for this test.
const (
	pastedHexKey = "7fd4d14adaee3004c7864d901064f664be6e8be00ad206476763ac4187fe6bc5"
	pastedB64Key = "iH7KPILnGmjk-MDF6Y9MfU_HqvsMYkDUUDItviZQTo0"
	pastedPEMKey = `-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgFxHfExcKkshV5nrx
HovPrz7xBKkv3Q8dyII9pTzGLjuhRANCAAQgtwJZXU2Q3mVUSvaiQxYcaQasxES1
66grSurViv0d0+0LCtW/wirTg2kp1sAtn7+SisfmN1ok/B5w8lRBdSC6
-----END PRIVATE KEY-----`
)

var pastedKeys = map[string]string{"64 hex digits": pastedHexKey, "base64url": pastedB64Key, "PEM": pastedPEMKey}

// wantSecretRefused checks err is the refusal of a key in field, before
// anything was sent, and that it does not show the key.
func wantSecretRefused(t *testing.T, what string, err error, field, key string) {
	t.Helper()
	var ve *api.ValidationError
	if !errors.As(err, &ve) || ve.Field != field || !errors.Is(err, api.ErrNotSent) {
		t.Errorf("%s: err = %v; want a *ValidationError of %s, not sent", what, err, field)
		return
	}
	if !strings.Contains(err.Error(), "look like a private key") || !strings.Contains(err.Error(), "nothing was sent") {
		t.Errorf("%s: %q does not say a private key was refused and nothing was sent", what, err)
	}
	for _, line := range strings.Split(key, "\n") {
		if len(line) > 20 && strings.Contains(err.Error(), line) {
			t.Errorf("%s: the error shows the key: %q", what, err)
		}
	}
}

// A private key pasted into a name or notes would be recorded in the
// activity, shown to every member, kept for good: every submit, typed or
// raw, refuses it before sending anything.
func TestSubmitRefusesPrivateKeyInFreeText(t *testing.T) {
	demo := servertest.StartDemo(t)
	var mu sync.Mutex
	var submits []string
	url := demo.Watching(func(op string, _ http.Header, body []byte) {
		if strings.HasPrefix(op, "submit/") {
			mu.Lock()
			submits = append(submits, op)
			mu.Unlock()
		}
	})
	client := demo.ClientAt(url, "alice")
	ctx := context.Background()
	userID := demo.Info.Members[0].UserID
	for kind, key := range pastedKeys {
		_, err := client.CreateUserTag(ctx, api.CreateUserTagParams{UserTagName: key, UserIDs: []string{}})
		wantSecretRefused(t, kind+" as a tag name", err, "userTagName", key)
		_, err = client.CreatePolicy(ctx, api.CreatePolicyParams{PolicyName: "p", Effect: api.EffectAllow, Notes: "the key: " + key})
		wantSecretRefused(t, kind+" in policy notes", err, "notes", key)
		_, err = client.CreatePolicy(ctx, api.CreatePolicyParams{PolicyName: key, Effect: api.EffectAllow})
		wantSecretRefused(t, kind+" as a policy name", err, "policyName", key)
		_, err = client.CreateInvitations(ctx, api.CreateInvitationsParams{Invitations: []api.Invitation{
			{ReceiverUserName: "dave", ReceiverUserEmail: "dave@example.com", ReceiverUserTags: []string{}, AccessType: api.AccessTypeWeb, SenderUserID: userID},
			{ReceiverUserName: key, ReceiverUserEmail: "erin@example.com", ReceiverUserTags: []string{}, AccessType: api.AccessTypeWeb, SenderUserID: userID}}})
		wantSecretRefused(t, kind+" as an invitee's name", err, "invitations[1].receiverUserName", key)
		_, err = client.CreateMfaPolicy(ctx, api.CreateMfaPolicyParams{UserID: userID, MfaPolicyName: key, Condition: "true", Order: 1,
			RequiredAuthenticationMethods: []api.AuthenticationStep{{Any: []api.AuthenticationMethod{{Type: "AUTHENTICATION_TYPE_API_KEY"}}}}})
		wantSecretRefused(t, kind+" as an MFA policy name", err, "mfaPolicyName", key)
		_, err = client.CreateSmartContractInterface(ctx, api.CreateSmartContractInterfaceParams{SmartContractAddress: "0xabc",
			SmartContractInterface: "[]", Type: api.SmartContractInterfaceTypes()[0], Label: key})
		wantSecretRefused(t, kind+" as a contract label", err, "label", key)
		_, _, err = client.SubmitRaw(ctx, "create_user_tag", &api.CreateUserTagParams{UserTagName: key, UserIDs: []string{}})
		wantSecretRefused(t, kind+" as a tag name, raw", err, "userTagName", key)
	}
	// A body given as it is: a later repeat of the key does not hide the
	// first, nor protobuf JSON's snake_case spelling.
	for what, body := range map[string]string{
		"repeated key": `{"type":"ACTIVITY_TYPE_CREATE_USER_TAG","parameters":{"userTagName":"` + pastedHexKey + `","userTagName":"t","userIds":[]}}`,
		"snake_case":   `{"type":"ACTIVITY_TYPE_CREATE_POLICY_V3","parameters":{"policy_name":"` + pastedB64Key + `","effect":"EFFECT_ALLOW"}}`,
	} {
		_, err := client.Send(ctx, api.SubmitPrefix+"create_user_tag", []byte(body))
		var ve *api.ValidationError
		if !errors.As(err, &ve) || !errors.Is(err, api.ErrNotSent) || !strings.HasPrefix(ve.Field, "parameters.") {
			t.Errorf("Send with a key in a name (%s): err = %v; want it refused, not sent", what, err)
		}
	}
	mu.Lock()
	if len(submits) != 0 {
		t.Errorf("submits reached the service: %v", submits)
	}
	mu.Unlock()

	// Where 64 hex digits are ordinary (an id, a condition), they are sent.
	if _, err := client.DeleteTvcDeployment(ctx, api.DeleteTvcDeploymentParams{DeploymentID: pastedHexKey}); errors.Is(err, api.ErrNotSent) {
		t.Errorf("a deployment id of 64 hex digits was not sent: %v", err)
	}
	if _, err := client.CreatePolicy(ctx, api.CreatePolicyParams{PolicyName: "p", Effect: api.EffectDeny,
		Condition: "activity.type == '" + pastedHexKey + "'", Notes: "a condition may hold 64 hex digits"}); err != nil {
		t.Errorf("a policy whose condition holds 64 hex digits: %v", err)
	}
	mu.Lock()
	if len(submits) != 2 {
		t.Errorf("submits sent: %v; want the deployment's and the policy's", submits)
	}
	mu.Unlock()
}
