package keys

import (
	"slices"
	"testing"
)

// The tokens of an argument that look like a key are found wherever they
// stand; a fingerprint's hex and words are not (audit 220, M3).
func TestSecretTokens(t *testing.T) {
	const key = "3f1c9a7d5e2b4c6a8d0e1f2a3b4c5d6e7f8091a2b3c4d5e6f708192a3b4c5d6e"
	for _, s := range []string{key + ",", `"` + key + `"`, "x\n" + key, "key=" + key, "k:" + key, "[" + key + "]", key + `\n`} {
		if !slices.Contains(SecretTokens(s), key) {
			t.Errorf("SecretTokens(%q) = %q, want the key among them", s, SecretTokens(s))
		}
	}
	// A policy's condition names addresses: 40 hex digits inside a longer
	// argument are public, not a key.
	const address = "0x5fbdb2315678afecb367f032d93f642f64180aa3"
	for _, s := range []string{"eth.tx.to == '" + address + "'", "to=" + address, "sha256:" + key, "SHA256:" + key + ",", "create_policy,ACTIVITY_TYPE_CREATE_USERS", "01a22b28-5de3-7512-bbb2-989f1dbbfaf1"} {
		if got := SecretTokens(s); len(got) != 0 {
			t.Errorf("SecretTokens(%q) = %q, want none", s, got)
		}
	}
}
