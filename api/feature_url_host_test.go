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

// A host ending in a number is read as an IPv4 address, so 999.1.1.1 is
// none and is refused; a name with '_', which Go's resolver and URL parsers
// take, is accepted, and the refusal's own words say '_' is allowed (audit
// 220, L7).
func TestWebhookURLHostsEndingInANumberMustBeIPv4(t *testing.T) {
	for _, ok := range []string{"https://10.1.2.3/x", "https://host_name.example/x", "https://1.2.3.4./x", "https://hooks1.example/x"} {
		if err := CheckWebhookURL(ok); err != nil {
			t.Errorf("WEBHOOK %q refused: %v", ok, err)
		}
	}
	for _, bad := range []string{"https://999.1.1.1/x", "https://1.2.3/x", "https://example.123/x", "https://hooks.0x1f/x", "https://1.2.3.4.5/x"} {
		err := CheckWebhookURL(bad)
		if err == nil || !strings.Contains(err.Error(), "is read as an IPv4 address, and it is not one") {
			t.Errorf("WEBHOOK %q: got %v, want it refused as no IPv4 address", bad, err)
		}
	}
	if err := CheckWebhookURL("https://bad!host.example/x"); err == nil || !strings.Contains(err.Error(), "letters, digits, '-' and '_' between dots") {
		t.Errorf("a host with '!': got %v, want the refusal to name every character a host name may hold", err)
	}
}
