package server

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/keys"
)

// TestBodiesAreReadOneWay sends signed bodies that encoding/json alone would
// read (keeping the last duplicate, folding case, replacing bad text with
// U+FFFD) and expects each refused with a 400 that names the problem, and no
// activity recorded.
func TestBodiesAreReadOneWay(t *testing.T) {
	e := newEnv(t)
	ts := strconv.FormatInt(time.Now().UnixMilli(), 10)
	org := e.org.ID
	policy := func(params string) string {
		return `{"type":"` + api.TypeCreatePolicyV3 + `","timestampMs":"` + ts + `","organizationId":"` + org + `","parameters":` + params + `}`
	}
	cases := []struct {
		name, path, body, errorCode, mention string
	}{
		{"duplicate nested key", e.submitPath("create_policy"),
			policy(`{"policyName":"p","effect":"EFFECT_DENY","effect":"EFFECT_ALLOW","condition":"true","notes":""}`), api.JSONDuplicateKey, `"effect"`},
		{"duplicate escaped key", e.submitPath("create_policy"),
			policy(`{"policyName":"p","effect":"EFFECT_DENY","\u0065ffect":"EFFECT_ALLOW","condition":"true","notes":""}`), api.JSONDuplicateKey, `"effect"`},
		{"duplicate top-level key", e.submitPath("create_policy"),
			`{"organizationId":"someone-else",` + policy(`{"policyName":"p","effect":"EFFECT_ALLOW","condition":"true","notes":""}`)[1:], api.JSONDuplicateKey, `"organizationId"`},
		{"duplicate query key", api.QueryPrefix + api.QueryGetUser,
			`{"organizationId":"` + org + `","userId":"a","userId":"` + e.user("bob") + `"}`, api.JSONDuplicateKey, `"userId"`},
		{"key differs in case", api.QueryPrefix + api.QueryWhoami,
			`{"organizationId":"` + org + `","OrganizationId":"` + org + `"}`, api.JSONKeyCase, `"OrganizationId"`},
		{"envelope key differs in case", e.submitPath("create_policy"),
			strings.Replace(policy(`{"policyName":"p","effect":"EFFECT_ALLOW","condition":"true","notes":""}`), `"timestampMs"`, `"TimestampMs"`, 1), api.JSONKeyCase, "timestampMs"},
		{"parameters key differs in case", e.submitPath("create_policy"),
			policy(`{"PolicyName":"p","effect":"EFFECT_ALLOW","condition":"true","notes":""}`), api.JSONKeyCase, `use "policyName"`},
		{"parameters key differs in case from one sent too", e.submitPath("create_policy"),
			policy(`{"policyName":"p","PolicyName":"q","effect":"EFFECT_ALLOW","condition":"true","notes":""}`), api.JSONKeyCase, `PolicyName is not a field; field names are case-sensitive, and "policyName" is sent too: remove this one`},
		{"envelope key differs in case from one sent too", e.submitPath("create_policy"),
			strings.Replace(policy(`{"policyName":"p","effect":"EFFECT_ALLOW","condition":"true","notes":""}`), `"type":`, `"Type":"x","type":`, 1), api.JSONKeyCase, `"type" is sent too: remove this one`},
		{"nested parameters key differs in case", e.submitPath("create_mfa_policy"),
			strings.Replace(policy(`{"userId":"`+e.user("bob")+`","mfaPolicyName":"m","condition":"true","order":0,"requiredAuthenticationMethods":[{"any":[{"Type":"AUTHENTICATION_TYPE_PASSKEY"}]}]}`), api.TypeCreatePolicyV3, api.TypeCreateMfaPolicy, 1),
			api.JSONKeyCase, `requiredAuthenticationMethods[0].any[0].Type is not a field; field names are case-sensitive: use "type"`},
		{"invalid UTF-8", e.submitPath("create_policy"),
			policy(`{"policyName":"p` + "\xff" + `","effect":"EFFECT_ALLOW","condition":"true","notes":""}`), api.JSONInvalidUTF8, "UTF-8"},
		{"lone high surrogate", e.submitPath("create_policy"),
			policy(`{"policyName":"p\ud800","effect":"EFFECT_ALLOW","condition":"true","notes":""}`), api.JSONLoneSurrogate, "D800"},
		{"lone low surrogate", e.submitPath("create_policy"),
			policy(`{"policyName":"p\udc00x","effect":"EFFECT_ALLOW","condition":"true","notes":""}`), api.JSONLoneSurrogate, "DC00"},
		{"reversed surrogates", e.submitPath("create_policy"),
			policy(`{"policyName":"\udc00\ud800","effect":"EFFECT_ALLOW","condition":"true","notes":""}`), api.JSONLoneSurrogate, "surrogate"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := e.post(c.path, []byte(c.body), e.keys["alice"])
			wantError(t, r, 400, api.CodeInvalidArgument, c.errorCode)
			if !strings.Contains(r.err.Message, c.mention) {
				t.Fatalf("message %q does not mention %s", r.err.Message, c.mention)
			}
		})
	}
	acts, err := e.clients["alice"].ListActivities(ctxT(t), api.ListActivitiesOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(acts) != 0 {
		t.Fatalf("refused bodies recorded %d activities", len(acts))
	}
	// A surrogate pair escaped properly is one character, and accepted.
	r := e.post(e.submitPath("create_policy"), []byte(policy(`{"policyName":"rocket \ud83d\ude80","effect":"EFFECT_ALLOW","condition":"true","notes":""}`)), e.keys["alice"])
	if r.status != 200 || r.act.Intent.CreatePolicyIntentV3.PolicyName != "rocket 🚀" {
		t.Fatalf("escaped surrogate pair: %d %s", r.status, r.body)
	}
}

// TestExactlyOneCredentialHeader sends a validly signed request with a second
// credential header, in both orders: whichever comes first, it is a 401.
func TestExactlyOneCredentialHeader(t *testing.T) {
	e := newEnv(t)
	body := whoamiBody(e.org.ID)
	_, good, err := e.keys["alice"].Stamp(body)
	if err != nil {
		t.Fatal(err)
	}
	_, other, err := e.keys["bob"].Stamp(body)
	if err != nil {
		t.Fatal(err)
	}
	webAuthn := `{"authenticatorData":"AA","clientDataJson":"AA","credentialId":"AA","signature":"AA"}`
	cases := []struct {
		name    string
		headers [][2]string
	}{
		{"two X-Stamp, valid first", [][2]string{{keys.HeaderStamp, good}, {keys.HeaderStamp, other}}},
		{"two X-Stamp, valid second", [][2]string{{keys.HeaderStamp, "garbage"}, {keys.HeaderStamp, good}}},
		{"the same X-Stamp twice", [][2]string{{keys.HeaderStamp, good}, {keys.HeaderStamp, good}}},
		{"X-Stamp then X-Stamp-WebAuthn", [][2]string{{keys.HeaderStamp, good}, {keys.HeaderStampWebAuthn, webAuthn}}},
		{"X-Stamp-WebAuthn then X-Stamp", [][2]string{{keys.HeaderStampWebAuthn, webAuthn}, {keys.HeaderStamp, good}}},
		{"X-Stamp with an empty X-Stamp-WebAuthn", [][2]string{{keys.HeaderStamp, good}, {keys.HeaderStampWebAuthn, ""}}},
		{"two X-Stamp-WebAuthn", [][2]string{{keys.HeaderStampWebAuthn, webAuthn}, {keys.HeaderStampWebAuthn, webAuthn}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			req, err := http.NewRequest("POST", e.http.URL+api.QueryPrefix+api.QueryWhoami, bytes.NewReader(body))
			if err != nil {
				t.Fatal(err)
			}
			for _, h := range c.headers {
				req.Header.Add(h[0], h[1])
			}
			r := do(t, req)
			wantError(t, r.reply, 401, api.CodeUnauthenticated, "AMBIGUOUS_STAMP")
			if !strings.Contains(r.err.Message, "exactly one") {
				t.Fatalf("message %q does not say what to send", r.err.Message)
			}
		})
	}
	// The valid stamp alone is accepted: the refusals above are about the count.
	req, _ := http.NewRequest("POST", e.http.URL+api.QueryPrefix+api.QueryWhoami, bytes.NewReader(body))
	req.Header.Set(keys.HeaderStamp, good)
	if r := do(t, req); r.status != 200 {
		t.Fatalf("one valid X-Stamp: %d %s", r.status, r.body)
	}
}

func TestWrongMethodIs405WithAllow(t *testing.T) {
	e := newEnv(t)
	proxy := httpServer(t, e.srv.AuthProxyHandler())
	cases := []struct {
		method, url, allow string
	}{
		{"GET", e.http.URL + api.QueryPrefix + api.QueryWhoami, "POST"},
		{"PUT", e.http.URL + api.SubmitPrefix + "create_policy", "POST"},
		{"DELETE", e.http.URL + api.QueryPrefix + "no_such_query", "POST"},
		{"POST", e.http.URL + api.JWKSPath, "GET, HEAD"},
		{"GET", proxy + api.WalletKitConfigPath, "POST"},
	}
	for _, c := range cases {
		req, err := http.NewRequest(c.method, c.url, nil)
		if err != nil {
			t.Fatal(err)
		}
		r := do(t, req)
		if r.status != http.StatusMethodNotAllowed || r.allow != c.allow {
			t.Fatalf("%s %s: HTTP %d Allow %q, want 405 Allow %q (%s)", c.method, c.url, r.status, r.allow, c.allow, r.body)
		}
		if r.err.Code != api.CodeUnimplemented || !strings.Contains(r.err.Message, c.method) {
			t.Fatalf("%s %s: error body %+v", c.method, c.url, r.err)
		}
	}
	// A path that is no endpoint at all stays a 404.
	req, _ := http.NewRequest("GET", e.http.URL+"/public/v1/nothing", nil)
	if r := do(t, req); r.status != 404 {
		t.Fatalf("unknown path: %d", r.status)
	}
}

type rawReply struct {
	reply
	allow string
}

func do(t *testing.T, req *http.Request) rawReply {
	t.Helper()
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	r := rawReply{reply: reply{status: resp.StatusCode}, allow: resp.Header.Get("Allow")}
	r.body, _ = io.ReadAll(resp.Body)
	if resp.StatusCode != 200 {
		if err := json.Unmarshal(r.body, &r.err); err != nil {
			t.Fatalf("error reply is not an error body: %s", r.body)
		}
	}
	return r
}

// TestLimitsAreEnforcedByTheService sends, by hand (the client would refuse),
// a 900 kB policy name and an out-of-range order.
func TestLimitsAreEnforcedByTheService(t *testing.T) {
	e := newEnv(t)
	cases := []struct {
		name, op, typ string
		params        map[string]any
		field         string
	}{
		{"900 kB policy name", "create_policy", api.TypeCreatePolicyV3,
			map[string]any{"policyName": strings.Repeat("p", 900_000), "effect": api.EffectAllow, "notes": ""}, "parameters.policyName"},
		{"long notes", "create_policy", api.TypeCreatePolicyV3,
			map[string]any{"policyName": "p", "effect": api.EffectAllow, "notes": strings.Repeat("n", api.MaxNotesLength+1)}, "parameters.notes"},
		{"order out of range", "create_mfa_policy", api.TypeCreateMfaPolicy,
			map[string]any{"userId": e.user("bob"), "mfaPolicyName": "m", "condition": "true", "order": api.MaxMfaPolicyOrder + 1,
				"requiredAuthenticationMethods": []any{map[string]any{"any": []any{map[string]any{"type": api.AuthAPIKey}}}}}, "parameters.order"},
		{"order beyond int64", "create_mfa_policy", api.TypeCreateMfaPolicy,
			map[string]any{"userId": e.user("bob"), "mfaPolicyName": "m", "condition": "true", "order": json.Number("99999999999999999999999"),
				"requiredAuthenticationMethods": []any{map[string]any{"any": []any{map[string]any{"type": api.AuthAPIKey}}}}}, "order"},
		{"long tag name", "create_user_tag", api.TypeCreateUserTag,
			map[string]any{"userTagName": strings.Repeat("t", api.MaxNameLength+1), "userIds": []string{e.user("bob")}}, "parameters.userTagName"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := e.post(e.submitPath(c.op), e.body(c.typ, c.params, nil), e.keys["alice"])
			wantError(t, r, 400, api.CodeInvalidArgument, "INVALID_PARAMETER")
			if !strings.Contains(r.err.Message, c.field) || len(r.err.Message) > 500 {
				t.Fatalf("message %q does not name %s briefly", r.err.Message, c.field)
			}
		})
	}
}
