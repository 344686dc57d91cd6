package cli

import (
	"context"
	"crypto/ecdh"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/keys"
)

// A login whose placeholder was removed while it waited for the sign-in
// (someone followed bad advice) cannot save the new API key's private key
// there: it must say where the key is instead, and keep its target key
// (the only other way to open the key), never report the key saved.
func TestLoginKeepsItsTargetKeyWhenThePlaceholderWasRemoved(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir()) // where the key is kept instead
	store := keys.Store{Dir: t.TempDir()}
	slot, err := store.Reserve("carol")
	if err != nil {
		t.Fatal(err)
	}
	priv, _, _ := store.Paths("carol")
	if err := os.Remove(priv); err != nil {
		t.Fatal(err)
	}
	target, err := ecdh.P256().GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	made, err := keys.Generate(keys.SchemeP256)
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := hex.DecodeString(made.PrivateKeyHex())
	bundle, err := keys.EncryptCredentialBundle(hex.EncodeToString(target.PublicKey().Bytes()), raw)
	if err != nil {
		t.Fatal(err)
	}
	act := &api.Activity{ID: "act-1", Status: api.StatusCompleted,
		Result: api.Result{OauthResult: &api.OauthResult{APIKeyID: "key-1", CredentialBundle: bundle}}}
	var out, errOut strings.Builder
	c := proc{stdin: strings.NewReader(""), stdout: &out, stderr: &errOut, getenv: func(string) string { return "" }}
	dropped := false
	keep := func(cause error) error { t.Fatalf("keep called: %v", cause); return cause }
	err = finishOAuth(context.Background(), c, Profile{Name: "p", BaseURL: "http://127.0.0.1:1"}, store, "carol", slot, act, target,
		func() { dropped = true }, time.Now().Add(time.Hour), time.Hour, keep)
	if err == nil {
		t.Fatalf("the login reported success:\n%s", out.String())
	}
	if dropped {
		t.Errorf("the login deleted its target key, though the key was not saved: %v", err)
	}
	var ns *keys.NotSavedError
	if !errors.As(err, &ns) || ns.Copy == "" || !strings.Contains(err.Error(), ns.Copy) {
		t.Fatalf("the error does not say where the key is: %v", err)
	}
	if b, err := os.ReadFile(ns.Copy); err != nil || strings.TrimSpace(string(b)) != made.PrivateKeyHex() {
		t.Errorf("%s does not hold the API key's private key (%v)", ns.Copy, err)
	}
}
