package server

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/keys"
)

// Before migration 20 one key could be user x's API key and user z's
// passkey. x's approval cast with it then stays on a pending activity after
// the upgrade removes x's credential and keeps z's: the key's holder must
// not approve that activity again as z and meet a 2-of-2 root quorum alone,
// whether x's vote recorded the key as stamps carry it or uncompressed.
func TestUpgradeRefusesASecondVoteWithTheKeyOfAnEarlierVoter(t *testing.T) {
	for _, form := range []string{"compressed", "uncompressed"} {
		t.Run(form, func(t *testing.T) {
			dir := t.TempDir()
			db := openSchema(t, dir, migrationUniqueCredentials-1)
			a, err := keys.NewSoftAuthenticator("")
			if err != nil {
				t.Fatal(err)
			}
			votedKey := a.PublicKeyHex()
			if form == "uncompressed" {
				votedKey = uncompressedP256(t, votedKey)
			}
			body := []byte(`{"type":"ACTIVITY_TYPE_CREATE_USER_TAG","timestampMs":"1","organizationId":"o","parameters":{"userTagName":"t","userIds":[]}}`)
			sum := sha256.Sum256(body)
			fp := "sha256:" + hex.EncodeToString(sum[:])
			now := time.Now().UnixNano()
			execStatements(t, db, []statement{
				{`INSERT INTO organizations(id, name, root_threshold, root_user_ids, created_ns) VALUES ('o', 'Old', 2, '["x","z"]', 1)`, nil},
				{`INSERT INTO users(id, org_id, name, email, seq, created_ns, updated_ns) VALUES ('x', 'o', 'x', '', 1, 1, 1), ('z', 'o', 'z', '', 2, 1, 1)`, nil},
				// z's passkey is the older: migration 20 keeps it and removes x's key.
				{`INSERT INTO authenticators(id, org_id, user_id, name, credential_id, public_key, created_ns, updated_ns) VALUES ('a-z', 'o', 'z', 'pk', ?, ?, 1, 1)`,
					[]any{a.CredentialID(), a.PublicKeyHex()}},
				{`INSERT INTO api_keys(id, org_id, user_id, name, public_key, credential_type, created_ns, updated_ns) VALUES ('k-x', 'o', 'x', 'shared', ?, ?, 2, 2)`,
					[]any{a.PublicKeyHex(), api.CredentialAPIKeyP256}},
				{`INSERT INTO activities(id, org_id, type, status, fingerprint, requester_id, body, intent, result, created_ns, updated_ns)
					VALUES ('act', 'o', 'ACTIVITY_TYPE_CREATE_USER_TAG', 'ACTIVITY_STATUS_CONSENSUS_NEEDED', ?, 'x', ?, '{"createUserTagIntent":{"userTagName":"t","userIds":[]}}', '{}', ?, ?)`,
					[]any{fp, body, now, now}},
				{`INSERT INTO votes(id, activity_id, user_id, selection, message, public_key, signature, scheme, body_fingerprint, created_ns, credential_id, credential_type)
					VALUES ('v-x', 'act', 'x', 'VOTE_SELECTION_APPROVED', '', ?, 'sig', ?, ?, ?, 'k-x', ?)`,
					[]any{votedKey, api.SchemeP256, fp, now, api.CredentialAPIKeyP256}},
			})
			srv, _ := openUpgraded(t, dir, "open a schema-19 database holding one key as x's API key and z's passkey, with x's vote")
			h := httptest.NewServer(srv.Handler())
			t.Cleanup(h.Close)
			cz, err := api.NewClient(h.URL, "o", a)
			if err != nil {
				t.Fatal(err)
			}
			ctx := context.Background()
			if who, err := cz.Whoami(ctx); err != nil || who.UserID != "z" {
				t.Fatalf("z's passkey after the upgrade: %+v, %v", who, err)
			}
			for _, vote := range []struct {
				name string
				cast func(context.Context, string, ...api.SubmitOption) (*api.Activity, error)
			}{{"approval", cz.ApproveActivity}, {"rejection", cz.RejectActivity}} {
				after, err := vote.cast(ctx, fp)
				var e *api.Error
				if !errors.As(err, &e) || e.StatusCode != http.StatusForbidden || len(e.Details) != 1 || e.Details[0].ErrorCode != "KEY_ALREADY_VOTED" {
					status := ""
					if after != nil {
						status = after.Status
					}
					t.Fatalf("z's %s with the key x approved with: %s, %v; want 403 KEY_ALREADY_VOTED", vote.name, status, err)
				}
				for _, want := range []string{"already voted on activity act as user x", "key pair of your own"} {
					if !strings.Contains(e.Message, want) {
						t.Errorf("the refusal of z's %s does not say %q: %s", vote.name, want, e.Message)
					}
				}
				if !strings.Contains(err.Error(), "vigil keys generate") {
					t.Errorf("vigil does not say how to get a key of one's own when z's %s is refused: %v", vote.name, err)
				}
			}
			got, err := cz.GetActivity(ctx, "act")
			if err != nil {
				t.Fatal(err)
			}
			if got.Status != api.StatusConsensusNeeded || len(got.Votes) != 1 {
				t.Errorf("after z's refused votes the activity is %s with %d votes; want it still waiting with x's one", got.Status, len(got.Votes))
			}
		})
	}
}

// A second vote cast with x's key as z before this check existed (say by
// the vigil just upgraded) stays recorded; it must not count either: in a
// 3-of-3 root quorum, x's approval, z's approval with the same key and w's
// make two key holders, and the activity still waits.
func TestAnApprovalWithAKeyAnotherUserVotedWithCountsForNothing(t *testing.T) {
	dir := t.TempDir()
	db := openSchema(t, dir, migrationUniqueCredentials-1)
	a, err := keys.NewSoftAuthenticator("")
	if err != nil {
		t.Fatal(err)
	}
	w, err := keys.Generate(keys.SchemeP256)
	if err != nil {
		t.Fatal(err)
	}
	body := []byte(`{"type":"ACTIVITY_TYPE_CREATE_USER_TAG","timestampMs":"1","organizationId":"o","parameters":{"userTagName":"t","userIds":[]}}`)
	sum := sha256.Sum256(body)
	fp := "sha256:" + hex.EncodeToString(sum[:])
	now := time.Now().UnixNano()
	execStatements(t, db, []statement{
		{`INSERT INTO organizations(id, name, root_threshold, root_user_ids, created_ns) VALUES ('o', 'Old', 3, '["w","x","z"]', 1)`, nil},
		{`INSERT INTO users(id, org_id, name, email, seq, created_ns, updated_ns) VALUES ('x', 'o', 'x', '', 1, 1, 1), ('z', 'o', 'z', '', 2, 1, 1), ('w', 'o', 'w', '', 3, 1, 1)`, nil},
		{`INSERT INTO authenticators(id, org_id, user_id, name, credential_id, public_key, created_ns, updated_ns) VALUES ('a-z', 'o', 'z', 'pk', ?, ?, 1, 1)`,
			[]any{a.CredentialID(), a.PublicKeyHex()}},
		{`INSERT INTO api_keys(id, org_id, user_id, name, public_key, credential_type, created_ns, updated_ns) VALUES
			('k-x', 'o', 'x', 'shared', ?, ?, 2, 2),
			('k-w', 'o', 'w', 'own', ?, ?, 3, 3)`,
			[]any{a.PublicKeyHex(), api.CredentialAPIKeyP256, w.PublicKeyHex(), api.CredentialAPIKeyP256}},
		{`INSERT INTO activities(id, org_id, type, status, fingerprint, requester_id, body, intent, result, created_ns, updated_ns)
			VALUES ('act', 'o', 'ACTIVITY_TYPE_CREATE_USER_TAG', 'ACTIVITY_STATUS_CONSENSUS_NEEDED', ?, 'x', ?, '{"createUserTagIntent":{"userTagName":"t","userIds":[]}}', '{}', ?, ?)`,
			[]any{fp, body, now, now + 1}},
		{`INSERT INTO votes(id, activity_id, user_id, selection, message, public_key, signature, scheme, body_fingerprint, created_ns, credential_id, credential_type) VALUES
			('v-x', 'act', 'x', 'VOTE_SELECTION_APPROVED', '', ?, 'sig', ?, ?, ?, 'k-x', ?),
			('v-z', 'act', 'z', 'VOTE_SELECTION_APPROVED', '', ?, 'sig', ?, 'sha256:01', ?, 'a-z', ?)`,
			[]any{uncompressedP256(t, a.PublicKeyHex()), api.SchemeP256, fp, now, api.CredentialAPIKeyP256,
				a.PublicKeyHex(), api.SchemeWebAuthn, now + 1, api.CredentialWebAuthnAuthenticator}},
	})
	srv, _ := openUpgraded(t, dir, "open a schema-19 database holding two approvals made with one key")
	h := httptest.NewServer(srv.Handler())
	t.Cleanup(h.Close)
	cw, err := api.NewClient(h.URL, "o", w)
	if err != nil {
		t.Fatal(err)
	}
	after, err := cw.ApproveActivity(context.Background(), fp)
	if err != nil {
		t.Fatalf("w approves with a key of their own: %v", err)
	}
	if after.Status != api.StatusConsensusNeeded {
		t.Fatalf("x's approval, z's with x's key and w's met the 3-of-3 root quorum of three key holders: %s", after.Status)
	}
}
