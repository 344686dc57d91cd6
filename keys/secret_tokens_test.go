package keys

import (
	"slices"
	"strings"
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

// A 32-byte key in standard base64 is 43 characters and its '=': after
// "ssh-agent:SHA256:" it was exempt as a fingerprint once the '=' was split
// off, and a malformed reference's error printed it. A fingerprint has no
// '=' after it, and stays public.
func TestFingerprintExemptionDoesNotCoverAPaddedKey(t *testing.T) {
	const b64Key = "JLli3nseAVclDYBE50ri8Oxs3TJ+33mvBjIB6+7ucqM="
	const fingerprint = "SHA256:JLli3nseAVclDYBE50ri8Oxs3TJ+33mvBjIB6+7ucqM"
	for _, s := range []string{"ssh-agent:SHA256:" + b64Key, "--key=ssh-agent:SHA256:" + b64Key, "SHA256:" + b64Key} {
		if !HasSecretToken(s) {
			t.Errorf("HasSecretToken(%q) = false: a padded key passes as a fingerprint", s)
		}
	}
	for _, s := range []string{fingerprint, AgentRefPrefix + fingerprint, "--key=" + AgentRefPrefix + fingerprint} {
		if HasSecretToken(s) {
			t.Errorf("HasSecretToken(%q) = true: a fingerprint taken for a key", s)
		}
	}
	err := ValidateRef(AgentRefPrefix + "SHA256:" + b64Key)
	if err == nil {
		t.Fatal("ValidateRef accepted a reference with a malformed fingerprint")
	}
	if strings.Contains(err.Error(), b64Key[:16]) || !strings.Contains(err.Error(), "look like a private key") {
		t.Errorf("the malformed reference's error prints the key, or does not say it looks like one: %v", err)
	}
	if err := ValidateRef(AgentRefPrefix + "MD5:aa:bb"); err == nil || !strings.Contains(err.Error(), `"ssh-agent:MD5:aa:bb"`) {
		t.Errorf("a reference that holds no key is not quoted: %v", err)
	}
}
