package server

import (
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
)

// Every list and field of this MFA policy is within its own limit, so
// Validate passes it, but together they encode to more than the 1 MiB the
// service reads. The client refuses it before sending, saying how large it
// is, the limit, and which list to cut; nothing reaches the service.
func TestRequestOverBodyLimitIsRefusedBeforeSending(t *testing.T) {
	e := newEnv(t)
	p := api.CreateMfaPolicyParams{UserID: e.user("bob"), MfaPolicyName: "m", Condition: "true", Order: 0}
	for range api.MaxListItems {
		var step api.AuthenticationStep
		for j := range api.MaxListItems {
			step.Any = append(step.Any, api.AuthenticationMethod{Type: api.AuthAPIKey, ID: strings.Repeat("k", 95) + string(rune('a'+j%26))})
		}
		p.RequiredAuthenticationMethods = append(p.RequiredAuthenticationMethods, step)
	}
	if err := p.Validate(); err != nil {
		t.Fatalf("Validate refuses: %v", err)
	}
	params, _ := api.Marshal(p)
	_, err := e.clients["alice"].CreateMfaPolicy(ctxT(t), p)
	var ve *api.ValidationError
	if !errors.As(err, &ve) || errors.Is(err, api.ErrOutcomeUnknown) {
		t.Fatalf("a request over the body limit: got %v, want a validation error before sending", err)
	}
	msg := err.Error()
	t.Log(msg)
	for _, want := range []string{strconv.Itoa(api.MaxRequestBodyBytes), "requiredAuthenticationMethods (100 items"} {
		if !strings.Contains(msg, want) {
			t.Errorf("the error does not say %q: %s", want, msg)
		}
	}
	// The size given is the whole body's, which holds the parameters.
	size := 0
	for _, f := range strings.Fields(msg) {
		if n, err := strconv.Atoi(f); err == nil && n > len(params) {
			size = n
			break
		}
	}
	if size == 0 {
		t.Errorf("the error gives no encoded size of at least the parameters' %d bytes: %s", len(params), msg)
	}
	if acts, _ := e.clients["alice"].ListActivities(ctxT(t), api.ListActivitiesOptions{}); len(acts) != 0 {
		t.Fatalf("a request refused before sending created %d activities", len(acts))
	}
}

// A body over the limit that reaches the service (another client) is
// answered 413 with the limit and, when it declared its length, its size.
func TestBodyOverLimitReplySaysSizeAndLimit(t *testing.T) {
	e := newEnv(t)
	big := e.body(api.TypeCreateSmartContractInterface, map[string]any{"label": strings.Repeat("x", api.MaxRequestBodyBytes)}, nil)
	r := e.post(e.submitPath("create_smart_contract_interface"), big, e.keys["alice"])
	wantError(t, r, 413, api.CodeInvalidArgument, "REQUEST_TOO_LARGE")
	for _, want := range []string{strconv.Itoa(len(big)), strconv.Itoa(api.MaxRequestBodyBytes)} {
		if !strings.Contains(string(r.body), want) {
			t.Errorf("the 413 does not say %s: %s", want, r.body)
		}
	}
}
