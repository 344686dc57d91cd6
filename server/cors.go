package server

import (
	"net/http"
	"strings"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/keys"
)

// Browsers call both listeners: web login kits the auth proxy, and web apps
// the stamped API (the official browser clients stamp with a passkey or a
// key held in the page). Any origin may read the replies: the only
// credentials are the stamp and config id headers, which a page must hold
// to send; no cookie is read or set, so credentials are never allowed (no
// Access-Control-Allow-Credentials) and a page learns nothing it could not
// fetch without a browser.

// proxyAllowedHeaders are the request headers a browser login kit sends to
// the auth proxy: its POST is preflighted for the config id header.
var proxyAllowedHeaders = []string{"Content-Type", api.AuthProxyConfigIDHeader, "X-Client-Version"}

// apiAllowedHeaders are the request headers a browser client sends to the
// stamped API: a stamp of either kind.
var apiAllowedHeaders = []string{"Content-Type", keys.HeaderStamp, keys.HeaderStampWebAuthn, "X-Client-Version"}

// preflightMaxAge is how long, in seconds, a browser may keep a preflight's
// answer (browsers cap it at 2 hours at most).
const preflightMaxAge = "7200"

// exposedHeaders are the reply headers beyond CORS's safe list that a page
// needs: when to retry a refusal, and the service's clock (a stamp's
// timestamp is judged by it).
var exposedHeaders = []string{"Retry-After", "Date"}

// withCORS lets pages of any origin read h's replies, error replies
// included, so that a web client can show why it was refused.
func withCORS(h http.Handler) http.Handler {
	expose := strings.Join(exposedHeaders, ", ")
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Access-Control-Allow-Origin", "*")
		w.Header().Set("Access-Control-Expose-Headers", expose)
		h.ServeHTTP(w, r)
	})
}

// preflight answers a browser's CORS preflight (OPTIONS) for a route taking
// method with headers: 204.
func preflight(method string, headers []string) http.HandlerFunc {
	return func(w http.ResponseWriter, _ *http.Request) {
		h := w.Header()
		h.Set("Allow", "OPTIONS, "+method)
		h.Set("Access-Control-Allow-Methods", method)
		if len(headers) > 0 {
			h.Set("Access-Control-Allow-Headers", strings.Join(headers, ", "))
		}
		h.Set("Access-Control-Max-Age", preflightMaxAge)
		w.WriteHeader(http.StatusNoContent)
	}
}
