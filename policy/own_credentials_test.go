package policy

import (
	"strings"
	"testing"
	"time"

	"github.com/vigil-console/vigil/api"
)

// The simulator and the explanations agree with the service on the real
// service's implicit permission to change one's own credentials: a draft deny
// on key deletions takes it away (a lock-out), and the requester must be the
// user whose credentials change.
func TestOwnCredentialChangeInSimulations(t *testing.T) {
	dave := Approver{ID: "u-dave", Name: "dave"}
	erin := Approver{ID: "u-erin", Name: "erin"}
	members := map[string]Approver{dave.ID: dave, erin.ID: erin}
	quorum := Quorum{Threshold: 2, UserIDs: []string{"r1", "r2"}}
	deletion := func(requester, owner Approver) Input {
		params := api.DeleteAPIKeysParams{UserID: owner.ID, APIKeyIDs: []string{"k-1"}}
		ballots := []Ballot{{Vote: api.Vote{UserID: requester.ID, Selection: api.VoteApproved}}}
		in := InputFor(api.TypeDeleteAPIKeys, params, ballots, members, time.Time{})
		in.Requester = requester.ID
		return in
	}

	own := Decide(nil, deletion(dave, dave), quorum, false)
	if own.Outcome != api.OutcomeAllow || !own.OwnCredential {
		t.Fatalf("dave deleting his own key, no policy: %s (%s), want ALLOW by the own-credentials permission", own.Outcome, own.Reason)
	}
	if why := Explain(own).Why; !strings.Contains(why, "own credentials") {
		t.Errorf("explanation %q does not say why it is allowed", why)
	}
	if d := Decide(nil, deletion(dave, erin), quorum, false); d.Outcome != api.OutcomeDenyImplicit {
		t.Errorf("dave deleting erin's key, no policy: %s, want DENY_IMPLICIT", d.Outcome)
	}

	deny := mustPolicy(t, "no-deletions", api.EffectDeny, "activity.action == 'DELETE'", "")
	sim := Simulate(nil, deny, deletion(dave, dave), quorum, false)
	if sim.WithDraft.Outcome != api.OutcomeDenyExplicit || !sim.LocksOut {
		t.Errorf("a deny on deletions: with draft %s, locks out %v; want DENY_EXPLICIT and a lock-out of what is allowed today", sim.WithDraft.Outcome, sim.LocksOut)
	}
}

// Decider feeds `vigil policy simulate`'s decidedBy and the console editor's
// decider column: an activity allowed only by the own-credentials permission
// was approved by no root member, so it must not be credited to the root
// quorum, with or without policies that do not apply.
func TestDeciderNamesTheOwnCredentialsPermission(t *testing.T) {
	dave := Approver{ID: "u-dave", Name: "dave"}
	members := map[string]Approver{dave.ID: dave}
	quorum := Quorum{Threshold: 2, UserIDs: []string{"r1", "r2"}}
	params := api.DeleteAPIKeysParams{UserID: dave.ID, APIKeyIDs: []string{"k-1"}}
	in := InputFor(api.TypeDeleteAPIKeys, params, []Ballot{{Vote: api.Vote{UserID: dave.ID, Selection: api.VoteApproved}}}, members, time.Time{})
	in.Requester = dave.ID
	unrelated := mustPolicy(t, "wallets", api.EffectAllow, "activity.resource == 'WALLET'", "")
	for _, pols := range [][]Policy{nil, {unrelated}} {
		d := Decide(pols, in, quorum, false)
		if !d.OwnCredential {
			t.Fatalf("not an own-credential allow: %+v", d)
		}
		if got := Decider(d); strings.Contains(got, "root quorum") || !strings.Contains(got, "own-credentials") {
			t.Errorf("with %d policies: Decider says %q for an activity allowed by the own-credentials permission alone", len(pols), got)
		}
	}
}

// The console's simulator sees only the last round's votes: it must not take
// a later round's first voter for the requester (the service would not), and
// a root member's deletion of their last key is left to the root quorum, as
// the service leaves it.
func TestOwnCredentialPredictionFromActivityRecords(t *testing.T) {
	created := time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)
	users := []api.User{
		{UserID: "u-alice", UserName: "alice", APIKeys: []api.APIKey{{APIKeyID: "k-a"}}},
		{UserID: "u-carol", UserName: "carol", APIKeys: []api.APIKey{{APIKeyID: "k-c1"}, {APIKeyID: "k-c2"}}},
		{UserID: "u-dave", UserName: "dave", APIKeys: []api.APIKey{{APIKeyID: "k-d"}}},
	}
	quorum := api.Quorum{Threshold: 2, UserIDs: []string{"u-alice", "u-carol"}}
	members := Members(users, api.OrganizationConfigs{Quorum: quorum})
	record := func(owner string, keys []string, voter string, cast time.Time) api.Activity {
		return api.Activity{Type: api.TypeDeleteAPIKeys, CreatedAt: api.NewTime(created),
			Intent: api.Intent{DeleteAPIKeysIntent: &api.DeleteAPIKeysParams{UserID: owner, APIKeyIDs: keys}},
			Votes:  []api.Vote{{UserID: voter, Selection: api.VoteApproved, CreatedAt: api.NewTime(cast)}}}
	}
	decide := func(a api.Activity) Decision {
		return Decide(nil, InputOfActivity(a, members, time.Time{}), QuorumOf(quorum), false)
	}

	if d := decide(record("u-dave", []string{"k-d"}, "u-dave", created)); !d.OwnCredential {
		t.Errorf("dave's own deletion, submitted by him: %s (%s), want the own-credentials ALLOW", d.Outcome, d.Reason)
	}
	later := decide(record("u-dave", []string{"k-d"}, "u-dave", created.Add(api.ApprovalLifetime+time.Hour)))
	if later.OwnCredential || later.Outcome == api.OutcomeAllow {
		t.Errorf("dave's approval in a later round of a request whose submitter the record does not show: %s, want no own-credentials ALLOW", later.Outcome)
	}
	if !strings.Contains(later.Reason, "who submitted") {
		t.Errorf("reason %q does not say why the own-credentials permission was not counted", later.Reason)
	}

	if d := decide(record("u-carol", []string{"k-c1"}, "u-carol", created)); !d.OwnCredential {
		t.Errorf("root member carol deleting one of her two keys: %s (%s), want the own-credentials ALLOW", d.Outcome, d.Reason)
	}
	all := decide(record("u-carol", []string{"k-c1", "k-c2"}, "u-carol", created))
	if all.OwnCredential || all.Outcome != api.OutcomeRequiresConsensus {
		t.Errorf("root member carol deleting both her keys: %s (%s), want REQUIRES_CONSENSUS (the root quorum decides)", all.Outcome, all.Reason)
	}
	if !strings.Contains(all.Reason, "root quorum member with no credential") {
		t.Errorf("reason %q does not say why the own-credentials permission does not apply", all.Reason)
	}
}
