package screens

import (
	"strings"
	"testing"
	"time"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/keys"
)

// credentialReadingDeletionOrg: root u-root (threshold 1) and bob; an allow policy on
// delete_api_keys whose consensus reads which credential approved; the
// console's own key is not among u-root's keys as last loaded.
func credentialReadingDeletionOrg(t *testing.T) *Common {
	t.Helper()
	now := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	users := []api.User{
		{UserID: "u-root", UserName: "root", APIKeys: []api.APIKey{{APIKeyID: "k-root", APIKeyName: "root key",
			Credential: api.Credential{PublicKey: "02" + strings.Repeat("11", 32), Type: keys.CredentialAPIKeyP256}}}},
		{UserID: "u-bob", UserName: "bob", APIKeys: []api.APIKey{{APIKeyID: "k-bob", APIKeyName: "ci",
			Credential: api.Credential{PublicKey: "02" + strings.Repeat("22", 32), Type: keys.CredentialAPIKeyP256}}}},
	}
	records := []api.Policy{{PolicyID: "p1", PolicyName: "p256 deletes", Effect: api.EffectAllow,
		Condition: "activity.type == 'ACTIVITY_TYPE_DELETE_API_KEYS'",
		Consensus: "credentials.exists(c, c.type == 'CREDENTIAL_TYPE_API_KEY_P256')"}}
	c := &Common{Now: func() time.Time { return now }}
	c.OwnPublicKey = "02" + strings.Repeat("33", 32) // not among root's keys as last loaded
	c.Org.UserID = "u-root"
	c.Org.Users = users
	c.Org.Loaded = true
	c.Org.Eval = newEvaluationContext(nil, users, api.OrganizationConfigs{Quorum: api.Quorum{Threshold: 1, UserIDs: []string{"u-root"}}}, records)
	return c
}

// The delete-keys confirm must not tell the user "the keys are not deleted"
// when the console cannot tell what the submission does.
func TestKeyDeletionConfirmCannotTellIsNotCalledNotDeleted(t *testing.T) {
	c := credentialReadingDeletionOrg(t)
	u := &Users{c: c}
	lines := strings.Join(u.deletionOutcome("u-bob", []string{"k-bob"}), "\n")
	if !strings.Contains(lines, "cannot tell") {
		t.Fatalf("set-up: the console should not be able to tell (its key is unknown and the policy reads credentials): %q", lines)
	}
	if strings.Contains(lines, "the keys are not deleted") {
		t.Errorf("the console cannot tell what submitting does, yet the confirm says the keys are not deleted:\n%s", lines)
	}
}

// A deletion of one user's keys naming another's key says whose it is by
// name and id: two users may share a name, and "a key of alice, not of
// alice" tells the voter nothing.
func TestKeyDeletionNamesAnotherUsersKeyWithIDs(t *testing.T) {
	c := credentialReadingDeletionOrg(t)
	c.Org.Users[1].UserName = "root" // bob renamed as the requester's namesake
	c.Org.UserNames = map[string]string{"u-root": "root", "u-bob": "root"}
	got := deletedKeyText(c, "u-root", "k-bob")
	if !strings.Contains(got, "u-bob") || !strings.Contains(got, "u-root") {
		t.Errorf("another user's key in a deletion does not name both users by id: %q", got)
	}
}
