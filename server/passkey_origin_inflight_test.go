package server

import (
	"encoding/json"
	"net/http"
	"strconv"
	"testing"
	"time"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/keys"
)

// passkeyVoteBehindOriginChange queues, behind a held writer, first the
// approval that completes a FEATURE_NAME_WEBAUTHN_ORIGINS change to allowed,
// then a vote on a pending user tag by a passkey used at origin. It releases
// the writer and returns the passkey vote's reply, the tag activity before the
// vote and a client to read it again.
func passkeyVoteBehindOriginChange(t *testing.T, origin, rpID, allowed string) (reply, api.Activity, *api.Client) {
	t.Helper()
	e := newEnvWith(t, envOptions{threshold: 2, dataDir: t.TempDir()})
	ctx := ctxT(t)
	k1, _ := keys.Generate(keys.SchemeP256)
	k2, _ := keys.Generate(keys.SchemeP256)
	pk := newBrowserPasskey(t, "cred-queued", origin, rpID)
	o, err := e.srv.CreateOrganization(ctx, "Origin Org", 2, []UserSpec{
		{Name: "a1", Root: true, APIKeys: []APIKeySpec{{Name: "k", PublicKey: k1.PublicKeyHex()}}},
		{Name: "a2", Root: true, APIKeys: []APIKeySpec{{Name: "k", PublicKey: k2.PublicKeyHex()}}},
		{Name: "pk", Root: true, Authenticators: []AuthenticatorSpec{{Name: "laptop", CredentialID: pk.credentialID, PublicKey: pk.publicKeyHex()}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	a1, _ := api.NewClient(e.http.URL, o.ID, k1)
	a2, _ := api.NewClient(e.http.URL, o.ID, k2)
	change, err := a1.SetOrganizationFeature(ctx, api.SetOrganizationFeatureParams{Name: api.FeatureWebauthnOrigins, Value: allowed})
	if err != nil || change.Status != api.StatusConsensusNeeded {
		t.Fatalf("origins: %v %+v", err, change)
	}
	tag, err := a1.CreateUserTag(ctx, api.CreateUserTagParams{UserTagName: "t", UserIDs: []string{}})
	if err != nil || tag.Status != api.StatusConsensusNeeded {
		t.Fatalf("tag: %v %+v", err, tag)
	}

	// Hold the writer so that both requests are authenticated before either
	// is written, in a known order.
	started, release := make(chan struct{}), make(chan struct{})
	free := func() {
		select {
		case <-release:
		default:
			close(release)
		}
	}
	t.Cleanup(free)
	go e.srv.db.inTx(ctx, func(tx *txn) error {
		close(started)
		<-release
		return nil
	})
	<-started
	waitQueued := func(n int) {
		for deadline := time.Now().Add(10 * time.Second); len(e.srv.db.jobs) < n; {
			if time.Now().After(deadline) {
				t.Fatalf("%d jobs queued, want %d", len(e.srv.db.jobs), n)
			}
			time.Sleep(time.Millisecond)
		}
	}
	changed := make(chan error, 1)
	go func() {
		a, err := a2.ApproveActivity(ctx, change.Fingerprint)
		if err == nil && a.Status != api.StatusCompleted {
			t.Errorf("origins change: %s, want completed", a.Status)
		}
		changed <- err
	}()
	waitQueued(1)
	body, _ := json.Marshal(map[string]any{"type": api.TypeApproveActivity, "timestampMs": strconv.FormatInt(time.Now().UnixMilli(), 10),
		"organizationId": o.ID, "parameters": map[string]string{"fingerprint": tag.Fingerprint}})
	voted := make(chan reply, 1)
	go func() { voted <- e.post(api.SubmitPrefix+"approve_activity", body, pk) }()
	waitQueued(2)
	free()
	if err := <-changed; err != nil {
		t.Fatal(err)
	}
	return <-voted, *tag, a1
}

// Root members restrict passkeys to their own origin because a phishing
// origin is in use; a passkey vote signed at that origin, authenticated
// before the restriction committed but written after it, must not be
// counted. Here it would have completed the activity.
func TestPasskeyVoteFromAnOriginRestrictedWhileQueuedIsNotCounted(t *testing.T) {
	r, tag, client := passkeyVoteBehindOriginChange(t, "https://evil.example", "evil.example", "https://app.example.com")
	if r.status == http.StatusOK {
		t.Fatalf("a passkey vote made at https://evil.example was counted (activity %s) in the commit that restricted passkeys to https://app.example.com", r.act.Status)
	}
	wantError(t, r, http.StatusUnauthorized, api.CodeUnauthenticated, "INVALID_STAMP")
	after, err := client.GetActivity(ctxT(t), tag.ID)
	if err != nil {
		t.Fatal(err)
	}
	if after.Status != api.StatusConsensusNeeded || len(after.Votes) != len(tag.Votes) {
		t.Errorf("the refused vote was recorded: activity is %s with %d votes (had %d)", after.Status, len(after.Votes), len(tag.Votes))
	}
}

// The re-check refuses only what the new setting forbids: a passkey used at
// an origin the change still allows keeps counting.
func TestPasskeyVoteFromAnOriginStillAllowedAfterAChangeIsCounted(t *testing.T) {
	r, _, _ := passkeyVoteBehindOriginChange(t, "https://app.example.com", "app.example.com", "https://app.example.com, https://other.example")
	if r.status != http.StatusOK || r.act.Status != api.StatusCompleted {
		t.Fatalf("a passkey vote at an allowed origin: HTTP %d %s, want 200 and the activity completed", r.status, r.body)
	}
}
