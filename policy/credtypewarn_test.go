package policy

import (
	"strings"
	"testing"
)

// The credential types of the real service's docs (features/users/
// credentials.mdx, "Credential types"), written out here rather than taken
// from the code under test.
var docsCredentialTypes = []string{
	"CREDENTIAL_TYPE_WEBAUTHN_AUTHENTICATOR",
	"CREDENTIAL_TYPE_API_KEY_P256",
	"CREDENTIAL_TYPE_OTP_AUTH_KEY_P256",
	"CREDENTIAL_TYPE_EMAIL_AUTH_KEY_P256",
	"CREDENTIAL_TYPE_RECOVER_USER_KEY_P256",
	"CREDENTIAL_TYPE_OAUTH_KEY_P256",
	"CREDENTIAL_TYPE_API_KEY_SECP256K1",
	"CREDENTIAL_TYPE_API_KEY_ED25519",
	"CREDENTIAL_TYPE_READ_WRITE_SESSION_KEY_P256",
	"CREDENTIAL_TYPE_LOGIN",
}

// Every documented credential type compared in a consensus, by ==, != or
// in, either side, is a type a credential can have: none is warned.
func TestConsensusDocumentedCredentialTypesAreNotWarned(t *testing.T) {
	for _, typ := range docsCredentialTypes {
		for _, consensus := range []string{
			"credentials.any(c, c.type == '" + typ + "')",
			"credentials.all(c, '" + typ + "' != c.type)",
			"credentials.any(c, c.type in ['" + typ + "'])",
			"credentials[0].type == '" + typ + "'",
		} {
			if _, err := Compile("", consensus); err != nil {
				t.Fatalf("%s: %v", consensus, err)
			}
			if ws := Warnings(Source{Consensus: consensus}); len(ws) != 0 {
				t.Errorf("%s: warned %v, yet the docs list %s", consensus, ws, typ)
			}
		}
	}
}

// A credential type no credential has never matches: the consensus is warned
// at the literal, naming the type likely meant when there is one.
func TestConsensusUnknownCredentialTypeIsWarned(t *testing.T) {
	for _, tc := range []struct {
		consensus string
		column    int
		want      string
	}{
		{"credentials.any(c, c.type == 'CREDENTIAL_TYPE_WEBAUTHN')", 30,
			`"CREDENTIAL_TYPE_WEBAUTHN" is never a credential's type: did you mean 'CREDENTIAL_TYPE_WEBAUTHN_AUTHENTICATOR'?`},
		{"credentials.any(c, c.type == 'API_KEY')", 30,
			"did you mean one of 'CREDENTIAL_TYPE_API_KEY_P256', 'CREDENTIAL_TYPE_API_KEY_SECP256K1', 'CREDENTIAL_TYPE_API_KEY_ED25519'?"},
		{"credentials.any(c, 'credential_type_login' == c.type)", 20,
			"credential types are upper case: 'CREDENTIAL_TYPE_LOGIN'"},
		{"credentials.any(c, c.type == 'OAUTH_KEY_P256')", 30,
			"a credential type starts with CREDENTIAL_TYPE_: 'CREDENTIAL_TYPE_OAUTH_KEY_P256'"},
		{"credentials.any(c, c.type in ['CREDENTIAL_TYPE_API_KEY_P256', 'CREDENTIAL_TYPE_PASSKEY'])", 63,
			`"CREDENTIAL_TYPE_PASSKEY" is never a credential's type, so this value never matches; the others in the list still can: did you mean 'CREDENTIAL_TYPE_WEBAUTHN_AUTHENTICATOR'?`},
		{"credentials[0].type == 'CREDENTIAL_TYPE_YUBIKEY'", 24,
			`"CREDENTIAL_TYPE_YUBIKEY" is never a credential's type, so this comparison is never true (a deny written on it never denies); the values are listed in docs/policy-language.md`},
		{"credentials[0].type != 'API_KEY_P256'", 24,
			"so this comparison is always true"},
	} {
		if _, err := Compile("", tc.consensus); err != nil {
			t.Fatalf("%s must still compile: %v", tc.consensus, err)
		}
		ws := Warnings(Source{Consensus: tc.consensus})
		if len(ws) != 1 {
			t.Errorf("%s: warnings %v, want one", tc.consensus, ws)
			continue
		}
		w := ws[0]
		if w.Field != FieldConsensus || w.Line != 1 || w.Column != tc.column || !strings.Contains(w.Message, tc.want) {
			t.Errorf("%s: warning %+v, want the consensus's column %d saying %q", tc.consensus, w, tc.column, tc.want)
		}
	}
}

// Only a credential's type has the fixed list: a user's or credential's
// other fields, and a condition's, are not checked against it.
func TestCredentialTypeWarningReadsOnlyCredentialType(t *testing.T) {
	for _, consensus := range []string{
		"credentials.any(c, c.id == 'API_KEY')",
		"approvers.any(u, u.alias == 'API_KEY')",
		"credentials.any(c, c.public_key == 'x') && approvers.any(type, type.alias == 'API_KEY')",
	} {
		if ws := Warnings(Source{Consensus: consensus}); len(ws) != 0 {
			t.Errorf("%s: warned %v", consensus, ws)
		}
	}
}

// The documentation's own consensuses name only credential types it lists.
func TestNoCredentialTypeWarningOnTheDocsPolicies(t *testing.T) {
	n := 0
	for _, x := range loadDocExamples(t) {
		if strings.Contains(x.Consensus, ".type") {
			n++
		}
		if ws := Warnings(Source{Consensus: x.Consensus}); len(ws) != 0 {
			t.Errorf("%s %s: %q is warned, yet the docs write it: %v", x.Page, x.Heading, x.Consensus, ws)
		}
	}
	if n == 0 {
		t.Fatal("no docs consensus compares a credential's type: the test covers nothing")
	}
}
