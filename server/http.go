package server

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/vigil-console/vigil/api"
)

// Handler serves the service API: submits, queries and the webhook JWKS, to
// browsers too (CORS, see withCORS).
func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("POST "+api.SubmitPrefix+"{op}", s.handleSubmit)
	mux.HandleFunc("POST "+api.QueryPrefix+"{op}", s.handleQuery)
	mux.HandleFunc("GET "+api.JWKSPath, s.handleJWKS)
	mux.HandleFunc("OPTIONS "+api.SubmitPrefix+"{op}", preflight(http.MethodPost, apiAllowedHeaders))
	mux.HandleFunc("OPTIONS "+api.QueryPrefix+"{op}", preflight(http.MethodPost, apiAllowedHeaders))
	mux.HandleFunc("OPTIONS "+api.JWKSPath, preflight(http.MethodGet, nil))
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		switch {
		case isOperationPath(r.URL.Path, api.SubmitPrefix), isOperationPath(r.URL.Path, api.QueryPrefix):
			s.methodNotAllowed(w, r, http.MethodPost)
		case r.URL.Path == api.JWKSPath:
			s.methodNotAllowed(w, r, http.MethodGet, http.MethodHead)
		default:
			s.writeError(w, r, notFoundf("NOT_FOUND", "no such endpoint: %s %s; operations are POST %s<op> and POST %s<op>",
				r.Method, r.URL.Path, api.SubmitPrefix, api.QueryPrefix))
		}
	})
	return s.dated(withCORS(mux))
}

// AuthProxyHandler serves the auth proxy: POST /v1/wallet_kit_config,
// authenticated only by the X-Auth-Proxy-Config-Id header, to browsers too
// (CORS, see withCORS).
func (s *Server) AuthProxyHandler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("POST "+api.WalletKitConfigPath, s.handleWalletKitConfig)
	mux.HandleFunc("OPTIONS "+api.WalletKitConfigPath, preflight(http.MethodPost, proxyAllowedHeaders))
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == api.WalletKitConfigPath {
			s.methodNotAllowed(w, r, http.MethodPost)
			return
		}
		s.writeError(w, r, notFoundf("NOT_FOUND", "no such endpoint: %s %s; the auth proxy serves POST %s",
			r.Method, r.URL.Path, api.WalletKitConfigPath))
	})
	return s.dated(withCORS(mux))
}

// dated sends the service's clock (Config.Now) as each reply's Date header,
// as a real service's Date is its own clock: clients judge the service's
// timestamps by it, so a service run on a skewed clock is seen as one.
// net/http keeps a Date that is already set.
func (s *Server) dated(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Date", s.now().UTC().Format(http.TimeFormat))
		h.ServeHTTP(w, r)
	})
}

// isOperationPath reports whether path is prefix followed by one path segment,
// the shape the POST routes match.
func isOperationPath(path, prefix string) bool {
	op, ok := strings.CutPrefix(path, prefix)
	return ok && op != "" && !strings.Contains(op, "/")
}

// methodNotAllowed is the 405 for a known endpoint called with another method;
// Allow lists the methods it takes.
func (s *Server) methodNotAllowed(w http.ResponseWriter, r *http.Request, allowed ...string) {
	w.Header().Set("Allow", strings.Join(allowed, ", "))
	s.writeError(w, r, newError(http.StatusMethodNotAllowed, api.CodeUnimplemented, "METHOD_NOT_ALLOWED",
		"method %s is not allowed on %s; use %s", r.Method, r.URL.Path, strings.Join(allowed, " or ")))
}

// readStamped parses the credential headers, then reads the body. A request
// refused for its credential alone (none, two, or one that does not parse) is
// answered as when the body was read first — a 413 or a broken body's 400
// before the credential's 401 — but its body is discarded as it arrives, not
// held. A well-formed credential whose key (or passkey) is registered nowhere
// has its body held within a budget apart (s.strangers): anyone can make
// one, and it is refused whatever its body, so it never waits for, or makes
// wait, the members' bodies. Release the returned hold once the request is
// answered.
func (s *Server) readStamped(w http.ResponseWriter, r *http.Request) (stampHeader, []byte, bodyHold, error) {
	st, err := s.parseStampHeaders(r.Header)
	if err != nil {
		if bodyErr := discardBody(w, r); bodyErr != nil {
			return stampHeader{}, nil, bodyHold{}, bodyErr
		}
		return stampHeader{}, nil, bodyHold{}, err
	}
	budget := s.strangers
	if s.registered(r.Context(), st) {
		budget = s.bodies
	}
	body, hold, err := readBody(w, r, budget)
	return st, body, hold, err
}

// registered reports whether the credential's key is a registered API key
// that has not expired, or its passkey a registered authenticator, of any
// organization: through the auth cache, a map lookup for the keys in use. A
// key that has expired everywhere is refused by authenticate whatever the
// organization (expired, or foreign), so it counts as registered nowhere.
// Which organization, and whether the signature holds, is for authenticate
// once the body is in.
func (s *Server) registered(ctx context.Context, st stampHeader) bool {
	if st.webAuthn {
		ok, err := s.passkeyRegistered(ctx, st.credentialID)
		return err == nil && ok
	}
	ks, err := s.apiKeys(ctx, st.parsed.PublicKey())
	if err != nil {
		return false
	}
	return slices.ContainsFunc(ks, func(k apiKeyEntry) bool { return !s.expired(k) })
}

func (s *Server) handleSubmit(w http.ResponseWriter, r *http.Request) {
	op, ok := api.OperationByPath(r.PathValue("op"))
	if !ok {
		s.writeError(w, r, invalidf("UNKNOWN_OPERATION", "unknown submit operation %q; the operations are listed in docs/local-service.md (Operations)", r.PathValue("op")))
		return
	}
	st, body, hold, err := s.readStamped(w, r)
	defer hold.release()
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	act, err := s.submitRequest(r.Context(), st, op, body)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	s.writeJSON(w, api.ActivityResponse{Activity: act})
}

// submitRequest authenticates and runs one submit, as received over HTTP,
// whose credential headers parsed as st.
func (s *Server) submitRequest(ctx context.Context, st stampHeader, op api.Operation, body []byte) (api.Activity, error) {
	req, act, err := s.admitSubmit(ctx, st, op, body)
	if req == nil {
		return act, err
	}
	return s.runSubmit(ctx, req)
}

// admittedSubmit is a submit that authenticated and decoded, on its way to
// the writer.
type admittedSubmit struct {
	st      stampHeader
	op      api.Operation
	body    []byte
	checked api.StrictBody
	head    envelopeHead
	c       *caller
	env     api.ActivityRequest
	params  any
}

// admitSubmit checks a submit's stamp, credential, timestamp and body. A
// request it does not admit (nil) is answered with its activity and error:
// a refusal, or the recorded activity of a lost reply's resend.
func (s *Server) admitSubmit(ctx context.Context, st stampHeader, op api.Operation, body []byte) (*admittedSubmit, api.Activity, error) {
	if err := st.verifyBody(body); err != nil {
		return nil, api.Activity{}, err
	}
	checked, head, err := peekEnvelope(body)
	if err != nil {
		return nil, api.Activity{}, err
	}
	c, err := s.authenticate(ctx, st, body, head.OrganizationID)
	if err != nil {
		act, err := s.recordedResend(ctx, st, op, checked, head, body, err)
		return nil, act, err
	}
	if err := s.checkTimestamp(head.TimestampMs); err != nil {
		return nil, api.Activity{}, err
	}
	env, params, err := decodeEnvelope(op, checked)
	if err != nil {
		return nil, api.Activity{}, err
	}
	return &admittedSubmit{st: st, op: op, body: body, checked: checked, head: head, c: c, env: env, params: params}, api.Activity{}, nil
}

// runSubmit executes an admitted submit in the writer.
func (s *Server) runSubmit(ctx context.Context, r *admittedSubmit) (api.Activity, error) {
	act, err := s.submit(ctx, r.c, r.op, r.env, r.params, r.body)
	var refused *Error
	if errors.As(err, &refused) && refused.Status == http.StatusUnauthorized {
		// The credential was deleted or expired while the request waited
		// for the writer: the same refusal, and the same lost-reply
		// exception, as at authentication.
		return s.recordedResend(ctx, r.st, r.op, r.checked, r.head, r.body, err)
	}
	return act, err
}

func (s *Server) handleQuery(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("op")
	q, ok := queryHandlers[name]
	if !ok {
		s.writeError(w, r, invalidf("UNKNOWN_OPERATION", "unknown query operation %q; the queries are listed in docs/local-service.md (Operations)", name))
		return
	}
	st, body, hold, err := s.readStamped(w, r)
	defer hold.release()
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	if err := st.verifyBody(body); err != nil {
		s.writeError(w, r, err)
		return
	}
	checked, head, err := peekEnvelope(body)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	c, err := s.authenticate(r.Context(), st, body, head.OrganizationID)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	reply, err := q(s, r.Context(), c, checked)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	if streamed, ok := reply.(streamedReply); ok {
		s.writeStreamed(w, r, streamed)
		return
	}
	s.writeJSON(w, reply)
}

func (s *Server) handleJWKS(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Cache-Control", api.JWKSCacheControl)
	s.writeJSON(w, s.hooks.jwks())
}

func (s *Server) handleWalletKitConfig(w http.ResponseWriter, r *http.Request) {
	// Its body is an empty object: a longer one is refused as any other
	// that is not one (400), read to its end but not held.
	body, hold, err := readBodyUpTo(w, r, s.proxyBodies, maxProxyBody)
	defer hold.release()
	if errors.Is(err, errBodyOverKeep) {
		err = invalidf("BAD_BODY", "the wallet_kit_config body must be an empty JSON object; this one is longer than the %d bytes one may be", maxProxyBody)
	}
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	if trimmed := bytes.TrimSpace(body); len(trimmed) > 0 {
		var empty struct{}
		err := api.StrictUnmarshal(body, &empty)
		if err == nil && trimmed[0] != '{' { // null decodes into a struct too
			err = errors.New("it is not an object")
		}
		if err != nil {
			s.writeError(w, r, invalidf("BAD_BODY", "the wallet_kit_config body must be an empty JSON object: %v", err))
			return
		}
	}
	// The header is the only credential: two of them are refused, as two
	// stamps are, so that which one counts cannot depend on their order.
	ids := r.Header.Values(api.AuthProxyConfigIDHeader)
	if len(ids) > 1 {
		s.writeError(w, r, unauthenticatedf("AMBIGUOUS_AUTH_PROXY_CONFIG_ID", "%d %s headers; send exactly one", len(ids), api.AuthProxyConfigIDHeader))
		return
	}
	id := r.Header.Get(api.AuthProxyConfigIDHeader)
	if id == "" {
		s.writeError(w, r, unauthenticatedf("MISSING_AUTH_PROXY_CONFIG_ID", "missing %s header; send your auth proxy configuration id", api.AuthProxyConfigIDHeader))
		return
	}
	cfg, err := s.walletKitConfig(r.Context(), id)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	s.writeJSON(w, cfg)
}

func (s *Server) writeJSON(w http.ResponseWriter, v any) {
	if raw, ok := v.(encodedReply); ok { // already encoded as api.Marshal would
		writeBody(w, raw)
		return
	}
	b, err := api.Marshal(v)
	if err != nil {
		s.log.Error("encode reply", "err", err)
		http.Error(w, `{"code":13,"message":"internal error"}`, http.StatusInternalServerError)
		return
	}
	writeBody(w, b)
}

// writeBody sends a JSON reply with its length, so that net/http sends it
// as it is rather than in chunks.
func writeBody(w http.ResponseWriter, b []byte) {
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("Content-Length", strconv.Itoa(len(b)))
	w.Write(b)
}

func (s *Server) writeError(w http.ResponseWriter, r *http.Request, err error) {
	e, known := asError(err)
	// The path is the caller's, as long as a request line may be: cut like
	// the values messages quote (messagef), so a refusal's log line stays short.
	path := truncateForMessage(r.URL.Path)
	if known {
		s.log.Info("request refused", "path", path, "status", e.Status, "errorCode", e.ErrorCode, "message", e.Message)
	} else {
		s.log.Error("request failed", "path", path, "err", err)
	}
	b, _ := api.Marshal(e.Body())
	if e.RetryAfter > 0 {
		w.Header().Set("Retry-After", strconv.Itoa(e.RetryAfter))
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(e.Status)
	w.Write(b)
}

// bodyError is the 400 reply for a body the strict reader refused
// (api.CheckStrict, api.StrictBody.Unmarshal).
func bodyError(err error) error {
	var se *api.StrictJSONError
	if errors.As(err, &se) {
		switch se.Kind {
		case api.JSONUnknownField, api.JSONWrongType:
			// The errorCode these had before the strict reader; kept for clients.
		default:
			return invalidf(se.Kind, "request body: %v", se)
		}
	}
	return invalidf("INVALID_REQUEST", "request body: %v", err)
}

// envelopeHead is what is needed from a body before it is authenticated.
type envelopeHead struct {
	OrganizationID string
	TimestampMs    string
}

// peekEnvelope checks body strictly, once for the whole request (the
// api.StrictBody it returns is what the request is decoded from), and reads
// organizationId and timestampMs by their exact keys: the reader that
// authenticates a request sees the same request as the one that executes it.
func peekEnvelope(body []byte) (api.StrictBody, envelopeHead, error) {
	var h envelopeHead
	if len(bytes.TrimSpace(body)) == 0 {
		return api.StrictBody{}, h, invalidf("MALFORMED_JSON", "request body is empty; send a JSON object")
	}
	checked, err := api.CheckStrict(body)
	if err != nil {
		return api.StrictBody{}, h, bodyError(err)
	}
	members, ok := checked.Members()
	if !ok {
		return api.StrictBody{}, h, invalidf("MALFORMED_JSON", "request body is not a JSON object; send one")
	}
	for _, f := range []struct {
		key string
		dst *string
	}{{"organizationId", &h.OrganizationID}, {"timestampMs", &h.TimestampMs}} {
		i, found := slices.BinarySearchFunc(members, f.key, func(m api.Member, k string) int { return strings.Compare(m.Key, k) })
		if !found {
			for _, m := range members {
				if strings.EqualFold(m.Key, f.key) {
					return api.StrictBody{}, h, invalidf(api.JSONKeyCase, "request body: key %s is not a field; field names are case-sensitive: use %q", strconv.QuoteToASCII(m.Key), f.key)
				}
			}
			continue
		}
		s, ok := api.StringValue(members[i].Value)
		if !ok {
			return api.StrictBody{}, h, invalidf("INVALID_REQUEST", "request body: %s must be a string", f.key)
		}
		*f.dst = s
	}
	if h.OrganizationID == "" {
		return api.StrictBody{}, h, invalidf("MISSING_FIELD", "organizationId is required")
	}
	return checked, h, nil
}
