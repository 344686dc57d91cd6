package policy

import (
	"errors"
	"testing"
	"time"

	"github.com/vigil-console/vigil/api"
)

// A vote record names only the public key and scheme of its stamp: the
// console's input finds the credential behind it among the voter's
// registered ones, so policies see the key's id and registered type (an OAuth
// key stamps as P-256 like an API key) and a passkey's credential id.
func TestInputOfActivityNamesTheCredentialThatVoted(t *testing.T) {
	users := []api.User{
		{UserID: "u-1", UserName: "carol", APIKeys: []api.APIKey{
			{APIKeyID: "key-api", Credential: api.Credential{PublicKey: "02aa", Type: api.CredentialAPIKeyP256}},
			{APIKeyID: "key-oauth", Credential: api.Credential{PublicKey: "02bb", Type: api.CredentialOauthKeyP256}},
		}},
		{UserID: "u-2", UserName: "pat", Authenticators: []api.Authenticator{
			{AuthenticatorID: "auth-1", CredentialID: "Y3JlZC0x", Credential: api.Credential{PublicKey: "04cc", Type: api.CredentialWebAuthnAuthenticator}},
		}},
	}
	votes := []api.Vote{
		{ID: "v-1", UserID: "u-1", Selection: api.VoteApproved, PublicKey: "02BB", Scheme: api.SchemeP256},
		{ID: "v-2", UserID: "u-2", Selection: api.VoteApproved, PublicKey: "04cc", Scheme: api.SchemeWebAuthn},
		// Cast with a key deleted since: no id, the type its scheme implies.
		{ID: "v-3", UserID: "u-1", Selection: api.VoteApproved, PublicKey: "02dd", Scheme: api.SchemeP256},
	}
	a := api.Activity{Type: api.TypeCreateReadOnlySession, Votes: votes, CreatedAt: api.NewTime(time.Unix(1, 0))}
	in := InputOfActivity(a, Members(users, api.OrganizationConfigs{}), time.Time{})
	want := []Credential{
		{ID: "key-oauth", Type: api.CredentialOauthKeyP256, PublicKey: "02BB", UserID: "u-1"},
		{ID: "auth-1", Type: api.CredentialWebAuthnAuthenticator, PublicKey: "04cc", UserID: "u-2", CredentialID: "Y3JlZC0x"},
		{Type: api.CredentialAPIKeyP256, PublicKey: "02dd", UserID: "u-1"},
	}
	if len(in.Credentials) != len(want) {
		t.Fatalf("credentials %+v, want %+v", in.Credentials, want)
	}
	for i := range want {
		if in.Credentials[i] != want[i] {
			t.Errorf("vote %s: credential %+v, want %+v", votes[i].ID, in.Credentials[i], want[i])
		}
	}

	// What a policy reads of them.
	deny, err := Compile("true", "credentials.any(c, c.id == 'key-oauth' && c.type == 'CREDENTIAL_TYPE_OAUTH_KEY_P256')")
	if err != nil {
		t.Fatal(err)
	}
	d := Decide([]Policy{{ID: "no-oauth", Effect: api.EffectDeny, Compiled: deny}}, in, Quorum{Threshold: 1}, false)
	if d.Outcome != api.OutcomeDenyExplicit {
		t.Errorf("outcome %s (%s), want the DENY on the OAuth key to win", d.Outcome, d.Reason)
	}
}

// The console cannot know the credential of an approval cast with a key
// deleted since: a prediction is in doubt when a policy reads which
// credential approved, and only then.
func TestDoubtOfVotesWithADeletedKey(t *testing.T) {
	users := []api.User{{UserID: "u-1", UserName: "carol", APIKeys: []api.APIKey{
		{APIKeyID: "key-api", Credential: api.Credential{PublicKey: "02aa", Type: api.CredentialAPIKeyP256}}}}}
	members := Members(users, api.OrganizationConfigs{})
	kept := api.Vote{ID: "v-1", UserID: "u-1", Selection: api.VoteApproved, PublicKey: "02aa", Scheme: api.SchemeP256}
	deleted := api.Vote{ID: "v-2", UserID: "u-1", Selection: api.VoteApproved, PublicKey: "02dd", Scheme: api.SchemeP256}
	rejected := api.Vote{ID: "v-3", UserID: "u-1", Selection: api.VoteRejected, PublicKey: "02ee", Scheme: api.SchemeP256}
	byID := mustPolicy(t, "by-id", api.EffectDeny, "", "credentials.any(c, c.id == 'key-api')")
	byType := mustPolicy(t, "by-type", api.EffectAllow, "", "credentials.all(c, c.type == 'CREDENTIAL_TYPE_API_KEY_P256')")
	byKey := mustPolicy(t, "by-public-key", api.EffectAllow, "", "credentials.any(c, c.public_key == '02dd')")
	byTag := mustPolicy(t, "by-tag", api.EffectAllow, "", "approvers.any(u, u.id == 'u-1')")
	tests := []struct {
		name     string
		policies []Policy
		votes    []api.Vote
		want     bool
	}{
		{"id read, key deleted", []Policy{byTag, byID}, []api.Vote{kept, deleted}, true},
		{"type read, key deleted", []Policy{byType}, []api.Vote{deleted}, true},
		{"id read, keys kept", []Policy{byID}, []api.Vote{kept}, false},
		{"a rejection does not count", []Policy{byID}, []api.Vote{kept, rejected}, false},
		{"only the public key read, which the vote names", []Policy{byKey}, []api.Vote{deleted}, false},
		{"credentials not read", []Policy{byTag}, []api.Vote{deleted}, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d := DoubtOfVotes(tc.policies, tc.votes, members)
			if d.Uncertain() != tc.want {
				t.Fatalf("Uncertain() = %v, want %v (%+v)", d.Uncertain(), tc.want, d)
			}
			if tc.want && (len(d.Lost) != 1 || d.Lost[0].ID != deleted.ID) {
				t.Fatalf("lost credentials %+v, want vote %s's", d.Lost, deleted.ID)
			}
		})
	}
}

// An evaluation's vote that the record no longer holds is an error, never a
// decision on every vote left, whatever the times say: a copy's age or a
// clock that stepped back makes times prove nothing.
func TestInputUpToVoteOfVoteNotReturnedIsAnError(t *testing.T) {
	cast := time.Date(2026, 1, 2, 12, 0, 0, 0, time.UTC)
	a := api.Activity{Status: api.StatusConsensusNeeded,
		Votes: []api.Vote{{ID: "v-2", UserID: "u-bob", Selection: api.VoteApproved, CreatedAt: api.NewTime(cast)}}}
	for _, c := range []struct {
		a    api.Activity
		vote string
		at   time.Time
	}{{a, "v-1", cast.Add(-25 * time.Hour)}, {a, "v-3", cast.Add(time.Minute)},
		{api.Activity{Status: api.StatusConsensusNeeded}, "v-1", cast}, {api.Activity{Status: api.StatusCompleted}, "v-1", cast}} {
		if _, err := InputUpToVote(c.a, nil, c.vote, c.at); !errors.Is(err, ErrVoteNotReturned) {
			t.Errorf("vote %s missing from a %s copy with %d votes gave %v, want ErrVoteNotReturned", c.vote, c.a.Status, len(c.a.Votes), err)
		}
	}
	in, err := InputUpToVote(a, map[string]Approver{"u-bob": {ID: "u-bob", Name: "bob"}}, "v-2", time.Time{})
	if err != nil || len(in.Approvers) != 1 {
		t.Errorf("the vote in the record gave %d approvers, %v", len(in.Approvers), err)
	}
}

// The service lets a user hold the same 33 bytes as a secp256k1 and as a
// P-256 key (two keys: a compressed P-256 key may be a secp256k1 point
// too), and records with a vote the one of its stamp's curve. The console
// names that one too, whichever of the two is listed first: a policy that
// reads the credential's type or id sees what the service sees.
func TestVoteCredentialIsTheKeyOfTheStampsCurve(t *testing.T) {
	const bytes = "02b1cf3a6e0c0bb5e01f4e1e7a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e"
	users := []api.User{{UserID: "u-1", UserName: "carol", APIKeys: []api.APIKey{
		{APIKeyID: "key-k1", Credential: api.Credential{PublicKey: bytes, Type: api.CredentialAPIKeySecp256k1}},
		{APIKeyID: "key-p256", Credential: api.Credential{PublicKey: bytes, Type: api.CredentialAPIKeyP256}},
	}}}
	members := Members(users, api.OrganizationConfigs{})
	for _, c := range []struct {
		scheme, wantID, wantType string
	}{
		{api.SchemeP256, "key-p256", api.CredentialAPIKeyP256},
		{api.SchemeSecp256k1, "key-k1", api.CredentialAPIKeySecp256k1},
	} {
		got := VoteCredential(api.Vote{UserID: "u-1", Selection: api.VoteApproved, PublicKey: bytes, Scheme: c.scheme}, members)
		if got.ID != c.wantID || got.Type != c.wantType {
			t.Errorf("a vote stamped with %s: credential %s (%s), want %s (%s)", c.scheme, got.ID, got.Type, c.wantID, c.wantType)
		}
	}
}
