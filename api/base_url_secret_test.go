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
