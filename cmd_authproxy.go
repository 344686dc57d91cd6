package main

import (
	"context"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/vigil-console/vigil/api"
)

const authproxyUsage = `Usage: vigil authproxy config [--json]

The auth proxy's login-kit configuration (wallet_kit_config).
`

func cmdAuthProxy(ctx context.Context, c cli, args []string) error {
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

func authproxyConfig(ctx context.Context, c cli, args []string) error {
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
	client, _, err := profileClient(c, conn.config, conn.profile, api.WithAuthProxy(p.AuthProxyURL, p.AuthProxyConfigID))
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

// walletKitFields are the configuration's lines for people, sanitised: the
// CLI and the console show the same.
func walletKitFields(cfg *api.WalletKitConfig) []string {
	providers := make([]string, len(cfg.EnabledProviders))
	for i, pr := range cfg.EnabledProviders {
		providers[i] = api.Sanitize(pr)
	}
	kv := []string{
		"organization", api.SanitizeID(cfg.OrganizationID),
		"providers", orDash(strings.Join(providers, ", ")),
		"session lifetime", sessionLifetime(cfg.SessionExpirationSeconds),
	}
	ids := make([]string, 0, len(cfg.OauthClientIDs))
	for provider := range cfg.OauthClientIDs {
		ids = append(ids, provider)
	}
	sort.Strings(ids)
	for _, provider := range ids {
		kv = append(kv, "oauth client id ("+api.Sanitize(provider)+")", api.Sanitize(cfg.OauthClientIDs[provider]))
	}
	kv = append(kv, "redirect url", orDash(api.Sanitize(cfg.OauthRedirectURL)), "otp", otpText(cfg))
	return kv
}

func printWalletKitConfig(w io.Writer, proxyURL string, cfg *api.WalletKitConfig) error {
	return fields(w, append([]string{"auth proxy", api.Sanitize(proxyURL)}, walletKitFields(cfg)...)...)
}

// sessionLifetime humanizes sessionExpirationSeconds: "15m (900 s)".
func sessionLifetime(s string) string {
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n < 0 || n > int64(100*365*24*time.Hour/time.Second) {
		return "unreadable: " + strconv.Quote(api.Sanitize(s))
	}
	return fmt.Sprintf("%s (%d s)", humanDuration(time.Duration(n)*time.Second), n)
}

func otpText(cfg *api.WalletKitConfig) string {
	if cfg.OtpLength == "" && cfg.OtpAlphanumeric == nil {
		return "-"
	}
	length := "length not set"
	if cfg.OtpLength != "" {
		length = api.Sanitize(cfg.OtpLength) + " characters"
	}
	switch {
	case cfg.OtpAlphanumeric == nil:
		return length
	case *cfg.OtpAlphanumeric:
		return length + ", letters and digits"
	default:
		return length + ", digits only"
	}
}
