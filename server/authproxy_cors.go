package server

import (
	"net/http"
	"strings"

	"github.com/vigil-console/vigil/api"
)

// proxyAllowedHeaders are the request headers a browser login kit sends to
// the auth proxy: its POST is preflighted for the config id header.
var proxyAllowedHeaders = []string{"Content-Type", api.AuthProxyConfigIDHeader, "X-Client-Version"}

// proxyPreflightMaxAge is how long, in seconds, a browser may keep a
// preflight's answer (browsers cap it at 2 hours at most).
const proxyPreflightMaxAge = "7200"

// withProxyCORS lets browser login kits read the auth proxy's replies, error
// replies included, from any origin: the real proxy's allowed origins default
// to "*", and the local configurations set none. Any origin is safe here:
// the config id header is the only credential, and no cookie is read or set,
// so credentials are never allowed (no Access-Control-Allow-Credentials) and
// a page learns nothing it could not fetch without a browser.
func withProxyCORS(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Access-Control-Allow-Origin", "*")
		h.ServeHTTP(w, r)
	})
}

// handleProxyPreflight answers a browser's CORS preflight (OPTIONS) for the
// auth proxy's route: 204, allowing POST with the login kit's headers.
func (s *Server) handleProxyPreflight(w http.ResponseWriter, _ *http.Request) {
	h := w.Header()
	h.Set("Allow", "OPTIONS, POST")
	h.Set("Access-Control-Allow-Methods", http.MethodPost)
	h.Set("Access-Control-Allow-Headers", strings.Join(proxyAllowedHeaders, ", "))
	h.Set("Access-Control-Max-Age", proxyPreflightMaxAge)
	w.WriteHeader(http.StatusNoContent)
}
