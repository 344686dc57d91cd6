package api

import (
	"errors"
	"strings"
	"testing"
)

// A fully qualified host name with its trailing dot is a host name (Go's
// client delivers to it); a link-local IPv6 address with a zone is an IP
// address, refused for what it is: the zone names an interface of the
// machine that dials, not of the service's.
func TestWebhookURLHostsThatAreHostsOrZonedAddresses(t *testing.T) {
	for _, ok := range []string{"https://hooks.example.com./x", "http://localhost.:8080/"} {
		if err := CheckFeatureValue(FeatureWebhook, ok); err != nil {
			t.Errorf("WEBHOOK %q refused: %v", ok, err)
		}
	}
	for _, c := range []struct{ value, want string }{
		{"http://[fe80::1%25eth0]:8080/", "carries a zone (%eth0), which names a network interface of the machine that dials it"},
		{"https://hooks.example.com../x", "is not a host name"},
		{"https://./x", "is not a host name"},
	} {
		err := CheckFeatureValue(FeatureWebhook, c.value)
		if err == nil || !strings.Contains(err.Error(), c.want) || !errors.Is(err, ErrInvalidArgument) {
			t.Errorf("WEBHOOK %q: got %v, want an invalid-argument error saying %q", c.value, err, c.want)
		}
		if err != nil && strings.Contains(err.Error(), "is not an IP address") {
			t.Errorf("WEBHOOK %q: %v: says an IP address is none", c.value, err)
		}
	}
}
