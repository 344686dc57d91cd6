package server

import (
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
)

// The service holds a webhook URL's host to the client's rule: a trailing-dot
// fully qualified name is taken and stored as given; a link-local IPv6
// address with a zone is refused, saying that the zone names an interface of
// the machine that dials, which the service's is not.
func TestServiceWebhookURLHostsWithTrailingDotOrZone(t *testing.T) {
	e := soloEnv(t)
	ctx := ctxT(t)
	const fqdn = "https://hooks.example.com./x"
	mustComplete(t)(e.clients["alice"].SetOrganizationFeature(ctx, api.SetOrganizationFeatureParams{Name: api.FeatureWebhook, Value: fqdn}))
	cfg, err := e.clients["alice"].GetOrganizationConfigs(ctx)
	if err != nil {
		t.Fatal(err)
	}
	stored := ""
	for _, f := range cfg.Features {
		if f.Name == api.FeatureWebhook {
			stored = f.Value
		}
	}
	if stored != fqdn {
		t.Errorf("webhook URL stored as %q, want %q", stored, fqdn)
	}

	r := e.post(e.submitPath("set_organization_feature"), e.body(api.TypeSetOrganizationFeature, api.SetOrganizationFeatureParams{Name: api.FeatureWebhook, Value: "http://[fe80::1%25eth0]:8080/"}, nil), e.keys["alice"])
	wantError(t, r, 400, api.CodeInvalidArgument, "INVALID_PARAMETER")
	if !strings.Contains(r.err.Message, "carries a zone") {
		t.Errorf("zoned address refused with %q, want the reason (the zone)", r.err.Message)
	}
}

// The service refuses a host that ends in a number and is no IPv4 address,
// as the client does (audit 220, L7).
func TestServiceRefusesAWebhookHostThatIsNoIPv4(t *testing.T) {
	e := soloEnv(t)
	r := e.post(e.submitPath("set_organization_feature"), e.body(api.TypeSetOrganizationFeature, api.SetOrganizationFeatureParams{Name: api.FeatureWebhook, Value: "https://999.1.1.1/x"}, nil), e.keys["alice"])
	wantError(t, r, 400, api.CodeInvalidArgument, "INVALID_PARAMETER")
	if !strings.Contains(r.err.Message, "is read as an IPv4 address, and it is not one") {
		t.Errorf("999.1.1.1 refused with %q, want the reason", r.err.Message)
	}
}
