package cli

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/server"
)

// A script may vote with 'vigil activity approve|reject' or with 'vigil
// request' and a vote body; run again on the same state (most often a
// retry after a lost reply), both must give the same answer: the same exit
// status, and the same facts on standard output (the activity, its status)
// and standard error. Each state is set up twice, once for each verb, on
// activities of its own, against the local service.
func TestVoteVerbsAgreeOnEveryState(t *testing.T) {
	var off atomic.Int64 // the service's clock, moved back to set up an earlier round
	now := func() time.Time { return time.Now().Add(time.Duration(off.Load())) }
	e := newVerbEnvWith(t, server.Config{Now: now})
	ctx := context.Background()
	alice := e.demo.ClientAt(e.demo.URL, "alice", api.WithClock(now))
	bob := e.demo.ClientAt(e.demo.URL, "bob", api.WithClock(now))
	carol := e.demo.ClientAt(e.demo.URL, "carol", api.WithClock(now))
	env := map[string]string{"VIGIL_CONFIG": e.config}
	path := map[bool]string{true: "/public/v1/submit/approve_activity", false: "/public/v1/submit/reject_activity"}
	typ := map[bool]string{true: api.TypeApproveActivity, false: api.TypeRejectActivity}

	// bobSends has bob send body, a vote, with 'vigil request' and returns
	// what it printed.
	bobSends := func(approve bool, body string) (int, string, string) {
		return runVigil(t, env, body, "request", "--profile", "bob", "--path", path[approve], "--body-file", "-")
	}
	fingerprint := func(id string) string {
		a, err := alice.GetActivity(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		return a.Fingerprint
	}
	// failing is an invitation that waits for bob's vote and, approved,
	// runs and FAILS: its sender is no user (the client does not look).
	failing := func() string {
		a, err := alice.CreateInvitations(ctx, api.CreateInvitationsParams{Invitations: []api.Invitation{{
			ReceiverUserName: "eve", ReceiverUserEmail: "eve@example.com", ReceiverUserTags: []string{},
			AccessType: api.AccessTypeWeb, SenderUserID: "bogusQ"}}})
		if err != nil || a.Status != api.StatusConsensusNeeded {
			t.Fatalf("invite: %+v %v", a, err)
		}
		return a.ID
	}
	tag := func() string {
		a, err := alice.CreateUserTag(ctx, api.CreateUserTagParams{UserTagName: "agree", UserIDs: []string{}})
		if err != nil || a.Status != api.StatusConsensusNeeded {
			t.Fatalf("tag: %+v %v", a, err)
		}
		return a.ID
	}
	// bobVoted has bob cast his vote on id with 'vigil request' (as a
	// script would, its reply then lost) and returns the body sent.
	bobVoted := func(id string, approve bool) string {
		body := voteBodyOfType(e, typ[approve], fingerprint(id))
		bobSends(approve, body)
		if a, err := alice.GetActivity(ctx, id); err != nil || a.VoteOf(e.userID("bob")) == nil {
			t.Fatalf("set-up: bob's vote on %s is not recorded: %v", id, err)
		}
		return body
	}

	for _, tc := range []struct {
		name    string
		approve bool
		// state sets up an activity and returns its id and, for a resend,
		// the body bob sent ("": 'request' sends a new body).
		state      func() (id, body string)
		code       int
		status     string   // the activity's status, on standard output ("" when refused: none printed)
		errSays    []string // said on standard error, by both verbs
		errNotSays []string
	}{
		{"approval ran and FAILED, sent again", true, func() (string, string) {
			id := failing()
			return id, bobVoted(id, true)
		}, exitFailure, api.StatusFailed, []string{"you already approved", "ran and FAILED", "is not a user of this organization"}, nil},
		{"approval ran and FAILED, a new body", true, func() (string, string) {
			id := failing()
			bobVoted(id, true)
			return id, ""
		}, exitFailure, api.StatusFailed, []string{"you already approved", "ran and FAILED", "is not a user of this organization"}, nil},
		{"the approval that runs it and it FAILS", true, func() (string, string) {
			return failing(), ""
		}, exitFailure, api.StatusFailed, []string{"ran and FAILED", "is not a user of this organization"}, []string{"already"}},
		{"approval COMPLETED, sent again", true, func() (string, string) {
			id := tag()
			return id, bobVoted(id, true)
		}, exitOK, api.StatusCompleted, []string{"you already approved"}, []string{"FAILED"}},
		{"rejection, REJECTED, sent again", false, func() (string, string) {
			id := tag()
			if _, err := carol.RejectActivity(ctx, fingerprint(id)); err != nil {
				t.Fatal(err)
			}
			return id, bobVoted(id, false)
		}, exitOK, api.StatusRejected, []string{"you already rejected"}, nil},
		{"approval after his rejection, REJECTED", true, func() (string, string) {
			id := tag()
			if _, err := carol.RejectActivity(ctx, fingerprint(id)); err != nil {
				t.Fatal(err)
			}
			bobVoted(id, false)
			return id, ""
		}, exitFailure, "", []string{"you already rejected", "a vote cannot be changed"}, nil},
		{"rejection, still CONSENSUS_NEEDED, sent again", false, func() (string, string) {
			id := tag()
			return id, bobVoted(id, false)
		}, exitOK, api.StatusConsensusNeeded, []string{"you already rejected"}, nil},
		{"rejection in an earlier round", false, func() (string, string) {
			off.Store(int64(-25 * time.Hour))
			defer off.Store(0)
			id := tag()
			if _, err := bob.RejectActivity(ctx, fingerprint(id)); err != nil {
				t.Fatal(err)
			}
			return id, ""
		}, exitOK, api.StatusConsensusNeeded, nil, []string{"already"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			verb := map[bool]string{true: "approve", false: "reject"}[tc.approve]
			type ran struct {
				code        int
				out, errOut string
			}
			var got [2]ran
			var ids [2]string
			for i := range got {
				id, body := tc.state()
				ids[i] = id
				if i == 0 {
					got[i].code, got[i].out, got[i].errOut = e.run("", "activity", verb, "--yes", "--profile", "bob", id)
					continue
				}
				if body == "" {
					body = voteBodyOfType(e, typ[tc.approve], fingerprint(id))
				}
				got[i].code, got[i].out, got[i].errOut = bobSends(tc.approve, body)
			}
			for i, name := range []string{"activity " + verb, "request"} {
				g := got[i]
				a, err := alice.GetActivity(ctx, ids[i])
				if err != nil || (tc.status != "" && a.Status != tc.status) {
					t.Fatalf("%s: set-up: want the activity %s: %v %+v", name, tc.status, err, a)
				}
				if g.code != tc.code {
					t.Errorf("%s exited %d, want %d (as both verbs must)\nstdout:\n%s\nstderr:\n%s", name, g.code, tc.code, g.out, g.errOut)
				}
				switch {
				case tc.status == "" && g.out != "":
					t.Errorf("%s refused, yet printed:\n%s", name, g.out)
				case tc.status != "" && (!strings.Contains(g.out, ids[i]) || !strings.Contains(g.out, tc.status)):
					t.Errorf("%s: standard output does not show activity %s, %s:\n%s", name, ids[i], tc.status, g.out)
				}
				for _, want := range tc.errSays {
					if !strings.Contains(g.errOut, want) {
						t.Errorf("%s: standard error does not say %q:\n%s", name, want, g.errOut)
					}
				}
				for _, not := range tc.errNotSays {
					if strings.Contains(g.errOut, not) {
						t.Errorf("%s: standard error says %q:\n%s", name, not, g.errOut)
					}
				}
			}
		})
	}
}
