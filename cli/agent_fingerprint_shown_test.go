package cli

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/keys/agenttest"
)

// An agent key's SHA256 fingerprint is public: an error about it quotes it,
// and never takes its base64 (43 characters, like an Ed25519 key's) for a
// private key and tells the member to treat a key as exposed. About a
// quarter of fingerprints have neither '+' nor '/', as this one.
func TestAgentFingerprintIsQuotedNotHiddenAsASecret(t *testing.T) {
	a := agenttest.Start(t, agenttest.Options{})
	p256, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	a.Add(p256, "alice@laptop")
	const gone = "SHA256:2adOdw0Lnfq48osDgwM58MWAESHwkR4sm7S68Xo9orc" // no key in this agent
	for _, args := range [][]string{
		{"keys", "show", "ssh-agent:" + gone},
		{"stamp", "--key", "ssh-agent:" + gone, "--body", "{}"},
		{"stamp", "--key=ssh-agent:" + gone, "--body", "{}"},
	} {
		all := runWithAgent(t, a.Socket, args...)
		if !strings.Contains(all, "key not in the ssh-agent") || !strings.Contains(all, gone) {
			t.Errorf("%q: the error does not name the missing key %s:\n%s", args, gone, all)
		}
		if strings.Contains(all, "exposed") || strings.Contains(all, "look like a private key") {
			t.Errorf("%q: a public fingerprint is reported as a private key:\n%s", args, all)
		}
	}
}
