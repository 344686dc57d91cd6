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

// Ordinary service URLs are not taken for a key (URLHoldsSecret refused
// them, so vigil would not start): an IPv6 literal written out in full, ids
// in successive path segments. A key in a URL still is, wherever it stands.
func TestURLHoldsSecretKnowsOrdinaryURLs(t *testing.T) {
	for _, u := range []string{
		"https://[2001:0db8:85a3:0000:0000:8a2e:0370:7334]",
		"http://[fd12:3456:789a:bcde:f012:3456:789a:bcde]:8080/",
		"https://gw.example.com/tenants/Xy7kP2qR9mN4vB8cL1dF6gH3jK5sT0wE",
		"https://api.example.com/o/01HF8K2M3N4P5Q6R7S8T9VWXYZ/a1B2c3D4e5F6",
		"https://api.turnkey.com",
		"https://xn--80ak6aa92e.xn--p1ai:8443/gw",
	} {
		if URLHoldsSecret(u) {
			t.Errorf("URLHoldsSecret(%q) = true, want false", u)
		}
	}
	const hexKey = "6b4d2f1a9c0e3b4d5a6f7e8d9c0b1a2f3e4d5c6b7a8f9e0d1c2b3a4f5e6d7c8b"
	for _, u := range []string{
		"https://api.example.com/JLli3nseAVclDYBE50ri8Oxs3TJ/33mvBjIB6+7ucqM=",
		"https://api.example.com/JLli3nseAVclDYBE50ri8Oxs3TJ/33mvBjIB6+7ucqM",
		"https://[2001:db8::1]/" + hexKey,
		"https://[2001:db8::1]:8443/#" + hexKey,
		"https://api.example.com:" + hexKey,
		"https://api.example.com/%36" + hexKey[1:],
		"https://0X" + strings.ToUpper(hexKey) + ".example.com",
	} {
		if !URLHoldsSecret(u) {
			t.Errorf("URLHoldsSecret(<a URL with a key: %d characters>) = false", len(u))
		}
	}
}
