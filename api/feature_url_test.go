package api

import (
	"errors"
	"strings"
	"testing"
)

// A webhook URL the root quorum approves must be one a delivery can reach:
// otherwise the votes are spent and the organization's events silently go
// nowhere (or, with no host name, to the service's own machine).
func TestWebhookURLsNoDeliveryCanUseAreRefused(t *testing.T) {
	for _, c := range []struct{ value, want string }{
		{"https://hooks.example.com:99999/vigil", "port 99999 is not 1-65535"},
		{"https://hooks.example.com:0/vigil", "port 0 is not 1-65535"},
		{"http://:8080/vigil", "names no host"},
		{"https://*.example.com/vigil", "is not a host name"},
	} {
		err := CheckFeatureValue(FeatureWebhook, c.value)
		if err == nil || !strings.Contains(err.Error(), c.want) || !errors.Is(err, ErrInvalidArgument) {
			t.Errorf("WEBHOOK %q: got %v, want an invalid-argument error saying %q", c.value, err, c.want)
		}
	}
	for _, ok := range []string{"https://hooks.example.com:443/vigil", "http://127.0.0.1:65535/", "http://[::1]:8080/x", "https://hooks.example.com"} {
		if err := CheckFeatureValue(FeatureWebhook, ok); err != nil {
			t.Errorf("WEBHOOK %q refused: %v", ok, err)
		}
	}
}

// A password in the webhook URL would be shown to every member and read-only
// session (the Organization screen, feature list, every activity's intent):
// it is refused before the vote, saying why.
func TestWebhookURLWithUserinfoIsRefused(t *testing.T) {
	for _, v := range []string{"https://u:secret@h.example.com/x", "https://token@h.example.com/x"} {
		err := CheckFeatureValue(FeatureWebhook, v)
		if err == nil || !strings.Contains(err.Error(), "every member and read-only session") || !strings.Contains(err.Error(), "signature") {
			t.Errorf("WEBHOOK %q: got %v, want a refusal saying who would see it and what to use instead", v, err)
		}
	}
}

// A WebAuthn origin is compared as a string with what the browser sends,
// which is scheme://host[:port] and nothing more: anything else approved by
// the quorum would make every passkey login from that site fail.
func TestWebauthnOriginsThatAreNotOriginsAreRefused(t *testing.T) {
	for _, c := range []struct{ value, want string }{
		{"https://app.example.com?", "more than scheme://host[:port]"},
		{"https://app.example.com#", "more than scheme://host[:port]"},
		{"https://app.example.com:99999", "port 99999 is not 1-65535"},
		{"https://*.example.com", "no wildcard"},
		{"https://app.example.com/", `ends with "/"`},
		{"https://app.example.com, https://b.example.com/", "origin 2"},
		{"https://b\u00fccher.example", "xn--"},
	} {
		err := CheckFeatureValue(FeatureWebauthnOrigins, c.value)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("WEBAUTHN_ORIGINS %q: got %v, want an error saying %q", c.value, err, c.want)
		}
	}
	for _, ok := range []string{"https://app.example.com:8443", "http://localhost", "http://127.0.0.1:3000", "https://xn--bcher-kva.example"} {
		if err := CheckFeatureValue(FeatureWebauthnOrigins, ok); err != nil {
			t.Errorf("WEBAUTHN_ORIGINS %q refused: %v", ok, err)
		}
	}
}
