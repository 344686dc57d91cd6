package server

import (
	"crypto/ecdh"
	"crypto/rand"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/keys"
	"github.com/vigil-console/vigil/webhook"
)

func TestOauthBundleOpensToAWorkingKey(t *testing.T) {
	e := soloEnv(t)
	ctx := ctxT(t)
	alice := e.clients["alice"]
	target, err := ecdh.P256().GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	targetHex := hex.EncodeToString(target.PublicKey().Bytes())
	token := e.mintToken("carol-sub", targetHex)
	// SPEC.md: the token is base64-encoded; the raw JWT is accepted too.
	act := mustComplete(t)(alice.OAuth(ctx, api.OauthParams{OidcToken: base64.StdEncoding.EncodeToString([]byte(token)), TargetPublicKey: targetHex}))
	res := act.Result.OauthResult
	if res.UserID != e.user("carol") {
		t.Fatalf("oauth signed in as %s, want carol", res.UserID)
	}
	priv, err := keys.DecryptCredentialBundle(res.CredentialBundle, target)
	if err != nil || len(priv) != 32 {
		t.Fatalf("open bundle: %v (%d bytes)", err, len(priv))
	}
	key, err := keys.ParsePrivateHex(keys.SchemeP256, hex.EncodeToString(priv))
	if err != nil {
		t.Fatal(err)
	}
	who, err := e.client(key).Whoami(ctx)
	if err != nil || who.UserID != e.user("carol") {
		t.Fatalf("whoami with the new key: %v %+v", err, who)
	}
	rec, err := alice.GetAPIKey(ctx, res.APIKeyID)
	if err != nil || rec.Credential.Type != api.CredentialOauthKeyP256 || rec.ExpirationSeconds != "900" || !strings.HasPrefix(rec.APIKeyName, "Oauth - ") {
		t.Fatalf("new key record: %v %+v", err, rec)
	}

	// A second sign-in (a token signs in once: a fresh one) with
	// invalidateExisting removes the first OAuth key.
	yes := true
	act = mustComplete(t)(alice.OAuth(ctx, api.OauthParams{OidcToken: e.mintToken("carol-sub", targetHex), TargetPublicKey: targetHex, APIKeyName: "second", ExpirationSeconds: "60", InvalidateExisting: &yes}))
	if _, err := alice.GetAPIKey(ctx, res.APIKeyID); !errors.Is(err, api.ErrNotFound) {
		t.Fatalf("old OAuth key survived invalidateExisting: %v", err)
	}
	if _, err := e.client(key).Whoami(ctx); !errors.Is(err, api.ErrUnauthenticated) {
		t.Fatalf("old OAuth key still authenticates: %v", err)
	}
	second, _ := alice.GetAPIKey(ctx, act.Result.OauthResult.APIKeyID)
	if second.APIKeyName != "second" || second.ExpirationSeconds != "60" {
		t.Fatalf("second key %+v", second)
	}
	if _, err := e.clients["carol"].Whoami(ctx); err != nil {
		t.Fatalf("carol's own (non-OAuth) key was invalidated: %v", err)
	}
}

func TestOauthRefusesBadTokens(t *testing.T) {
	e := soloEnv(t)
	target, _ := ecdh.P256().GenerateKey(rand.Reader)
	targetHex := hex.EncodeToString(target.PublicKey().Bytes())
	good := e.mintToken("carol-sub", targetHex)
	otherAud, _ := e.srv.MintDemoOIDCToken("another-org", "carol-sub", sha256Hex(targetHex))
	parts := strings.Split(good, ".")
	claims, _ := base64.RawURLEncoding.DecodeString(parts[1])
	forged := parts[0] + "." + base64.RawURLEncoding.EncodeToString([]byte(strings.Replace(string(claims), "carol-sub", "alice-sub", 1))) + "." + parts[2]
	e.skew.Store(0)
	for name, tok := range map[string]string{"wrong audience": otherAud, "forged claims": forged, "garbage": "not-a-token"} {
		r := e.post(e.submitPath("oauth"), e.body(api.TypeOauth, api.OauthParams{OidcToken: tok, TargetPublicKey: targetHex}, nil), e.keys["alice"])
		if r.status != 401 || r.err.Code != api.CodeUnauthenticated {
			t.Fatalf("%s: HTTP %d %s", name, r.status, r.body)
		}
	}
	r := e.post(e.submitPath("oauth"), e.body(api.TypeOauth, api.OauthParams{OidcToken: good, TargetPublicKey: "04abcd"}, nil), e.keys["alice"])
	wantError(t, r, 400, api.CodeInvalidArgument, "INVALID_PARAMETER")
	// An unlinked subject: the activity fails, naming the subject.
	stranger := e.mintToken("stranger", targetHex)
	mustFail(t, "stranger")(e.clients["alice"].OAuth(ctxT(t), api.OauthParams{OidcToken: stranger, TargetPublicKey: targetHex}))
	// Expired: the token lives 10 minutes.
	e.skew.Store(int64(11 * time.Minute))
	r = e.post(e.submitPath("oauth"), e.body(api.TypeOauth, api.OauthParams{OidcToken: good, TargetPublicKey: targetHex},
		map[string]any{"timestampMs": jsonMillis(time.Now().Add(11 * time.Minute))}), e.keys["alice"])
	if r.status != 401 || !strings.Contains(r.err.Message, "expired") {
		t.Fatalf("expired token: HTTP %d %s", r.status, r.body)
	}
}

func jsonMillis(t time.Time) string { b, _ := json.Marshal(t.UnixMilli()); return string(b) }

func TestWebhookDeliveredAndVerifiedThroughJWKS(t *testing.T) {
	e := newEnv(t)
	ctx := ctxT(t)
	cache := webhook.NewJWKSCache(e.http.URL+api.JWKSPath, nil, time.Now)
	got := make(chan api.Activity, 10)
	receiver := httpServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		d, err := webhook.VerifyContext(r.Context(), r.Header, body, cache, time.Now(), 0)
		if err != nil {
			t.Errorf("delivery does not verify: %v", err)
			w.WriteHeader(400)
			return
		}
		var a api.Activity
		if err := json.Unmarshal(body, &a); err != nil || d.OrganizationID != e.org.ID {
			t.Errorf("delivery body %s: %v", body, err)
		}
		got <- a
	}))
	act, err := e.clients["alice"].SetOrganizationFeature(ctx, api.SetOrganizationFeatureParams{Name: api.FeatureWebhook, Value: receiver + "/hook"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.clients["bob"].ApproveActivity(ctx, act.Fingerprint); err != nil {
		t.Fatal(err)
	}
	wait := func() api.Activity {
		select {
		case a := <-got:
			return a
		case <-time.After(10 * time.Second):
			t.Fatal("no webhook delivery")
		}
		return api.Activity{}
	}
	// The completion that turned the webhook on is the first delivery.
	if a := wait(); a.ID != act.ID || a.Status != api.StatusCompleted {
		t.Fatalf("first delivery: %s %s", a.ID, a.Status)
	}
	next, err := e.clients["carol"].CreateUserTag(ctx, api.CreateUserTagParams{UserTagName: "w", UserIDs: []string{e.user("bob")}})
	if err != nil {
		t.Fatal(err)
	}
	if a := wait(); a.ID != next.ID || a.Status != api.StatusConsensusNeeded || len(a.Votes) != 1 {
		t.Fatalf("second delivery: %+v", a)
	}
	e.clients["alice"].RejectActivity(ctx, next.Fingerprint)
	e.clients["bob"].RejectActivity(ctx, next.Fingerprint)
	if a := wait(); a.ID != next.ID || a.Status != api.StatusRejected {
		t.Fatalf("third delivery: %s %s", a.ID, a.Status)
	}
}
