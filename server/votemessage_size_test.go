package server

import (
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/webhook"
)

// The largest request the service accepts, made of the characters its
// encoding lengthens most (U+2028, 3 bytes sent, \u2028 in JSON, in the
// intent and again in a vote's message), left waiting for votes and
// submitted again, byte for byte, by a second member (whose vote is cast by
// the same body, so it is shown with it too): its webhook body stays within
// webhook.MaxBodyBytes, so a receiver reading that much gets it, and a
// client reading api.MinReplyBytes reads it, alone and in a page.
func TestPendingLargestRequestWithItsVotesMessagesIsWithinTheBounds(t *testing.T) {
	e := newEnvWith(t, envOptions{threshold: 3})
	rc := newBoundedReceiver(t, e)
	alice := e.clients["alice"]
	set, err := alice.SetOrganizationFeature(ctxT(t), api.SetOrganizationFeatureParams{Name: api.FeatureWebhook, Value: rc.url})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.clients["bob"].ApproveActivity(ctxT(t), set.Fingerprint); err != nil {
		t.Fatal(err)
	}
	mustComplete(t)(e.clients["carol"].ApproveActivity(ctxT(t), set.Fingerprint))

	p := api.CreateMfaPolicyParams{UserID: "not-a-user-of-this-organization", MfaPolicyName: "m", Condition: "true", Order: 0}
	for range api.MaxListItems {
		var step api.AuthenticationStep
		for j := range 36 {
			step.Any = append(step.Any, api.AuthenticationMethod{Type: api.AuthAPIKey, ID: strings.Repeat("\u2028", 80) + string(rune('a'+j%26))})
		}
		p.RequiredAuthenticationMethods = append(p.RequiredAuthenticationMethods, step)
	}
	raw := []byte(strings.ReplaceAll(string(e.body(api.TypeCreateMfaPolicy, p, nil)), `\u2028`, "\u2028"))
	if len(raw) > api.MaxRequestBodyBytes || len(raw) < api.MaxRequestBodyBytes*9/10 {
		t.Fatalf("the request is %d bytes, not close under the %d-byte limit: adjust the test", len(raw), api.MaxRequestBodyBytes)
	}
	for _, who := range []string{"alice", "bob"} {
		r := e.post(e.submitPath("create_mfa_policy"), raw, e.keys[who])
		if r.status != 200 || r.act.Status != api.StatusConsensusNeeded {
			t.Fatalf("create_mfa_policy by %s: HTTP %d %s %+v", who, r.status, r.act.Status, r.err)
		}
	}

	roomy, err := api.NewClient(e.http.URL, e.org.ID, e.keys["alice"], api.WithMaxReplyBytes(api.MinReplyBytes))
	if err != nil {
		t.Fatal(err)
	}
	acts, err := roomy.ListActivities(ctxT(t), api.ListActivitiesOptions{Limit: 1}) // the newest
	if err != nil {
		t.Fatalf("a client reading %d bytes lists the activity: %v", api.MinReplyBytes, err)
	}
	if len(acts) != 1 || len(acts[0].Votes) != 2 {
		t.Fatalf("listed %d activities (want 1, with 2 votes): %+v", len(acts), acts)
	}
	a, err := roomy.GetActivity(ctxT(t), acts[0].ID)
	if err != nil {
		t.Fatalf("a client reading %d bytes gets the activity: %v", api.MinReplyBytes, err)
	}
	body, err := api.Marshal(a)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("request %d bytes; activity %d bytes (bound %d); messages %d and %d bytes",
		len(raw), len(body), webhook.MaxBodyBytes, len(a.Votes[0].Message), len(a.Votes[1].Message))
	if len(body) > webhook.MaxBodyBytes {
		t.Fatalf("the activity is %d bytes, over webhook.MaxBodyBytes (%d)", len(body), webhook.MaxBodyBytes)
	}
	got := rc.body(t, a.ID+":"+a.Status)
	if len(got) <= len(raw) {
		t.Fatalf("the delivered body (%d bytes) did not grow from the request (%d bytes): the test does not exercise the worst case", len(got), len(raw))
	}
}

// A message is left out only when it must be: an ordinary submission's vote
// keeps its message (the body it signed), so it stays checkable.
func TestOrdinaryVoteMessagesAreKept(t *testing.T) {
	e := newEnvWith(t, envOptions{threshold: 2})
	r := e.post(e.submitPath("create_mfa_policy"), e.body(api.TypeCreateMfaPolicy,
		api.CreateMfaPolicyParams{UserID: "not-a-user-of-this-organization", MfaPolicyName: `"quoted" \ <&>` + strings.Repeat("\u2028", 100), Condition: "true",
			RequiredAuthenticationMethods: []api.AuthenticationStep{{Any: []api.AuthenticationMethod{{Type: api.AuthAPIKey, ID: "k"}}}}}, nil), e.keys["alice"])
	if r.status != 200 || r.act.Status != api.StatusConsensusNeeded {
		t.Fatalf("create_mfa_policy: HTTP %d %s %+v", r.status, r.act.Status, r.err)
	}
	a, err := e.clients["alice"].GetActivity(ctxT(t), r.act.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(a.Votes) != 1 || a.Votes[0].Message == "" {
		t.Fatalf("the submitter's vote has no message: %+v", a.Votes)
	}
	if c := api.CheckVote(*a, a.Votes[0]); c.State != api.VoteVerified {
		t.Fatalf("the submitter's vote is %s (%s), want %s", c.State, c.Reason, api.VoteVerified)
	}
}

// encodedStringLen counts what the service's encoder writes for a message,
// so the budget of the votes' messages is never passed by a miscount.
func TestEncodedStringLenIsWhatMarshalWrites(t *testing.T) {
	var ctl strings.Builder
	for c := range 0x20 {
		ctl.WriteByte(byte(c))
	}
	for _, s := range []string{"", "plain", `"\`, ctl.String(), "<>&\u007f", "\u2028\u2029é€😀", "bad \xff\xfe utf-8 \xe2\x80", `{"a": "b\n"}` + "\n\t\r "} {
		b, err := api.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		want := len(strings.TrimSuffix(string(b), "\n"))
		if got := encodedStringLen(s); got != want {
			t.Errorf("encodedStringLen(%q) = %d; the encoder writes %d bytes (%s)", s, got, want, b)
		}
	}
}
