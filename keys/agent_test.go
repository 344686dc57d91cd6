package keys_test

import (
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"encoding/asn1"
	"encoding/hex"
	"errors"
	"fmt"
	"math/big"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/crypto/ssh"
	"golang.org/x/crypto/ssh/agent"

	"github.com/vigil-console/vigil/keys"
	"github.com/vigil-console/vigil/keys/agenttest"
)

// agentWithKeys starts a real ssh-agent holding a P-256, an Ed25519 and an
// RSA key.
func agentWithKeys(t *testing.T) (a *agenttest.Agent, p256 *ecdsa.PrivateKey, ed ed25519.PrivateKey) {
	t.Helper()
	a = agenttest.Start(t, agenttest.Options{})
	p256, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	_, ed, err = ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	rsaKey, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	a.Add(p256, "alice p256")
	a.Add(ed, "alice ed25519")
	a.Add(rsaKey, "old rsa")
	return a, p256, ed
}

func TestAgentListsKeysWithTheirServicePublicKeys(t *testing.T) {
	a, p256, ed := agentWithKeys(t)
	ag, err := keys.DialAgent(a.Socket)
	if err != nil {
		t.Fatal(err)
	}
	defer ag.Close()
	list, err := ag.Keys()
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 3 {
		t.Fatalf("agent lists %d keys, want 3: %+v", len(list), list)
	}
	byComment := map[string]keys.AgentKey{}
	for _, k := range list {
		byComment[k.Comment] = k
	}
	p := byComment["alice p256"]
	if want := hex.EncodeToString(elliptic.MarshalCompressed(elliptic.P256(), p256.X, p256.Y)); p.PublicKeyHex != want || p.Scheme != keys.SchemeP256 || p.Unusable != "" {
		t.Errorf("P-256 agent key: %+v, want public key %s and scheme P-256", p, want)
	}
	if p.Fingerprint != agenttest.Fingerprint(t, &p256.PublicKey) || p.Ref() != "ssh-agent:"+p.Fingerprint {
		t.Errorf("P-256 fingerprint %s / ref %s, want %s", p.Fingerprint, p.Ref(), agenttest.Fingerprint(t, &p256.PublicKey))
	}
	if p.CredentialType() != "CREDENTIAL_TYPE_API_KEY_P256" || p.Kind() != keys.KindAgent {
		t.Errorf("P-256: credential %s kind %s", p.CredentialType(), p.Kind())
	}
	e := byComment["alice ed25519"]
	if want := hex.EncodeToString(ed.Public().(ed25519.PublicKey)); e.PublicKeyHex != want || e.Scheme != keys.SchemeEd25519 || e.Unusable != "" {
		t.Errorf("Ed25519 agent key: %+v, want public key %s", e, want)
	}
	r := byComment["old rsa"]
	if r.Scheme != "" || r.PublicKeyHex != "" || !strings.Contains(r.Unusable, "RSA") {
		t.Errorf("RSA agent key should be unusable with a reason naming RSA: %+v", r)
	}
	if _, err := ag.Stamper(r.Ref()); !errors.Is(err, keys.ErrKeyCannotStamp) || !strings.Contains(err.Error(), "RSA") {
		t.Errorf("stamper for the RSA key: %v, want ErrKeyCannotStamp naming RSA", err)
	}
}

// lowS reports whether a DER P-256 signature has S at most half the order.
func lowS(t *testing.T, sigHex string) bool {
	t.Helper()
	raw, err := hex.DecodeString(sigHex)
	if err != nil {
		t.Fatal(err)
	}
	var sig struct{ R, S *big.Int }
	if _, err := asn1.Unmarshal(raw, &sig); err != nil {
		t.Fatal(err)
	}
	half := new(big.Int).Rsh(elliptic.P256().Params().N, 1)
	return sig.S.Cmp(half) <= 0
}

func TestAgentP256StampsAreCanonicalLowSAndVerify(t *testing.T) {
	a, p256, _ := agentWithKeys(t)
	for _, ref := range []string{"ssh-agent:" + agenttest.Fingerprint(t, &p256.PublicKey), "ssh-agent:alice p256"} {
		s, err := keys.OpenAgentStamper(a.Socket, ref)
		if err != nil {
			t.Fatalf("%s: %v", ref, err)
		}
		if s.Scheme() != keys.SchemeP256 || s.Kind() != keys.KindAgent || keys.StamperKind(s) != keys.KindAgent {
			t.Errorf("%s: scheme %s kind %s", ref, s.Scheme(), s.Kind())
		}
		// The agent does not normalise S: about half its signatures have a
		// high S. 40 stamps all low S cannot happen by chance.
		for i := range 40 {
			body := []byte(fmt.Sprintf(`{"type":"ACTIVITY_TYPE_CREATE_USER_TAG","n":%d}`, i))
			header, value, err := s.Stamp(body)
			if err != nil {
				t.Fatal(err)
			}
			st, err := keys.Verify(value, body)
			if err != nil || header != keys.HeaderStamp {
				t.Fatalf("stamp %d does not verify: %v (header %s)", i, err, header)
			}
			if st.HighS || !lowS(t, st.Signature) {
				t.Fatalf("stamp %d has a high S; agent stamps must be low S like file keys'", i)
			}
			if st.PublicKey != s.PublicKeyHex() || st.Scheme != keys.SchemeP256 {
				t.Fatalf("stamp %d claims %s %s", i, st.PublicKey, st.Scheme)
			}
			if _, err := keys.Verify(value, append(body, ' ')); !errors.Is(err, keys.ErrBadSignature) {
				t.Fatalf("stamp %d verifies over another body: %v", i, err)
			}
		}
		s.Close()
	}
}

func TestAgentEd25519StampIsExactlyTheFileKeysStamp(t *testing.T) {
	a, _, ed := agentWithKeys(t)
	s, err := keys.OpenAgentStamper(a.Socket, "ssh-agent:"+agenttest.Fingerprint(t, ed.Public()))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	file, err := keys.ParsePrivateHex("ed25519", hex.EncodeToString(ed.Seed()))
	if err != nil {
		t.Fatal(err)
	}
	body := []byte(`{"organizationId":"o-1"}`)
	_, fromAgent, err := s.Stamp(body)
	if err != nil {
		t.Fatal(err)
	}
	_, fromFile, err := file.Stamp(body)
	if err != nil {
		t.Fatal(err)
	}
	// Ed25519 is deterministic: the same key must give the same stamp.
	if fromAgent != fromFile {
		t.Errorf("agent stamp %s\nfile stamp  %s", fromAgent, fromFile)
	}
	if _, err := keys.Verify(fromAgent, body); err != nil {
		t.Error(err)
	}
}

func TestAgentErrorsSayWhatIsWrong(t *testing.T) {
	a, p256, _ := agentWithKeys(t)
	other, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	a.Add(other, "alice p256") // a second key with the same comment
	cases := []struct {
		name, socket, ref string
		want              error
		says              string
	}{
		{"no SSH_AUTH_SOCK", "", "ssh-agent:alice p256", keys.ErrNoAgent, "SSH_AUTH_SOCK is not set"},
		{"nothing listening", a.Socket + ".gone", "ssh-agent:alice p256", keys.ErrNoAgent, "cannot reach"},
		{"unknown fingerprint", a.Socket, "ssh-agent:" + agenttest.Fingerprint(t, ed25519.PublicKey(make([]byte, 32))), keys.ErrKeyNotInAgent, "ssh-add"},
		{"unknown comment", a.Socket, "ssh-agent:bob", keys.ErrKeyNotInAgent, `comment "bob"`},
		{"ambiguous comment", a.Socket, "ssh-agent:alice p256", keys.ErrAmbiguousAgentKey, agenttest.Fingerprint(t, &p256.PublicKey)},
		{"RSA key", a.Socket, "ssh-agent:old rsa", keys.ErrKeyCannotStamp, "RSA"},
	}
	for _, c := range cases {
		_, err := keys.OpenAgentStamper(c.socket, c.ref)
		if !errors.Is(err, c.want) || !strings.Contains(err.Error(), c.says) {
			t.Errorf("%s: %v; want %v saying %q", c.name, err, c.want, c.says)
		}
	}
	for _, ref := range []string{"ssh-agent:", "ssh-agent:MD5:aa:bb", "ssh-agent:SHA256:short", "ssh-agent:a\x1b[2Jb"} {
		if err := keys.ValidateRef(ref); err == nil {
			t.Errorf("ValidateRef(%q) accepted", ref)
		}
		if _, err := keys.OpenAgentStamper(a.Socket, ref); err == nil {
			t.Errorf("OpenAgentStamper(%q) accepted", ref)
		}
	}
	for _, ref := range []string{"ops", "ssh-agent:" + agenttest.Fingerprint(t, &p256.PublicKey), "ssh-agent:alice@laptop (YubiKey 5)"} {
		if err := keys.ValidateRef(ref); err != nil {
			t.Errorf("ValidateRef(%q): %v", ref, err)
		}
	}
}

func TestAgentLockedOrKeyRemovedAfterStart(t *testing.T) {
	a, p256, _ := agentWithKeys(t)
	s, err := keys.OpenAgentStamper(a.Socket, "ssh-agent:alice p256")
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	admin := a.Client()
	if err := admin.Lock([]byte("hunter2")); err != nil {
		t.Fatal(err)
	}
	_, _, err = s.Stamp([]byte("{}"))
	if !errors.Is(err, keys.ErrAgentLocked) || !strings.Contains(err.Error(), "ssh-add -X") {
		t.Errorf("stamp with a locked agent: %v; want ErrAgentLocked saying how to unlock", err)
	}
	if _, err := keys.OpenAgentStamper(a.Socket, "ssh-agent:alice p256"); !errors.Is(err, keys.ErrAgentLocked) {
		t.Errorf("open with a locked agent: %v; want ErrAgentLocked", err)
	}
	if err := admin.Unlock([]byte("hunter2")); err != nil {
		t.Fatal(err)
	}
	if _, v, err := s.Stamp([]byte("{}")); err != nil {
		t.Errorf("stamp after unlock: %v", err)
	} else if _, err := keys.Verify(v, []byte("{}")); err != nil {
		t.Error(err)
	}
	pub, _ := ssh.NewPublicKey(&p256.PublicKey)
	if err := admin.Remove(pub); err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.Stamp([]byte("{}")); !errors.Is(err, keys.ErrKeyNotInAgent) || !strings.Contains(err.Error(), "no longer holds") {
		t.Errorf("stamp after the key was removed: %v; want ErrKeyNotInAgent", err)
	}
}

// BenchmarkAgentStamp compares stamping with a key file and through a real
// ssh-agent (and a SoftHSM2 token behind it), for docs/performance.md. An
// agent stamp includes the agent's signature, the socket round trip and the
// Verify that checks the agent's answer.
func BenchmarkAgentStamp(b *testing.B) {
	body := []byte(strings.Repeat(`{"k":"v"}`, 100))
	p256, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	_, ed, _ := ed25519.GenerateKey(rand.Reader)
	filePriv, _ := p256.Bytes()
	fileP256, err := keys.ParsePrivateHex("p256", hex.EncodeToString(filePriv))
	if err != nil {
		b.Fatal(err)
	}
	fileEd, err := keys.ParsePrivateHex("ed25519", hex.EncodeToString(ed.Seed()))
	if err != nil {
		b.Fatal(err)
	}
	stampLoop := func(b *testing.B, s keys.Stamper) {
		for b.Loop() {
			if _, _, err := s.Stamp(body); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.Run("file/p256", func(b *testing.B) { stampLoop(b, fileP256) })
	b.Run("file/ed25519", func(b *testing.B) { stampLoop(b, fileEd) })
	for _, c := range []struct {
		name string
		priv any
		pub  any
	}{{"agent/p256", p256, &p256.PublicKey}, {"agent/ed25519", ed, ed.Public()}} {
		b.Run(c.name, func(b *testing.B) {
			a := agenttest.Start(b, agenttest.Options{})
			a.Add(c.priv, c.name)
			sp, _ := ssh.NewPublicKey(c.pub)
			s, err := keys.OpenAgentStamper(a.Socket, "ssh-agent:"+ssh.FingerprintSHA256(sp))
			if err != nil {
				b.Fatal(err)
			}
			defer s.Close()
			stampLoop(b, s)
		})
	}
	b.Run("softhsm-via-agent/p256", func(b *testing.B) {
		tok := agenttest.StartSoftHSM(b)
		tok.GenerateP256("01", "")
		a := agenttest.Start(b, agenttest.Options{PKCS11Allow: tok.Module, Env: tok.Env})
		a.AddToken(tok)
		s, err := keys.OpenAgentStamper(a.Socket, "ssh-agent:"+tok.Module)
		if err != nil {
			b.Fatal(err)
		}
		defer s.Close()
		stampLoop(b, s)
	})
}

// A console keeps its stamper for hours; an agent restarted under it (same
// socket, key added again) must not make the next stamp fail.
func TestAgentStamperSurvivesAnAgentRestart(t *testing.T) {
	a, p256, _ := agentWithKeys(t)
	s, err := keys.OpenAgentStamper(a.Socket, "ssh-agent:alice p256")
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, _, err := s.Stamp([]byte("{}")); err != nil {
		t.Fatal(err)
	}
	a.Restart()
	a.Add(p256, "alice p256")
	_, v, err := s.Stamp([]byte(`{"after":"restart"}`))
	if err != nil {
		t.Fatalf("stamp after the agent restarted: %v", err)
	}
	if _, err := keys.Verify(v, []byte(`{"after":"restart"}`)); err != nil {
		t.Error(err)
	}
	a.Restart() // now without the key
	if _, _, err := s.Stamp([]byte("{}")); !errors.Is(err, keys.ErrAgentLocked) {
		t.Errorf("stamp after a restart that lost the key: %v; want the agent to be reported empty", err)
	}
}

// A key that needs confirmation (ssh-add -c) stands in for a token that needs
// a touch: the agent asks SSH_ASKPASS, which declines at once or only after a
// while, like a token whose touch timed out.
func TestAgentRefusalSaysWhetherItTimedOut(t *testing.T) {
	if testing.Short() {
		t.Skip("waits for a slow refusal")
	}
	dir := t.TempDir()
	askpass := filepath.Join(dir, "askpass")
	slow := filepath.Join(dir, "slow")
	os.WriteFile(askpass, []byte("#!/bin/sh\n[ -e "+slow+" ] && sleep 3.5\nexit 1\n"), 0o700)
	a := agenttest.Start(t, agenttest.Options{Env: []string{"SSH_ASKPASS=" + askpass, "SSH_ASKPASS_REQUIRE=force", "DISPLAY=:0"}})
	p256, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err := a.Client().Add(agent.AddedKey{PrivateKey: p256, Comment: "confirm", ConfirmBeforeUse: true}); err != nil {
		t.Fatal(err)
	}
	s, err := keys.OpenAgentStamper(a.Socket, "ssh-agent:confirm")
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	_, _, err = s.Stamp([]byte("{}"))
	if !errors.Is(err, keys.ErrAgentRefused) || !strings.Contains(err.Error(), "ssh-add -c") || strings.Contains(err.Error(), "timed out") {
		t.Errorf("declined at once: %v; want a refusal naming the confirmation, not a timeout", err)
	}
	os.WriteFile(slow, nil, 0o600)
	_, _, err = s.Stamp([]byte("{}"))
	if !errors.Is(err, keys.ErrAgentRefused) || !strings.Contains(err.Error(), "timed out waiting for a touch") {
		t.Errorf("declined after 3.5s: %v; want it to say the token timed out waiting for a touch", err)
	}
	// The key is in the agent's memory, not in a token: a user who took a
	// while to decline its confirmation hears that, not "touch the token".
	if err == nil || !strings.Contains(err.Error(), "(ssh-add -c) was declined") || strings.Contains(err.Error(), "when it blinks") {
		t.Errorf("a confirmation of a key in memory declined after 3.5s: %v; want it to name the declined confirmation, not a token's blink", err)
	}
}

// The console stamps from several commands at once through one stamper.
func TestAgentStamperIsSafeForConcurrentUse(t *testing.T) {
	a, _, _ := agentWithKeys(t)
	s, err := keys.OpenAgentStamper(a.Socket, "ssh-agent:alice ed25519")
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	errs := make(chan error, 8)
	for g := range 8 {
		go func() {
			for i := range 10 {
				body := []byte(fmt.Sprintf(`{"g":%d,"i":%d}`, g, i))
				_, v, err := s.Stamp(body)
				if err == nil {
					_, err = keys.Verify(v, body)
				}
				if err != nil {
					errs <- err
					return
				}
			}
			errs <- nil
		}()
	}
	for range 8 {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
}
