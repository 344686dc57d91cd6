package proof

import "encoding/json"

// MaxShownConfig bounds a manifest's pivot env and dns where they are shown
// for people: they are approved (hashed) free-form JSON, and a hostile one
// could be as large as the manifest. --json keeps them whole.
const MaxShownConfig = 256

// configText is an optional v2 manifest value (pivot.env, dns) as compact
// JSON with sorted keys, the way it is hashed; "" when it is absent or null.
func configText(raw json.RawMessage) (string, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return "", nil
	}
	b, err := canonicalJSON(raw)
	if err != nil {
		return "", err
	}
	if string(b) == "null" {
		return "", nil
	}
	return string(b), nil
}
