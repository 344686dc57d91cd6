package screens

import (
	"context"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/ui"
)

// LoginKitSource fetches the auth proxy's login-kit configuration
// (wallet_kit_config); nil when the profile has no auth proxy.
type LoginKitSource func(ctx context.Context) (*api.WalletKitConfig, error)

// loginKitLoadedMsg carries the login-kit configuration for the Organization screen.
type loginKitLoadedMsg struct {
	cfg *api.WalletKitConfig
	err error
}

func loadLoginKit(c *Common) tea.Cmd {
	if c.LoginKit == nil {
		return nil
	}
	return func() tea.Msg {
		ctx, cancel := c.ctx()
		defer cancel()
		cfg, err := c.LoginKit(ctx)
		return loginKitLoadedMsg{cfg: cfg, err: err}
	}
}

// LoginKitFields are the configuration as label, value pairs for people,
// escaped here, once: cfg must hold the strings as the proxy sent them
// (api.WithExactStrings). org is the profile's organization ("" when not
// known): a configuration of another one says so on its organization row.
// `vigil authproxy config` and the Organization screen show the same.
func LoginKitFields(cfg *api.WalletKitConfig, org string) []string {
	providers := make([]string, len(cfg.EnabledProviders))
	for i, p := range cfg.EnabledProviders {
		providers[i] = api.Sanitize(p)
	}
	orgText := api.SanitizeID(cfg.OrganizationID)
	if LoginKitOtherOrganization(cfg, org) != "" {
		orgText += " (NOT this profile's organization " + api.SanitizeID(org) + ")"
	}
	kv := []string{
		"organization", orgText,
		"providers", dashIfEmpty(strings.Join(providers, ", ")),
		"session lifetime", sessionLifetime(cfg.SessionExpirationSeconds),
	}
	names := make([]string, 0, len(cfg.OauthClientIDs))
	for p := range cfg.OauthClientIDs {
		names = append(names, p)
	}
	sort.Strings(names)
	for _, p := range names {
		kv = append(kv, "oauth client id ("+api.Sanitize(p)+")", api.Sanitize(cfg.OauthClientIDs[p]))
	}
	return append(kv, "redirect url", dashIfEmpty(api.Sanitize(cfg.OauthRedirectURL)), "otp", otpText(cfg))
}

// LoginKitOtherOrganization says, when cfg is the configuration of another
// organization than org (the profile's; "" checks nothing), that its users
// would sign in to that one; "" when it is org's. The likely cause is an
// auth_proxy_config_id copied from another organization's profile.
func LoginKitOtherOrganization(cfg *api.WalletKitConfig, org string) string {
	if org == "" || cfg.OrganizationID == org || api.SanitizeID(cfg.OrganizationID) == api.SanitizeID(org) {
		return ""
	}
	return fmt.Sprintf("this login kit is organization %s's, not this profile's (%s): its users would sign in to that organization; check auth_proxy_config_id",
		api.SanitizeID(cfg.OrganizationID), api.SanitizeID(org))
}

func dashIfEmpty(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// sessionLifetime humanizes sessionExpirationSeconds: "15m (900 s)".
func sessionLifetime(s string) string {
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n < 0 || n > int64(100*365*24*time.Hour/time.Second) {
		return "unreadable: " + api.Quote(s)
	}
	return fmt.Sprintf("%s (%d s)", ui.HumanDuration(time.Duration(n)*time.Second), n)
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
