package api

import (
	"encoding/base64"
	"encoding/json"
	"strings"
	"testing"
)

// jwtWith is a JWT whose payload is claims, with a signature nobody checks
// here: what a member could put in an oauth activity.
func jwtWith(t *testing.T, claims map[string]any) string {
	t.Helper()
	payload, err := json.Marshal(claims)
	if err != nil {
		t.Fatal(err)
	}
	enc := base64.RawURLEncoding.EncodeToString
	return enc([]byte(`{"alg":"ES256","typ":"JWT"}`)) + "." + enc(payload) + "." + enc([]byte("signature-not-checked"))
}

// An approver of an oauth activity reads whose account the token names
// (issuer, subject, email), marked unverified and escaped, never the token,
// and, given the users, which user the organization links to that subject.
func TestIntentLinesShowTheOIDCTokensUnverifiedSubject(t *testing.T) {
	hostile := "alice-sub\x1b[2J\nroot"
	token := jwtWith(t, map[string]any{"iss": "https://idp.example", "sub": hostile, "email": "alice@example.com", "nonce": "n"})
	users := []User{
		{UserID: "u-bob", UserName: "bob", OauthProviders: []OauthProvider{{Issuer: "https://idp.example", Subject: "bob-sub"}}},
		{UserID: "u-alice", UserName: "alice", OauthProviders: []OauthProvider{{Issuer: "https://idp.example", Subject: hostile}}},
	}
	for name, tok := range map[string]string{"JWT": token, "base64 of it": base64.StdEncoding.EncodeToString([]byte(token))} {
		in := intentOf(t, TypeOauth, &OauthParams{OidcToken: tok, TargetPublicKey: "04ab"})
		lines := IntentLinesWithUsers(in, users)
		text := strings.Join(lines, "\n")
		if !strings.Contains(text, UnverifiedClaimsLabel) {
			t.Errorf("%s: the claims are not marked unverified:\n%s", name, text)
		}
		if got := lineWith(t, lines, "  "+UnverifiedClaimsLabel); got == "" {
			t.Errorf("%s: no claims under the token", name)
		}
		for _, want := range []string{`iss:   "https://idp.example"`, "sub:   " + Quote(hostile), `email: "alice@example.com"`, "user:  " + NameWithID("alice", "u-alice")} {
			if !strings.Contains(text, want) {
				t.Errorf("%s: lines lack %q:\n%s", name, want, text)
			}
		}
		if strings.ContainsAny(text, "\x1b") || strings.Contains(text, strings.Split(token, ".")[1]) || strings.Contains(text, tok) {
			t.Errorf("%s: lines carry the raw subject or the token:\n%s", name, text)
		}
		if plain := strings.Join(IntentLines(in), "\n"); strings.Contains(plain, "user:") || !strings.Contains(plain, Quote(hostile)) {
			t.Errorf("%s: without users, the subject and no user line:\n%s", name, plain)
		}
	}

	nobody := IntentLinesWithUsers(intentOf(t, TypeOauth, &OauthParams{OidcToken: jwtWith(t, map[string]any{"iss": "https://idp.example", "sub": "mallory"}), TargetPublicKey: "04ab"}), users)
	if got := lineWith(t, nobody, "    user:"); !strings.Contains(got, "no user of this organization") {
		t.Errorf("a subject no user is linked to: %q", got)
	}
	unreadable := IntentLines(intentOf(t, TypeOauth, &OauthParams{OidcToken: "a.b", TargetPublicKey: "04ab"}))
	if got := lineWith(t, unreadable, "  "+UnverifiedClaimsLabel); !strings.Contains(got, "unreadable") {
		t.Errorf("an unreadable token: %q", got)
	}
}
