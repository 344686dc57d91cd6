package server

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/webhook"
)

// countingTransport counts the requests a JWKS cache makes.
type countingTransport struct{ n atomic.Int32 }

func (c *countingTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	c.n.Add(1)
	return http.DefaultTransport.RoundTrip(r)
}

func publishedKids(t *testing.T, base string) []string {
	t.Helper()
	resp, err := http.Get(base + api.JWKSPath)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var set api.JWKS
	if err := json.NewDecoder(resp.Body).Decode(&set); err != nil {
		t.Fatal(err)
	}
	var kids []string
	for _, k := range set.Keys {
		kids = append(kids, k.Kid)
	}
	return kids
}

type receivedHook struct {
	kid    string
	status string
	err    error
}

func TestWebhookKeyRotation(t *testing.T) {
	dir := t.TempDir()
	e := newEnvWith(t, envOptions{threshold: 1, dataDir: dir})
	ctx := ctxT(t)
	alice := e.clients["alice"]

	// The receiver verifies every delivery through a JWKS cache whose clock the
	// test moves, and holds the second delivery until told to answer.
	var cacheSkew atomic.Int64
	transport := &countingTransport{}
	cache := webhook.NewJWKSCache(e.http.URL+api.JWKSPath, &http.Client{Transport: transport},
		func() time.Time { return time.Now().Add(time.Duration(cacheSkew.Load())) })
	got := make(chan receivedHook, 10)
	hold := make(chan struct{})
	var requests atomic.Int32
	receiver := httpServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := requests.Add(1)
		body, _ := io.ReadAll(r.Body)
		_, err := webhook.VerifyContext(r.Context(), r.Header, body, cache, time.Now(), 0)
		var a api.Activity
		json.Unmarshal(body, &a)
		got <- receivedHook{kid: r.Header.Get(webhook.HeaderKeyID), status: a.Status, err: err}
		if n == 2 {
			<-hold
		}
	}))
	wait := func(what string) receivedHook {
		t.Helper()
		select {
		case h := <-got:
			if h.err != nil {
				t.Fatalf("%s: delivery signed by %s does not verify: %v", what, h.kid, h.err)
			}
			return h
		case <-time.After(10 * time.Second):
			t.Fatalf("%s: no webhook delivery", what)
		}
		return receivedHook{}
	}

	oldKid := e.srv.ActiveWebhookKeyID()
	mustComplete(t)(alice.SetOrganizationFeature(ctx, api.SetOrganizationFeatureParams{Name: api.FeatureWebhook, Value: receiver + "/hook"}))
	if h := wait("first delivery"); h.kid != oldKid {
		t.Fatalf("first delivery signed by %s, want the active key %s", h.kid, oldKid)
	}
	// A second delivery, signed with the old key, stays in flight.
	mustComplete(t)(alice.CreateUserTag(ctx, api.CreateUserTagParams{UserTagName: "in-flight", UserIDs: []string{e.user("bob")}}))
	if h := wait("held delivery"); h.kid != oldKid {
		t.Fatalf("held delivery signed by %s, want %s", h.kid, oldKid)
	}

	newKid, err := e.srv.RotateWebhookKey(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if newKid == oldKid || newKid == "" {
		t.Fatalf("rotation returned %q (old %q)", newKid, oldKid)
	}
	kids := publishedKids(t, e.http.URL)
	if !slices.Contains(kids, newKid) || !slices.Contains(kids, oldKid) || len(kids) != 2 {
		t.Fatalf("JWKS after rotation with a delivery in flight = %v, want old %s and new %s", kids, oldKid, newKid)
	}

	// The next delivery is signed with the new key; the receiver's cached set
	// lacks it, so the cache refetches once (after its minimum interval).
	cacheSkew.Store(int64(webhook.MinRefetchInterval + time.Second))
	mustComplete(t)(alice.CreateUserTag(ctx, api.CreateUserTagParams{UserTagName: "after-rotation", UserIDs: []string{e.user("bob")}}))
	if h := wait("delivery after rotation"); h.kid != newKid {
		t.Fatalf("delivery after rotation signed by %s, want %s", h.kid, newKid)
	}
	if n := transport.n.Load(); n != 2 {
		t.Fatalf("receiver fetched the JWKS %d times, want 2 (first use, one refetch for the new kid)", n)
	}

	// Once the held delivery is answered, the old key is no longer published,
	// and the stored ring no longer holds it.
	close(hold)
	deadline := time.Now().Add(10 * time.Second)
	for kids = publishedKids(t, e.http.URL); slices.Contains(kids, oldKid); kids = publishedKids(t, e.http.URL) {
		if time.Now().After(deadline) {
			t.Fatalf("old key %s still published after its delivery completed: %v", oldKid, kids)
		}
		time.Sleep(20 * time.Millisecond)
	}
	if len(kids) != 1 || kids[0] != newKid {
		t.Fatalf("JWKS = %v, want only %s", kids, newKid)
	}
	// The drop is saved by the sync that follows the delivery's release
	// (and the periodic one): the published set may lead the stored one by
	// that moment, never by a key that a restart would publish (a loaded
	// ring drops retiring keys).
	type storedRing struct {
		Active string `json:"active"`
		Keys   []struct {
			Kid string `json:"kid"`
		} `json:"keys"`
	}
	readStored := func() storedRing {
		var stored []byte
		if err := e.srv.db.inTx(ctx, func(tx *txn) error {
			var err error
			stored, _, err = getState(ctx, tx, stateWebhookRing)
			return err
		}); err != nil {
			t.Fatal(err)
		}
		var persisted storedRing
		if err := json.Unmarshal(stored, &persisted); err != nil {
			t.Fatal(err)
		}
		return persisted
	}
	for persisted := readStored(); persisted.Active != newKid || len(persisted.Keys) != 1 || persisted.Keys[0].Kid != newKid; persisted = readStored() {
		if time.Now().After(deadline) {
			t.Fatalf("stored ring: active %s, keys %+v; want only %s", persisted.Active, persisted.Keys, newKid)
		}
		time.Sleep(20 * time.Millisecond)
	}

	// A restart on the same data keeps signing with the new key.
	e.http.Close()
	if err := e.srv.Close(); err != nil {
		t.Fatal(err)
	}
	again, err := Open(Config{DataDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer again.Close()
	hs := httptest.NewServer(again.Handler())
	defer hs.Close()
	if kid := again.ActiveWebhookKeyID(); kid != newKid {
		t.Fatalf("after reopening, active key %s, want %s", kid, newKid)
	}
	if kids := publishedKids(t, hs.URL); strings.Join(kids, ",") != newKid {
		t.Fatalf("after reopening, JWKS = %v, want only %s", kids, newKid)
	}
}

// A rotation with nothing in flight retires the old key at once.
func TestWebhookKeyRotationWithoutDeliveries(t *testing.T) {
	e := soloEnv(t)
	oldKid := e.srv.ActiveWebhookKeyID()
	newKid, err := e.srv.RotateWebhookKey(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if kids := publishedKids(t, e.http.URL); len(kids) != 1 || kids[0] != newKid || newKid == oldKid {
		t.Fatalf("JWKS = %v, want only the new key %s (old %s)", kids, newKid, oldKid)
	}
}
