package cli

import (
	"bytes"
	"encoding/json"

	"github.com/vigil-console/vigil/api"
)

// holdsOIDCToken reports whether an intent vigil shows field by field holds
// the string "oidcToken" (decoded, so an escaped spelling counts; as a value
// too, which costs only a list of users), so that the prompt lists the users
// to name the member its token is linked to.
func holdsOIDCToken(in api.Intent) bool {
	for _, raw := range in.Other {
		dec := json.NewDecoder(bytes.NewReader(raw))
		for {
			tok, err := dec.Token()
			if err != nil {
				break
			}
			if s, ok := tok.(string); ok && s == "oidcToken" {
				return true
			}
		}
	}
	return false
}
