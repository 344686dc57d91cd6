package cli

import (
	"context"
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
	// Exact strings: screens.LoginKitFields escapes what it shows, once.
	client, _, err := profileClient(c, conn.config, conn.profile, api.WithAuthProxy(p.AuthProxyURL, p.AuthProxyConfigID), api.WithExactStrings())
	if err != nil {
		return err
	}
	if conn.json {
		raw, err := client.WalletKitConfigRaw(ctx)
		if err != nil {
			return fmt.Errorf("authproxy config: %w", err)
		}
		return writeJSON(c.stdout, raw)
	}
	cfg, err := client.WalletKitConfig(ctx)
	if err != nil {
		return fmt.Errorf("authproxy config: %w", err)
	}
	return printWalletKitConfig(c.stdout, p.AuthProxyURL, cfg)
}

func printWalletKitConfig(w io.Writer, proxyURL string, cfg *api.WalletKitConfig) error {
	return fields(w, append([]string{"auth proxy", api.Sanitize(proxyURL)}, screens.LoginKitFields(cfg)...)...)
}
