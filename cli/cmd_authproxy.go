package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"

	"github.com/vigil-console/vigil/api"

	"github.com/vigil-console/vigil/screens"
)

const authproxyUsage = `Usage: vigil authproxy config [--json]

The auth proxy's login-kit configuration (wallet_kit_config).
`

func cmdAuthProxy(ctx context.Context, c proc, args []string) error {
	return runGroup(ctx, c, "authproxy", authproxyUsage, []subcommand{{"config", authproxyConfig}}, args)
}

const authproxyConfigUsage = `Usage: vigil authproxy config [--json] [--profile NAME] [--config FILE]

Shows the login-kit configuration the auth proxy serves for the profile's
auth_proxy_url and auth_proxy_config_id: the enabled login providers, the
session lifetime, the OAuth client id of each social provider, the redirect
URL, and the one-time-code settings. --json prints the reply as sent.
The auth proxy is authenticated by auth_proxy_config_id alone: the profile
needs no key. A reply lacking enabledProviders, sessionExpirationSeconds or
organizationId, or that can be read two ways (a key twice, "ORGANIZATIONID"
beside "organizationId"), is refused (exit 1); a configuration of another
organization than the profile's is shown marked NOT this profile's
organization and exits 1 (--json prints nothing then).

Examples:
  vigil authproxy config
  vigil authproxy config --json | jq -r '.oauthClientIds.google'

Flags:
`

func authproxyConfig(ctx context.Context, c proc, args []string) error {
	fs := newFlagSet("authproxy config", authproxyConfigUsage)
	var conn connFlags
	conn.register(fs, true)
	if err := parseFlagsOnly(c, fs, args); err != nil {
		return err
	}
	path := conn.config
	if path == "" {
		path = c.getenv("VIGIL_CONFIG")
	}
	p, err := loadProfile(c, path, conn.profile)
	if err != nil {
		return err
	}
	if p.AuthProxyURL == "" || p.AuthProxyConfigID == "" {
		return fmt.Errorf("profile %q has no auth proxy: set auth_proxy_url and auth_proxy_config_id in its table", p.Name)
	}
	// The auth proxy is authenticated by auth_proxy_config_id alone (SPEC,
	// Authentication): no key is loaded, so a profile without one reads it.
	// Exact strings: screens.LoginKitFields escapes what it shows, once.
	client, err := api.NewClient(p.BaseURL, p.OrganizationID, nil, api.WithUserAgent("vigil/"+version),
		api.WithAuthProxy(p.AuthProxyURL, p.AuthProxyConfigID), api.WithExactStrings())
	if err != nil {
		return fmt.Errorf("profile %q: %w", p.Name, err)
	}
	if conn.json {
		raw, err := client.WalletKitConfigRaw(ctx)
		if err != nil {
			return fmt.Errorf("authproxy config: %w", err)
		}
		var cfg api.WalletKitConfig
		if json.Unmarshal(raw, &cfg) == nil {
			if other := screens.LoginKitOtherOrganization(&cfg, p.OrganizationID); other != "" {
				return fmt.Errorf("authproxy config: %s", other)
			}
		}
		return writeJSON(c.stdout, raw)
	}
	cfg, err := client.WalletKitConfig(ctx)
	if err != nil {
		return fmt.Errorf("authproxy config: %w", err)
	}
	if err := printWalletKitConfig(c.stdout, p.AuthProxyURL, cfg, p.OrganizationID); err != nil {
		return err
	}
	// Shown, so the admin sees what is configured, and refused.
	if other := screens.LoginKitOtherOrganization(cfg, p.OrganizationID); other != "" {
		return fmt.Errorf("authproxy config: %s", other)
	}
	return nil
}

func printWalletKitConfig(w io.Writer, proxyURL string, cfg *api.WalletKitConfig, org string) error {
	return fields(w, append([]string{"auth proxy", api.Sanitize(proxyURL)}, screens.LoginKitFields(cfg, org)...)...)
}
