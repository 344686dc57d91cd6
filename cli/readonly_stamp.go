package cli

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"unicode"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/keys"
	"github.com/vigil-console/vigil/profile"
)

// readOnlyStamper is the stamper of a read-only profile. A stamp signs the
// body, not the path, so the stamp of a body the service would take as an
// activity is a submit credential wherever it is sent or printed: this
// stamper refuses such bodies, whatever verb asks (profileStamper gives it to
// every one), so a new verb cannot submit through a read-only profile by
// sending its body to a query path.
type readOnlyStamper struct {
	keys.Stamper
	profile string
}

func (s readOnlyStamper) Stamp(body []byte) (string, string, error) {
	if err := queryOnlyBody(body); err != nil {
		return "", "", fmt.Errorf("profile %q is read-only (read_only = true) and stamps queries only: %w; nothing was stamped or sent; fix the body, or use a profile that may submit", s.profile, err)
	}
	return s.Stamper.Stamp(body)
}

// The optional methods of the stamper it wraps, which the console and the
// client ask for (the key shown, the same-signer check of a resend).

func (s readOnlyStamper) PublicKeyHex() string { return stamperPublicKey(s.Stamper) }
func (s readOnlyStamper) Kind() keys.Kind      { return keys.StamperKind(s.Stamper) }
func (s readOnlyStamper) Scheme() string       { return stamperScheme(s.Stamper) }

// envelopeMembers are the members that make a body an activity at a submit
// path (server: peekEnvelope, decodeEnvelope), compared by envelopeKey.
var envelopeMembers = []string{"type", "timestampms", "parameters"}

// queryOnlyBody refuses a body that a service could read as an activity: one
// that two parsers could read differently (duplicate keys, text that is not
// UTF-8, lone surrogates), one that is not a JSON object, and one with a
// member named like an activity envelope's at any depth, ignoring case
// (Go's encoding/json matches keys so, ſ and K included) and every character
// but letters and digits (timestamp_ms is the same field to a protobuf JSON
// reader). No query takes such a member, so nothing a query needs is lost.
func queryOnlyBody(body []byte) error {
	if err := api.CheckStrictJSON(body); err != nil {
		return fmt.Errorf("the body is not plain JSON that every reader sees alike: %w", err)
	}
	if _, ok := api.ObjectMembers(body); !ok {
		return errors.New("the body is not a JSON object, which every query takes")
	}
	d := json.NewDecoder(bytes.NewReader(body))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return fmt.Errorf("the body: %w", err)
	}
	if key, ok := envelopeKeyIn(v); ok {
		return fmt.Errorf("the body has the member %s, which makes it an activity (type, timestampMs, parameters) that a submit path would accept with this stamp", api.Quote(key))
	}
	return nil
}

// envelopeKeyIn finds a key of an activity envelope's member anywhere in v.
func envelopeKeyIn(v any) (string, bool) {
	switch v := v.(type) {
	case map[string]any:
		// In order, so the error names the same member every time.
		for _, k := range slices.Sorted(maps.Keys(v)) {
			for _, m := range envelopeMembers {
				if strings.EqualFold(envelopeKey(k), m) {
					return k, true
				}
			}
			if key, ok := envelopeKeyIn(v[k]); ok {
				return key, true
			}
		}
	case []any:
		for _, sub := range v {
			if key, ok := envelopeKeyIn(sub); ok {
				return key, true
			}
		}
	}
	return "", false
}

// envelopeKey is key with only its letters and digits.
func envelopeKey(key string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			return r
		}
		return -1
	}, key)
}

// readOnlyProfile is the name of the read-only profile that 'vigil stamp'
// would take the keys directory from ("" for none): such a profile makes no
// stamp that leaves vigil, as 'request --stamp-only' makes none. A profile
// that cannot be read is store's error to report.
func (f *keysDirFlags) readOnlyProfile(c proc) string {
	if f.dir != "" {
		return ""
	}
	p, err := profile.Select(c.getenv, f.config, f.profile, profileChecks())
	if err != nil || !p.ReadOnly {
		return ""
	}
	return p.Name
}
