package policy

import (
	"fmt"
	"slices"
	"strings"

	"cel.dev/cel-go/common/ast"

	"github.com/vigil-console/vigil/api"
)

// A credential's type is one of a fixed list (keys owns it, api lists it;
// the real service's features/users/credentials.mdx, "Credential types",
// gives the same ten), compared exactly: `credentials.any(c, c.type ==
// 'API_KEY')` compiles, yet no credential ever matches it, so a consensus
// written so is never met, and a deny on it never denies.
// credentialTypeWarnings says so, as enumWarnings does for activity.type.
// It warns rather than refuses: a newer service may add types.

const credentialTypePrefix = "CREDENTIAL_TYPE_"

// credentialTypeAliases are names a reader may write for a credential
// type, with the types the name stands for.
var credentialTypeAliases = map[string][]string{
	"PASSKEY":       {api.CredentialWebAuthnAuthenticator},
	"WEBAUTHN":      {api.CredentialWebAuthnAuthenticator},
	"AUTHENTICATOR": {api.CredentialWebAuthnAuthenticator},
	"API_KEY":       {api.CredentialAPIKeyP256, api.CredentialAPIKeySecp256k1, api.CredentialAPIKeyEd25519},
	"OAUTH":         {api.CredentialOauthKeyP256},
	"OTP":           {api.CredentialOtpAuthKeyP256},
	"EMAIL":         {api.CredentialEmailAuthKeyP256, api.CredentialOtpAuthKeyP256},
	"SESSION":       {api.CredentialReadWriteSessionP256},
}

func knownCredentialType(v string) bool { return slices.Contains(api.CredentialTypes(), v) }

// credentialTypeField names the field of e when e reads a credential's
// type (`c.type`, c a Credential by the checker's types).
func credentialTypeField(native *ast.AST) func(ast.Expr) (string, bool) {
	return func(e ast.Expr) (string, bool) {
		if e.Kind() != ast.SelectKind || e.AsSelect().IsTestOnly() {
			return "", false
		}
		sel := e.AsSelect()
		if sel.FieldName() != "type" || native.GetType(sel.Operand().ID()).TypeName() != typeCredential {
			return "", false
		}
		return "type", true
	}
}

// credentialTypeWarnings lists, at their position (at), the string literals
// a checked consensus compares with a credential's type (==, != or in,
// either side, anywhere in it) that no credential has.
func credentialTypeWarnings(native *ast.AST, at func(id int64, message string) Diagnostic) []Diagnostic {
	known := func(_, v string) bool { return knownCredentialType(v) }
	var out []Diagnostic
	for _, d := range deadComparisons(native.Expr(), credentialTypeField(native), known) {
		message := neverWarning("a credential's type", d.value, d.reads, d.partly, credentialTypeHint(d.value))
		out = append(out, at(d.lit.ID(), message))
	}
	return out
}

// credentialTypeHint names the types likely meant by v: its upper case, with
// the CREDENTIAL_TYPE_ prefix, an alias (API_KEY, PASSKEY…), or the types
// starting with it; "" when none.
func credentialTypeHint(v string) string {
	upper := strings.ToUpper(v)
	if upper != v && knownCredentialType(upper) {
		return fmt.Sprintf("credential types are upper case: '%s'", upper)
	}
	short := strings.TrimPrefix(upper, credentialTypePrefix)
	if short == upper && knownCredentialType(credentialTypePrefix+short) {
		return fmt.Sprintf("a credential type starts with CREDENTIAL_TYPE_: '%s'", credentialTypePrefix+short)
	}
	meant := credentialTypeAliases[strings.TrimSuffix(short, "S")]
	if meant == nil && short != "" {
		for _, t := range api.CredentialTypes() {
			if strings.HasPrefix(t, credentialTypePrefix+short) {
				meant = append(meant, t)
			}
		}
	}
	switch len(meant) {
	case 0:
		return ""
	case 1:
		return fmt.Sprintf("did you mean '%s'?", meant[0])
	}
	return fmt.Sprintf("did you mean one of '%s'? (in [...] matches any)", strings.Join(meant, "', '"))
}
