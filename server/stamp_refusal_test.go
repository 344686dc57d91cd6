package server

import (
	"encoding/base64"
	"encoding/json"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/keys"
)

// alteredStamp is st's stamp with one JSON field replaced, or, with field
// empty, st's stamp over other bytes than the body sent.
type alteredStamp struct {
	st           keys.Stamper
	field, value string
}

func (a alteredStamp) Stamp(body []byte) (string, string, error) {
	if a.field == "" {
		return a.st.Stamp(append([]byte(a.value), body...))
	}
	name, value, err := a.st.Stamp(body)
	if err != nil {
		return "", "", err
	}
	raw, err := base64.RawURLEncoding.DecodeString(value)
	if err != nil {
		return "", "", err
	}
	var m map[string]string
	if err := json.Unmarshal(raw, &m); err != nil {
		return "", "", err
	}
	m[a.field] = a.value
	j, err := json.Marshal(m)
	if err != nil {
		return "", "", err
	}
	return name, base64.RawURLEncoding.EncodeToString(j), nil
}

// A stamp refused before the body is read must not be said not to verify
// over the body: the user would look for a difference in bytes that are not
// the problem. One refused over the body says so.
func TestStampRefusalSaysWhatFailed(t *testing.T) {
	e := newEnv(t)
	alice := e.keys["alice"]
	for _, c := range []struct {
		name        string
		st          alteredStamp
		want        []string
		overTheBody bool
	}{
		{"unknown scheme", alteredStamp{alice, "scheme", "SIGNATURE_SCHEME_TK_API_FOO"},
			[]string{"unknown signature scheme", "SIGNATURE_SCHEME_TK_API_FOO"}, false},
		{"signature not DER", alteredStamp{alice, "signature", "0001"}, []string{"malformed signature", "DER"}, false},
		{"public key not hex", alteredStamp{alice, "publicKey", "zz"}, []string{"bad public key", "not hex"}, false},
		{"signed other bytes", alteredStamp{alice, "", " "}, []string{"signature does not verify"}, true},
	} {
		r := e.post(api.QueryPrefix+api.QueryWhoami, whoamiBody(e.org.ID), c.st)
		if r.status != 401 || len(r.err.Details) == 0 || r.err.Details[0].ErrorCode != "INVALID_STAMP" {
			t.Errorf("%s: HTTP %d %s, want 401 INVALID_STAMP", c.name, r.status, r.body)
			continue
		}
		msg := r.err.Message
		for _, w := range c.want {
			if !strings.Contains(msg, w) {
				t.Errorf("%s: message %q does not say %q", c.name, msg, w)
			}
		}
		if got := strings.Contains(msg, "over this request body"); got != c.overTheBody {
			t.Errorf("%s: message %q blames the body: %v, want %v", c.name, msg, got, c.overTheBody)
		}
	}
}
