package server

import (
	"slices"
	"testing"

	"github.com/vigil-console/vigil/api"
)

// A client that skips vigil's own check (a raw request) meets the same rule at
// the service: a webhook URL no delivery can reach, or one carrying a password
// every member would be shown, or one with white space that would send
// deliveries to another path, is refused and never stored.
func TestServiceRefusesUndeliverableOrCredentialedWebhookURLs(t *testing.T) {
	e := soloEnv(t)
	ctx := ctxT(t)
	for _, v := range []string{
		"https://hooks.example.com:99999/vigil",
		"https://hooks.example.com:0/vigil",
		"http://:8080/vigil",
		"https://u:secret@hooks.example.com/vigil",
		"https://hooks.example.com/vigil ",      // delivered to "/vigil%20"
		"https://hooks.example.com/vigil\u00a0", // no-break space
	} {
		r := e.post(e.submitPath("set_organization_feature"), e.body(api.TypeSetOrganizationFeature, api.SetOrganizationFeatureParams{Name: api.FeatureWebhook, Value: v}, nil), e.keys["alice"])
		wantError(t, r, 400, api.CodeInvalidArgument, "INVALID_PARAMETER")
	}
	cfg, err := e.clients["alice"].GetOrganizationConfigs(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if slices.ContainsFunc(cfg.Features, func(f api.Feature) bool { return f.Name == api.FeatureWebhook }) {
		t.Fatalf("a refused webhook URL was stored: %+v", cfg.Features)
	}
}
