package api

import (
	"strings"
	"testing"
)

// A base URL is refused when it carries credentials or a query, and the
// refusal (printed to the terminal, a CI log, the console's error line)
// must not carry the secret itself; nor when the URL does not parse.
func TestBaseURLRefusalDoesNotPrintItsSecret(t *testing.T) {
	const secret = "hunter2-s3cr3t-proxy-password"
	for _, raw := range []string{
		"https://ops:" + secret + "@api.example.com",
		"https://api.example.com/?token=" + secret,
		"https://api.example.com/#" + secret,
		"https://ops:" + secret + "@api.example.com:notaport",
		"ftp://ops:" + secret + "@api.example.com",
		"https:ops:" + secret + "@api.example.com", // no "//": no user info to url.Parse
		"ops:" + secret + "@api.example.com",
	} {
		_, err := NewClient(raw, "org", nil)
		if err == nil {
			t.Errorf("NewClient(%q) accepted", raw)
			continue
		}
		if strings.Contains(err.Error(), secret) {
			t.Errorf("the refusal prints the secret: %v", err)
		}
	}
}

// A private key as a well-formed base URL's host or path is refused before
// any request: its host would go to the resolver, and come back in "cannot
// resolve the host …".
func TestBaseURLHoldingAPrivateKeyIsRefusedUnshown(t *testing.T) {
	const hexKey = "6b4d2f1a9c0e3b4d5a6f7e8d9c0b1a2f3e4d5c6b7a8f9e0d1c2b3a4f5e6d7c8b"
	const b64urlKey = "JLli3nseAVclDYBE50ri8Oxs3TJ-33mvBjIB6_7ucqM"
	for _, raw := range []string{
		"https://" + hexKey,
		"https://" + hexKey + ".example.com:8443",
		"https://" + b64urlKey,
		"https://api.example.com/" + hexKey,
	} {
		_, err := NewClient(raw, "org", nil)
		if err == nil {
			t.Errorf("NewClient(<a URL holding a private key>) accepted")
			continue
		}
		if msg := err.Error(); strings.Contains(msg, hexKey[:16]) || strings.Contains(msg, b64urlKey[:16]) || !strings.Contains(msg, "look like a private key") {
			t.Errorf("the refusal prints the key, or does not say what is wrong: %v", msg)
		}
	}
}
