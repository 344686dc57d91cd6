package profile

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"

	"github.com/vigil-console/vigil/keys"
)

// ShowURL is s, a service URL from a config or a flag, as an error gives
// it: quoted, without the user info (user:password@), query and fragment,
// which may hold a secret (a proxy's password, ?token=…) that must not reach
// the terminal or a CI log.
func ShowURL(s string) string {
	if keys.URLHoldsSecret(s) {
		return fmt.Sprintf("(a URL of %d characters, not shown: part of it looks like a private key)", len(s))
	}
	u, err := url.Parse(s)
	if err != nil {
		if strings.ContainsAny(s, "@?#") {
			return fmt.Sprintf("(a URL of %d characters, not shown: it may carry credentials)", len(s))
		}
		return strconv.Quote(s)
	}
	cut := u.User != nil || u.RawQuery != "" || u.ForceQuery || u.Fragment != ""
	v := *u
	v.User, v.RawQuery, v.ForceQuery, v.Fragment, v.RawFragment = nil, "", false, "", ""
	shown := s
	if cut {
		shown = v.String()
	}
	// Without "//" ("https:ops:pw@host", "ops:pw@host") url.Parse sees no
	// user info, only an opaque part or a path: an "@", "?" or "#" left in
	// what would be shown may still sit next to a secret.
	if strings.ContainsAny(shown, "@?#") {
		return fmt.Sprintf("(a URL of %d characters, not shown: it has an \"@\", \"?\" or \"#\" outside its host and may carry credentials)", len(s))
	}
	if cut {
		return strconv.Quote(shown) + " (its credentials, query and fragment not shown)"
	}
	return strconv.Quote(s)
}
