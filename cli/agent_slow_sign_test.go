package cli

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/crypto/ssh/agent"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/keys"
	"github.com/vigil-console/vigil/keys/agenttest"
)

// A vote whose agent key asks for a confirmation (ssh-add -c, or a token's
// touch) answered only after the console's time for the request ran out:
// nothing reached the service, and the error says so, rather than calling
// the vote sent with its outcome unknown.
func TestVoteSignedAfterTheDeadlineIsReportedNotSent(t *testing.T) {
	dir := t.TempDir()
	asking, answer := filepath.Join(dir, "asking"), filepath.Join(dir, "answer")
	askpass := filepath.Join(dir, "askpass")
	// The confirmation is shown (asking), and accepted once the test says so.
	script := "#!/bin/sh\n: > " + asking + "\nwhile [ ! -e " + answer + " ]; do sleep 0.05; done\nexit 0\n"
	if err := os.WriteFile(askpass, []byte(script), 0o700); err != nil {
		t.Fatal(err)
	}
	a := agenttest.Start(t, agenttest.Options{Env: []string{"SSH_ASKPASS=" + askpass, "SSH_ASKPASS_REQUIRE=force", "DISPLAY=:0"}})
	p256, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	if err := a.Client().Add(agent.AddedKey{PrivateKey: p256, Comment: "alice confirm", ConfirmBeforeUse: true}); err != nil {
		t.Fatal(err)
	}
	ag, err := keys.DialAgent(a.Socket)
	if err != nil {
		t.Fatal(err)
	}
	defer ag.Close()
	aliceKey, err := ag.Find("ssh-agent:alice confirm")
	if err != nil {
		t.Fatal(err)
	}
	keysDir := t.TempDir()
	carolKey, err := keys.Store{Dir: keysDir}.Generate("carol", "p256")
	if err != nil {
		t.Fatal(err)
	}
	o := startAgentOrg(t, a.Socket, 2,
		member{name: "alice", ref: aliceKey.Ref(), pubHex: aliceKey.PublicKeyHex, cred: aliceKey.CredentialType(), root: true},
		member{name: "carol", ref: "carol", pubHex: carolKey.PublicKeyHex(), cred: carolKey.CredentialType(), root: true, keysDirForFiles: keysDir},
	)
	carol, _ := o.client(t, "carol")
	act, err := carol.CreateUserTag(context.Background(), api.CreateUserTagParams{UserTagName: "late", UserIDs: []string{o.org.UserIDs["carol"]}})
	if err != nil || act.Status != api.StatusConsensusNeeded {
		t.Fatalf("carol's activity: %v %+v", err, act)
	}
	alice, _ := o.client(t, "alice")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		// The time runs out while the prompt is up; then alice confirms.
		for {
			if _, err := os.Stat(asking); err == nil {
				break
			}
			time.Sleep(10 * time.Millisecond)
		}
		cancel()
		os.WriteFile(answer, nil, 0o600)
	}()
	_, err = alice.ApproveActivity(ctx, act.Fingerprint)
	var unknown *api.OutcomeUnknownError
	if errors.As(err, &unknown) || !errors.Is(err, api.ErrNotSent) {
		t.Fatalf("a vote signed after its time ran out: %v; want it reported as not sent", err)
	}
	if !strings.Contains(err.Error(), "nothing was sent") || !strings.Contains(err.Error(), "confirmation") {
		t.Errorf("error %q does not say nothing was sent and why", err)
	}
	got, err := carol.GetActivity(context.Background(), act.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.Status != api.StatusConsensusNeeded || len(got.Votes) != 1 {
		t.Errorf("the activity after the unsent vote: %s with %d votes; want it still waiting on carol's vote alone", got.Status, len(got.Votes))
	}
}
