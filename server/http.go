package server

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/vigil-console/vigil/api"
)

// Handler serves the service API: submits, queries and the webhook JWKS.
func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("POST "+api.SubmitPrefix+"{op}", s.handleSubmit)
	mux.HandleFunc("POST "+api.QueryPrefix+"{op}", s.handleQuery)
	mux.HandleFunc("GET "+api.JWKSPath, s.handleJWKS)
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		s.writeError(w, r, notFoundf("NOT_FOUND", "no such endpoint: %s %s; operations are POST %s<op> and POST %s<op>",
			r.Method, r.URL.Path, api.SubmitPrefix, api.QueryPrefix))
	})
	return mux
}

// AuthProxyHandler serves the auth proxy: POST /v1/wallet_kit_config,
// authenticated only by the X-Auth-Proxy-Config-Id header.
func (s *Server) AuthProxyHandler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("POST "+api.WalletKitConfigPath, s.handleWalletKitConfig)
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		s.writeError(w, r, notFoundf("NOT_FOUND", "no such endpoint: %s %s; the auth proxy serves POST %s",
			r.Method, r.URL.Path, api.WalletKitConfigPath))
	})
	return mux
}

// readBody reads at most api.MaxRequestBodyBytes; anything larger is a 413.
func readBody(w http.ResponseWriter, r *http.Request) ([]byte, error) {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, api.MaxRequestBodyBytes))
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return nil, tooLarge(api.MaxRequestBodyBytes)
		}
		return nil, invalidf("BAD_BODY", "could not read the request body: %v", err)
	}
	return body, nil
}

func (s *Server) handleSubmit(w http.ResponseWriter, r *http.Request) {
	op, ok := api.OperationByPath(r.PathValue("op"))
	if !ok {
		s.writeError(w, r, invalidf("UNKNOWN_OPERATION", "unknown submit operation %q; see SPEC.md for the list", r.PathValue("op")))
		return
	}
	body, err := readBody(w, r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	act, err := s.submitRequest(r.Context(), r.Header, op, body)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	s.writeJSON(w, api.ActivityResponse{Activity: act})
}

// submitRequest authenticates and runs one submit, as received over HTTP.
func (s *Server) submitRequest(ctx context.Context, h http.Header, op api.Operation, body []byte) (api.Activity, error) {
	st, err := s.parseStampHeaders(h, body)
	if err != nil {
		return api.Activity{}, err
	}
	head, err := peekEnvelope(body)
	if err != nil {
		return api.Activity{}, err
	}
	c, err := s.authenticate(ctx, st, body, head.OrganizationID)
	if err != nil {
		return api.Activity{}, err
	}
	if err := s.checkTimestamp(head.TimestampMs); err != nil {
		return api.Activity{}, err
	}
	env, params, err := decodeEnvelope(op, body)
	if err != nil {
		return api.Activity{}, err
	}
	return s.submit(ctx, c, op, env, params, body)
}

func (s *Server) handleQuery(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("op")
	q, ok := queryHandlers[name]
	if !ok {
		s.writeError(w, r, invalidf("UNKNOWN_OPERATION", "unknown query operation %q; see SPEC.md for the list", name))
		return
	}
	body, err := readBody(w, r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	st, err := s.parseStampHeaders(r.Header, body)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	head, err := peekEnvelope(body)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	c, err := s.authenticate(r.Context(), st, body, head.OrganizationID)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	reply, err := q(s, r.Context(), c, body)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	s.writeJSON(w, reply)
}

func (s *Server) handleJWKS(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Cache-Control", api.JWKSCacheControl)
	s.writeJSON(w, s.hooks.jwks())
}

func (s *Server) handleWalletKitConfig(w http.ResponseWriter, r *http.Request) {
	body, err := readBody(w, r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	if len(bytes.TrimSpace(body)) > 0 {
		var empty struct{}
		if err := strictDecode(body, &empty); err != nil {
			s.writeError(w, r, invalidf("BAD_BODY", "the wallet_kit_config body must be an empty JSON object: %v", err))
			return
		}
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
	b, err := json.Marshal(v)
	if err != nil {
		s.log.Error("encode reply", "err", err)
		http.Error(w, `{"code":13,"message":"internal error"}`, http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Write(b)
}

func (s *Server) writeError(w http.ResponseWriter, r *http.Request, err error) {
	e, known := asError(err)
	if known {
		s.log.Info("request refused", "path", r.URL.Path, "status", e.Status, "errorCode", e.ErrorCode, "message", e.Message)
	} else {
		s.log.Error("request failed", "path", r.URL.Path, "err", err)
	}
	b, _ := json.Marshal(e.Body())
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(e.Status)
	w.Write(b)
}

// strictDecode decodes one JSON value, refusing unknown fields and trailing data.
func strictDecode(body []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return describeJSONError(err)
	}
	if dec.More() {
		return errors.New("unexpected data after the JSON object")
	}
	return nil
}

// describeJSONError names the field behind a decoding error where it can.
func describeJSONError(err error) error {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		field := te.Field
		if field == "" {
			field = "(top level)"
		}
		return fmt.Errorf("field %s: expected %s, got JSON %s", field, te.Type, te.Value)
	}
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return fmt.Errorf("malformed JSON at byte %d: %v", se.Offset, err)
	}
	msg := err.Error()
	if f, ok := strings.CutPrefix(msg, "json: unknown field "); ok {
		return fmt.Errorf("unknown field %s", f)
	}
	if errors.Is(err, io.EOF) {
		return errors.New("empty body; send a JSON object")
	}
	return err
}

// envelopeHead is what is needed from a body before it is authenticated.
type envelopeHead struct {
	OrganizationID string `json:"organizationId"`
	TimestampMs    string `json:"timestampMs"`
}

func peekEnvelope(body []byte) (envelopeHead, error) {
	var h envelopeHead
	if err := json.Unmarshal(body, &h); err != nil {
		return h, invalidf("MALFORMED_JSON", "request body is not a JSON object: %v", describeJSONError(err))
	}
	if h.OrganizationID == "" {
		return h, invalidf("MISSING_FIELD", "organizationId is required")
	}
	return h, nil
}
