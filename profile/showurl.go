package profile

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"
)

// ShowURL is s, a service URL from a config or a flag, as an error gives
// it: quoted, without the user info (user:password@), query and fragment,
// which may hold a secret (a proxy's password, ?token=…) that must not reach
// the terminal or a CI log.
func ShowURL(s string) string {
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
	if cut {
		return strconv.Quote(v.String()) + " (its credentials, query and fragment not shown)"
	}
	return strconv.Quote(s)
}
