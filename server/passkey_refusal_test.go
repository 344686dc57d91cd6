package server

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/keys"
)

// oddPasskey stamps as browserPasskey does, but with the clientDataJSON type
// typ, the authenticatorData flags, and the challenge of over (the body when
// nil).
type oddPasskey struct {
	*browserPasskey
	typ   string
	flags byte
	over  []byte
}

func (p oddPasskey) Stamp(body []byte) (string, string, error) {
	if p.over != nil {
		body = p.over
	}
	cd, err := json.Marshal(map[string]string{"type": p.typ, "challenge": browserChallenge(body), "origin": p.origin})
	if err != nil {
		return "", "", err
	}
	return p.assert(cd, p.flags, 0)
}

// A passkey stamp refused for what it is (not an assertion, no user
// presence, not even JSON) is said to be refused before its signature is
// checked, as an unusable X-Stamp is; only one made over other bytes is said
// not to verify over this request body, which sends the user looking at the
// body.
func TestPasskeyRefusalSaysWhetherTheStampOrTheBodyIsWrong(t *testing.T) {
	e := newEnv(t)
	p := newBrowserPasskey(t, "refusal-cred", "https://app.example.com", "app.example.com")
	body := []byte(`{"organizationId":"` + e.org.ID + `"}`)
	cases := []struct {
		name          string
		stamper       keys.Stamper
		want, notWant string
	}{
		{"a registration, not an assertion", oddPasskey{p, "webauthn.create", 0x01, nil}, "refused before its signature is checked", "over this request body"},
		{"user not present", oddPasskey{p, "webauthn.get", 0x00, nil}, "refused before its signature is checked", "over this request body"},
		{"not JSON", rawStamp{keys.HeaderStampWebAuthn, "{not json"}, "refused before its signature is checked", "over this request body"},
		{"made over other bytes", oddPasskey{p, "webauthn.get", 0x01, []byte(`{"other":1}`)}, "does not verify over this request body", "before its signature"},
	}
	for _, c := range cases {
		r := e.post(api.QueryPrefix+"list_activities", body, c.stamper)
		if r.status != 401 || !strings.Contains(r.err.Message, c.want) || strings.Contains(r.err.Message, c.notWant) {
			t.Errorf("%s: HTTP %d %q; want 401 saying %q", c.name, r.status, r.err.Message, c.want)
		}
	}
}

// rawStamp sends value as header, whatever the body.
type rawStamp struct{ header, value string }

func (s rawStamp) Stamp([]byte) (string, string, error) { return s.header, s.value, nil }
