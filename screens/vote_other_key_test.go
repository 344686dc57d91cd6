package screens

import (
	"slices"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/keys"
)

// The console user requested the activity (or voted) with another of her
// credentials than the console's key (her passkey, her CI key): the service
// offers her no vote because she voted. The vote block no longer says "you
// already approved it" (the key did not sign it), but what it says instead
// must not be false: neither "you are not one of its voters" nor "press r
// to refresh" (refreshing never brings a vote back); the CLI says in this
// case that the vote shown by whoami's user was not signed with the key.
func TestVoteBlockOtherKeyVoteIsNotNotAVoter(t *testing.T) {
	h := newHarness(t, &fakeClient{activities: sampleActivities()}, false, 0)
	c := h.root.common
	c.OwnPublicKey = "02c0ffee"
	if c.Org.UserID == "" {
		t.Fatal("set-up: the organization did not load")
	}
	act := sampleActivities()[0]
	act.Votes = append(append([]api.Vote(nil), act.Votes...), api.Vote{ID: "v-x", UserID: c.Org.UserID, Selection: api.VoteApproved,
		PublicKey: "02beef", Scheme: "SIGNATURE_SCHEME_WEBAUTHN", CreatedAt: api.NewTime(testNow)})
	act.CanApprove, act.CanReject = false, false
	text := cannotVoteText(c, &act, "approve")
	for _, bad := range []string{"not one of its voters", "press r to refresh", "does not offer you a vote on it (the organization is not loaded"} {
		if strings.Contains(text, bad) {
			t.Errorf("in root quorum %v; the activity shows the user's approval with another credential; the vote block says %q", slices.Contains(c.Org.Quorum.UserIDs, c.Org.UserID), text)
		}
	}
	// Not in the root quorum: the same vote, told as "not one of its voters".
	c.Org.Quorum.UserIDs = slices.DeleteFunc(slices.Clone(c.Org.Quorum.UserIDs), func(id string) bool { return id == c.Org.UserID })
	text = cannotVoteText(c, &act, "approve")
	if strings.Contains(text, "not one of its voters") {
		t.Errorf("a member outside the root quorum who requested/voted with another credential is told %q", text)
	}
}

// The vote dialog's "votes:" line tells a vote by whoami's user as "you
// approved" although the console's key did not sign it: the very case the
// vote block and the vote outcome no longer tell as the console's (a cache
// answering every member's whoami with the requester's, whose request is
// her approval). The dialog then asks "Approve this activity?" under
// "votes: you approved".
func TestVoteDialogVotesLineFollowsTheKey(t *testing.T) {
	h := newHarness(t, &fakeClient{activities: sampleActivities()}, false, 0)
	c := h.root.common
	c.OwnPublicKey = "02c0ffee"
	act := sampleActivities()[0]
	act.Votes = []api.Vote{{ID: "v-x", UserID: c.Org.UserID, Selection: api.VoteApproved,
		PublicKey: "02beef", Scheme: "SIGNATURE_SCHEME_TK_API_P256", CreatedAt: api.NewTime(testNow)}}
	if got := votesByName(c, &act); strings.HasPrefix(got, "you approved") {
		t.Errorf("a vote the console's key did not sign is shown in the vote dialog as the console's: %q", got)
	}
	// The prediction would add this vote as whoami's user, who already has
	// one the key did not sign: it cannot tell, so it says nothing.
	if then := voteConsequenceAt(c, &act, true, testNow); then != "" {
		t.Errorf("the vote dialog predicts %q for a vote whose user is not known", then)
	}
}

// An earlier service let one key be two members' credential, and the
// counted round holds another member's vote cast with the very key this
// console signs with (as a passkey, in upper case): the service refuses this
// vote (KEY_ALREADY_VOTED), so the dialog must not predict that it counts.
func TestVotePredictionSaysTheServiceRefusesAKeyThatVotedAsAnother(t *testing.T) {
	h := newHarness(t, &fakeClient{activities: sampleActivities()}, false, 0)
	c := h.root.common
	k, err := keys.Generate(keys.SchemeP256)
	if err != nil {
		t.Fatal(err)
	}
	c.OwnPublicKey = k.PublicKeyHex()
	act := sampleActivities()[0]
	other := ""
	for _, id := range c.Org.Quorum.UserIDs {
		if id != c.Org.UserID {
			other = id
		}
	}
	if other == "" || c.Org.UserID == "" {
		t.Fatal("set-up: no other root member, or the organization did not load")
	}
	act.Votes = []api.Vote{{ID: "v-o", UserID: other, Selection: api.VoteApproved,
		PublicKey: strings.ToUpper(k.PublicKeyHex()), Scheme: api.SchemeWebAuthn, CreatedAt: api.NewTime(testNow)}}
	for _, approve := range []bool{true, false} {
		if then := voteConsequenceAt(c, &act, approve, testNow); !strings.Contains(then, "REFUSES") || !strings.Contains(then, "KEY_ALREADY_VOTED") {
			t.Errorf("approve %v: the dialog predicts %q for a vote the service refuses", approve, then)
		}
	}
}
