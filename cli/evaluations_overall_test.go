package cli

import (
	"context"
	"crypto/ecdh"
	"crypto/rand"
	"encoding/hex"
	"regexp"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
)

// 'activity evaluations' says what each approval's evaluation decided
// overall, and why, as the console does: every policy row reads
// OUTCOME_DENY_IMPLICIT for an implicit deny that failed the activity, a
// root member's deletion waiting for the root quorum and a user's own-key
// deletion that completed, so the rows alone cannot tell them apart. An
// evaluation whose overall outcome decided again disagrees with the record
// (a root member's key added since) says it is not reproducible.
func TestEvaluationsSayWhatEachApprovalDecided(t *testing.T) {
	e := newVerbEnv(t)
	ctx := context.Background()
	users, err := e.client("alice").ListUsers(ctx)
	if err != nil {
		t.Fatal(err)
	}
	keyOf := map[string]string{}
	for _, u := range users {
		if len(u.APIKeys) > 0 {
			keyOf[u.UserName] = u.APIKeys[0].APIKeyID
		}
	}
	deleteKey := func(who, owner string, want string) string {
		t.Helper()
		a, err := e.client(who).DeleteAPIKeys(ctx, api.DeleteAPIKeysParams{UserID: e.userID(owner), APIKeyIDs: []string{keyOf[owner]}})
		if err != nil {
			t.Fatalf("%s deletes %s's key: %v", who, owner, err)
		}
		if a.Status != want {
			t.Fatalf("%s deleting %s's key: want %s, got %s", who, owner, want, a.Status)
		}
		return a.ID
	}
	// reads reports whether row holds outcome in its column, then text.
	reads := func(row, outcome, text string) bool {
		return regexp.MustCompile(`  ` + regexp.QuoteMeta(outcome) + ` +` + regexp.QuoteMeta(text)).MatchString(row)
	}
	overall := func(id string) string {
		t.Helper()
		code, out, errOut := e.run("", "activity", "evaluations", id)
		wantExit(t, "evaluations", code, 0, out, errOut)
		var rows []string
		for _, l := range strings.Split(out, "\n") {
			if strings.Contains(l, "(overall) ") {
				rows = append(rows, l)
			}
		}
		if len(rows) != 1 {
			t.Fatalf("want one (overall) row for the submission's evaluation, got %d:\n%s", len(rows), out)
		}
		return rows[0]
	}
	cases := []struct{ name, id, outcome, why string }{
		{"an implicit deny", deleteKey("operator", "alice", api.StatusFailed),
			api.OutcomeDenyImplicit, "(overall) failed: no policy allows this (implicit deny)"},
		{"a root member's own deletion waiting", deleteKey("bob", "bob", api.StatusConsensusNeeded),
			api.OutcomeRequiresConsensus, `(overall) waiting: root quorum has 1 of 2 approvals ("bob")`},
		{"an own-key deletion", deleteKey("operator", "operator", api.StatusCompleted),
			api.OutcomeAllow, "(overall) allowed: a user may change their own credentials when no policy allows or denies it"},
	}
	for _, c := range cases {
		if row := overall(c.id); !reads(row, c.outcome, c.why) {
			t.Errorf("%s: the row should read %q:\n%s", c.name, c.outcome+"  "+c.why, row)
		}
	}

	// carol's deletion of her only key waits (it would strand her); once
	// she signs in with oauth and holds a second key, it decided again
	// comes out allowed, which is not what the service did.
	stranded := deleteKey("carol", "carol", api.StatusConsensusNeeded)
	k, err := ecdh.P256().GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	target := hex.EncodeToString(k.PublicKey().Bytes())
	token, err := e.demo.Server.MintDemoOIDCToken(e.demo.Info.OrganizationID, "carol", api.OauthNonce(target))
	if err != nil {
		t.Fatal(err)
	}
	if o, err := e.client("carol").OAuth(ctx, api.OauthParams{OidcToken: token, TargetPublicKey: target}); err != nil || o.Status != api.StatusCompleted {
		t.Fatalf("carol's oauth sign-in: %v %+v", err, o)
	}
	row := overall(stranded)
	if !reads(row, "-", "(overall) not reproducible: decided again it comes out "+api.OutcomeAllow) {
		t.Errorf("the stranded deletion's row should read - (overall) not reproducible:\n%s", row)
	}
	for _, want := range []string{"still waits", "keys or features changed since"} {
		if !strings.Contains(row, want) {
			t.Errorf("the stranded deletion's row should say %q:\n%s", want, row)
		}
	}
	if strings.Contains(row, "allowed:") {
		t.Errorf("the service left the deletion waiting; the row must not explain it as allowed:\n%s", row)
	}
}
