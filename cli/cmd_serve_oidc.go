package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"strings"

	"github.com/vigil-console/vigil/internal/userfile"
	"github.com/vigil-console/vigil/server"
)

// oidcTrustFlags are `vigil serve`'s options for the oauth operation: which
// OIDC issuers an organization trusts, and which subjects sign in as whom.
type oidcTrustFlags struct {
	org     string
	issuers stringList // ISSUER,AUDIENCE=JWKS_FILE
	links   stringList // ISSUER,SUBJECT=USER
}

func (f *oidcTrustFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.org, "oidc-org", "", "organization `ID` the OIDC options apply to (default with --demo: the demo organization)")
	fs.Var(&f.issuers, "trust-oidc-issuer", "trust an OIDC issuer for oauth: `ISSUER,AUDIENCE=JWKS_FILE` (repeatable; again to replace its keys)")
	fs.Var(&f.links, "link-oidc-subject", "sign a subject in as a user: `ISSUER,SUBJECT=USER` (ISSUER 'local' is the service's own; USER an id, or a demo member's name)")
}

func (f *oidcTrustFlags) any() bool { return len(f.issuers) > 0 || len(f.links) > 0 }

// check refuses --oidc-org given alone: it only says which organization the
// other two apply to, and was ignored without a word.
func (f *oidcTrustFlags) check() error {
	if f.org != "" && !f.any() {
		return usagef("serve: --oidc-org %q is given without --trust-oidc-issuer or --link-oidc-subject, and does nothing alone; add them, or leave --oidc-org out", f.org)
	}
	return nil
}

// orgFlagError is err as a usage error naming --oidc-org when the
// organization it names does not exist; otherwise err.
func (f *oidcTrustFlags) orgFlagError(org string, err error) error {
	var serr *server.Error
	if errors.As(err, &serr) && serr.ErrorCode == "ORGANIZATION_NOT_FOUND" {
		return usagef("serve: --oidc-org %q is not an organization of this service; give the id of one (a profile's organization_id), or leave --oidc-org out with --demo", org)
	}
	return fmt.Errorf("serve: %w", err)
}

// parseIssuers reads each --trust-oidc-issuer and its JWKS file before the
// service starts: a mistake is a usage error, not a half-configured service.
func (f *oidcTrustFlags) parseIssuers() ([]server.TrustedIssuer, error) {
	var out []server.TrustedIssuer
	for _, v := range f.issuers {
		spec, file, ok := cutLast(v, "=")
		iss, aud, ok2 := strings.Cut(spec, ",")
		if !ok || !ok2 || iss == "" || aud == "" || file == "" {
			return nil, usagef("serve: --trust-oidc-issuer %q: use ISSUER,AUDIENCE=JWKS_FILE, e.g. https://accounts.example.com,my-client-id=jwks.json", v)
		}
		// A JWKS is a few keys: 1 MiB is far beyond one.
		data, err := userfile.Read(file, 1<<20)
		if err != nil {
			return nil, usagef("serve: --trust-oidc-issuer %s: %v", iss, err)
		}
		keys, err := server.ParseOIDCJWKS(data)
		if err != nil {
			return nil, usagef("serve: --trust-oidc-issuer %s: %s: %v", iss, file, err)
		}
		out = append(out, server.TrustedIssuer{Issuer: iss, Audience: aud, Keys: keys})
	}
	return out, nil
}

// apply configures srv's trust for the organization; members maps demo
// member names to user ids.
func (f *oidcTrustFlags) apply(ctx context.Context, srv *server.Server, issuers []server.TrustedIssuer, demo *server.DemoInfo) error {
	org := f.org
	if org == "" && demo != nil {
		org = demo.OrganizationID
	}
	if org == "" {
		return usagef("serve: --trust-oidc-issuer and --link-oidc-subject need --oidc-org ID (or --demo)")
	}
	for _, iss := range issuers {
		if err := srv.TrustOIDCIssuer(ctx, org, iss); err != nil {
			return f.orgFlagError(org, err)
		}
	}
	for _, v := range f.links {
		spec, user, ok := cutLast(v, "=")
		iss, sub, ok2 := strings.Cut(spec, ",")
		if !ok || !ok2 || iss == "" || sub == "" || user == "" {
			return usagef("serve: --link-oidc-subject %q: use ISSUER,SUBJECT=USER, e.g. local,alice@example.com=alice", v)
		}
		if iss == "local" {
			iss = server.LocalOIDCIssuer
		}
		if demo != nil {
			for _, m := range demo.Members {
				if m.Name == user {
					user = m.UserID
				}
			}
		}
		err := srv.LinkOIDCSubject(ctx, org, user, iss, sub)
		if errors.Is(err, server.ErrIssuerNotTrusted) {
			return usagef("serve: --link-oidc-subject %q: the organization does not trust issuer %q; trust it with --trust-oidc-issuer %s,AUDIENCE=JWKS_FILE, or use ISSUER local (the service's own)", v, iss, iss)
		}
		if err != nil {
			return f.orgFlagError(org, err)
		}
	}
	return nil
}

// cutLast splits s around the last sep.
func cutLast(s, sep string) (before, after string, found bool) {
	i := strings.LastIndex(s, sep)
	if i < 0 {
		return s, "", false
	}
	return s[:i], s[i+len(sep):], true
}
