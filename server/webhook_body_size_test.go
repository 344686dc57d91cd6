package server

import (
	"encoding/json"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/webhook"
)

// boundedReceiver reads at most webhook.MaxBodyBytes as the docs' receiver
// does, verifies the delivery with the service's published keys, and keeps
// the verified bodies by event id.
type boundedReceiver struct {
	*hookReceiver
	mu        sync.Mutex
	bodies    map[string][]byte
	verifyErr error
}

func newBoundedReceiver(t *testing.T, e *testEnv) *boundedReceiver {
	t.Helper()
	jwks := webhook.NewJWKSCache(e.http.URL+api.JWKSPath, nil, nil)
	br := &boundedReceiver{bodies: map[string][]byte{}}
	br.hookReceiver = newHookReceiver(t, func(r *http.Request, body []byte) int {
		if len(body) > webhook.MaxBodyBytes {
			return http.StatusRequestEntityTooLarge
		}
		d, err := webhook.VerifyForOrganization(r.Context(), e.org.ID, r.Header, body, jwks, time.Now(), 0)
		br.mu.Lock()
		defer br.mu.Unlock()
		if err != nil {
			br.verifyErr = err
			return http.StatusUnauthorized
		}
		br.bodies[d.EventID] = body
		return http.StatusNoContent
	})
	return br
}

func (br *boundedReceiver) body(t *testing.T, eventID string) []byte {
	t.Helper()
	br.waitDelivered(t, eventID)
	br.mu.Lock()
	defer br.mu.Unlock()
	if br.verifyErr != nil {
		t.Fatalf("a delivery does not verify: %v", br.verifyErr)
	}
	return br.bodies[eventID]
}

// The signed body of an event is the activity exactly as get_activity
// returns it: '<' '>' '&' are not HTML-escaped into six bytes each, so an
// activity full of them stays within the bound a receiver reads, and is
// delivered rather than refused as too large.
func TestWebhookBodyIsTheActivityAsGetActivityReturnsIt(t *testing.T) {
	e := newEnvWith(t, envOptions{threshold: 1})
	rc := newBoundedReceiver(t, e)
	alice := e.clients["alice"]
	mustComplete(t)(alice.SetOrganizationFeature(ctxT(t), api.SetOrganizationFeatureParams{Name: api.FeatureWebhook, Value: rc.url}))

	abi := `"` + strings.Repeat("<&>", (api.MaxSmartContractInterfaceBytes-2)/3) + `"`
	a := mustComplete(t)(alice.CreateSmartContractInterface(ctxT(t), api.CreateSmartContractInterfaceParams{
		SmartContractAddress: "0xabc", SmartContractInterface: abi, Type: api.SmartContractInterfaceTypes()[0], Label: "big"}))
	body := rc.body(t, completedEvent(a))

	q, _ := json.Marshal(map[string]any{"organizationId": e.org.ID, "activityId": a.ID})
	g := e.post("/public/v1/query/get_activity", q, e.keys["alice"])
	var reply struct {
		Activity json.RawMessage `json:"activity"`
	}
	if err := json.Unmarshal(g.body, &reply); g.status != 200 || err != nil {
		t.Fatalf("get_activity: HTTP %d, %v", g.status, err)
	}
	if string(body) != string(reply.Activity) {
		t.Fatalf("the webhook body (%d bytes) is not the activity get_activity returns (%d bytes)", len(body), len(reply.Activity))
	}
	waitOutbox(t, e.srv, WebhookOutboxStats{})
}

// The largest request the service accepts, made of the characters its
// encoding lengthens most (U+2028, 3 bytes sent, \u2028 in JSON), gives a
// body within webhook.MaxBodyBytes, which a receiver reading that much
// accepts. The request is an MFA policy pinned to thousands of such ids for a
// user who is not the organization's: the service takes it (pins are judged
// only against an existing user's credentials) and the activity fails at
// execution, so its body carries the whole intent and a failure message too.
func TestWebhookBodyOfTheLargestRequestIsWithinMaxBodyBytes(t *testing.T) {
	e := newEnvWith(t, envOptions{threshold: 1})
	rc := newBoundedReceiver(t, e)
	alice := e.clients["alice"]
	mustComplete(t)(alice.SetOrganizationFeature(ctxT(t), api.SetOrganizationFeatureParams{Name: api.FeatureWebhook, Value: rc.url}))

	p := api.CreateMfaPolicyParams{UserID: "not-a-user-of-this-organization", MfaPolicyName: "m", Condition: "true", Order: 0}
	for range api.MaxListItems {
		var step api.AuthenticationStep
		for j := range 36 {
			step.Any = append(step.Any, api.AuthenticationMethod{Type: api.AuthAPIKey, ID: strings.Repeat("\u2028", 80) + string(rune('a'+j%26))})
		}
		p.RequiredAuthenticationMethods = append(p.RequiredAuthenticationMethods, step)
	}
	// Sent raw, as a client may: 3 bytes each on the wire, 6 in the body.
	raw := []byte(strings.ReplaceAll(string(e.body(api.TypeCreateMfaPolicy, p, nil)), `\u2028`, "\u2028"))
	if len(raw) > api.MaxRequestBodyBytes || len(raw) < api.MaxRequestBodyBytes*9/10 {
		t.Fatalf("the request is %d bytes, not close under the %d-byte limit: adjust the test", len(raw), api.MaxRequestBodyBytes)
	}
	r := e.post(e.submitPath("create_mfa_policy"), raw, e.keys["alice"])
	if r.status != 200 || r.act.Status != api.StatusFailed {
		t.Fatalf("create_mfa_policy: HTTP %d %s %+v", r.status, r.act.Status, r.err)
	}
	a := r.act
	body := rc.body(t, a.ID+":"+a.Status)
	t.Logf("parameters %d bytes sent raw; webhook body %d bytes", len(raw), len(body))
	if len(body) <= len(raw) {
		t.Fatalf("the body (%d bytes) did not grow from the request (%d bytes): the test does not exercise the worst case", len(body), len(raw))
	}
	waitOutbox(t, e.srv, WebhookOutboxStats{})
}

// A receiver that refuses a delivery as too large (413, its bound below
// webhook.MaxBodyBytes) does not lose the event: the service logs it at
// ERROR with the event id and retries, so once the receiver reads more the
// event arrives.
func TestWebhookRefusedAsTooLargeIsRetriedAndLogged(t *testing.T) {
	logs := &logBuffer{}
	e := newEnvWith(t, envOptions{threshold: 1, log: logs, webhooks: WebhookOptions{
		Delivery: webhook.DelivererOptions{BaseBackoff: 5 * time.Millisecond, MaxBackoff: 10 * time.Millisecond, MaxAttempts: 2},
	}})
	var mu sync.Mutex
	refused := map[string]bool{}
	rc := newHookReceiver(t, func(r *http.Request, body []byte) int {
		mu.Lock()
		defer mu.Unlock()
		id := r.Header.Get(webhook.HeaderEventID)
		if !refused[id] { // its bound is too small, then its operator raises it
			refused[id] = true
			return http.StatusRequestEntityTooLarge
		}
		return http.StatusNoContent
	})
	a := mustComplete(t)(e.clients["alice"].SetOrganizationFeature(ctxT(t), api.SetOrganizationFeatureParams{Name: api.FeatureWebhook, Value: rc.url}))
	rc.waitDelivered(t, completedEvent(a))
	waitOutbox(t, e.srv, WebhookOutboxStats{})
	for _, line := range strings.Split(logs.String(), "\n") {
		if strings.Contains(line, "level=ERROR") && strings.Contains(line, "too large") && strings.Contains(line, completedEvent(a)) {
			return
		}
	}
	t.Fatalf("no ERROR naming the event %s refused as too large:\n%s", completedEvent(a), logs.String())
}
