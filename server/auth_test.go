package server

import (
	"context"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/keys"
)

func whoamiBody(orgID string) []byte {
	b, _ := json.Marshal(api.WhoamiRequest{OrganizationID: orgID})
	return b
}

func TestStampsAreChecked(t *testing.T) {
	e := newEnv(t)
	whoami := api.QueryPrefix + api.QueryWhoami
	body := whoamiBody(e.org.ID)

	if r := e.post(whoami, body, e.keys["alice"]); r.status != 200 || !strings.Contains(string(r.body), e.user("alice")) {
		t.Fatalf("valid stamp: %d %s", r.status, r.body)
	}
	wantError(t, e.post(whoami, body, nil), 401, api.CodeUnauthenticated, "MISSING_STAMP")

	// A stamp over other bytes (the body was changed after stamping).
	_, value, _ := e.keys["alice"].Stamp(body)
	tampered := []byte(strings.Replace(string(body), "{", "{ ", 1))
	req, _ := http.NewRequest("POST", e.http.URL+whoami, strings.NewReader(string(tampered)))
	req.Header.Set(keys.HeaderStamp, value)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 401 {
		t.Fatalf("stamp over different bytes: HTTP %d, want 401", resp.StatusCode)
	}

	stranger, _ := keys.Generate(keys.SchemeEd25519)
	wantError(t, e.post(whoami, body, stranger), 401, api.CodeUnauthenticated, "UNKNOWN_KEY")

	// A key of another organization.
	other, err := e.srv.CreateOrganization(context.Background(), "Other", 1, []UserSpec{{Name: "mallory", Root: true,
		APIKeys: []APIKeySpec{{PublicKey: e.newKey("mallory").PublicKeyHex()}}}})
	if err != nil {
		t.Fatal(err)
	}
	wantError(t, e.post(whoami, body, e.keys["mallory"]), 403, api.CodePermissionDenied, "FOREIGN_ORGANIZATION")
	if r := e.post(whoami, whoamiBody(other.ID), e.keys["mallory"]); r.status != 200 {
		t.Fatalf("mallory in her own org: %d %s", r.status, r.body)
	}
	// And a submit into alice's org with mallory's key.
	sub := e.body(api.TypeCreateReadOnlySession, map[string]any{}, nil)
	wantError(t, e.post(e.submitPath("create_read_only_session"), sub, e.keys["mallory"]), 403, api.CodePermissionDenied, "FOREIGN_ORGANIZATION")
}

func TestAllSchemesAuthenticate(t *testing.T) {
	e := newEnv(t)
	for _, scheme := range []string{keys.SchemeP256, keys.SchemeSecp256k1, keys.SchemeEd25519} {
		k, err := keys.Generate(scheme)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := e.srv.CreateUser(context.Background(), e.org.ID, UserSpec{Name: scheme,
			APIKeys: []APIKeySpec{{PublicKey: k.PublicKeyHex(), CredentialType: k.CredentialType()}}}); err != nil {
			t.Fatal(err)
		}
		who, err := e.client(k).Whoami(ctxT(t))
		if err != nil || who.Username != scheme {
			t.Fatalf("%s: %v %+v", scheme, err, who)
		}
	}
}

func TestExpiredAPIKeyRefused(t *testing.T) {
	e := newEnv(t)
	k := e.newKey("temp")
	if _, err := e.srv.CreateUser(context.Background(), e.org.ID, UserSpec{Name: "temp",
		APIKeys: []APIKeySpec{{PublicKey: k.PublicKeyHex(), ExpirationSeconds: 60}}}); err != nil {
		t.Fatal(err)
	}
	body := whoamiBody(e.org.ID)
	if r := e.post(api.QueryPrefix+api.QueryWhoami, body, k); r.status != 200 {
		t.Fatalf("fresh key: %d %s", r.status, r.body)
	}
	e.skew.Store(int64(61 * time.Second))
	wantError(t, e.post(api.QueryPrefix+api.QueryWhoami, body, k), 401, api.CodeUnauthenticated, "API_KEY_EXPIRED")
}

func TestTimestampSkewRefused(t *testing.T) {
	e := newEnv(t)
	path := e.submitPath("create_read_only_session")
	for _, off := range []time.Duration{-6 * time.Minute, 6 * time.Minute} {
		ts := strconv.FormatInt(time.Now().Add(off).UnixMilli(), 10)
		r := e.post(path, e.body(api.TypeCreateReadOnlySession, map[string]any{}, map[string]any{"timestampMs": ts}), e.keys["alice"])
		wantError(t, r, 401, api.CodeUnauthenticated, "STALE_TIMESTAMP")
	}
	ts := strconv.FormatInt(time.Now().Add(-4*time.Minute).UnixMilli(), 10)
	if r := e.post(path, e.body(api.TypeCreateReadOnlySession, map[string]any{}, map[string]any{"timestampMs": ts}), e.keys["alice"]); r.status != 200 {
		t.Fatalf("4 minutes old: %d %s", r.status, r.body)
	}
}

func TestBadRequestsNameTheProblem(t *testing.T) {
	e := newEnv(t)
	alice := e.keys["alice"]
	tagParams := map[string]any{"userTagName": "t", "userIds": []string{e.user("bob")}}
	cases := []struct {
		name, path string
		body       []byte
		status     int
		errorCode  string
		mention    string
	}{
		{"malformed JSON", e.submitPath("create_user_tag"), []byte(`{"type":`), 400, "MALFORMED_JSON", "JSON"},
		{"null body", e.submitPath("create_user_tag"), []byte(`null`), 400, "MALFORMED_JSON", "not a JSON object"},
		{"organization id not a string", api.QueryPrefix + api.QueryGetActivity, []byte(`{"organizationId":5,"activityId":"x"}`), 400, "INVALID_REQUEST", "organizationId must be a string"},
		{"unknown operation", e.submitPath("create_wallet"), e.body("ACTIVITY_TYPE_CREATE_WALLET", map[string]any{}, nil), 400, "UNKNOWN_OPERATION", "create_wallet"},
		{"unknown query", api.QueryPrefix + "list_wallets", whoamiBody(e.org.ID), 400, "UNKNOWN_OPERATION", "list_wallets"},
		{"type for another path", e.submitPath("create_user_tag"), e.body(api.TypeDeleteAPIKeys, tagParams, nil), 400, "TYPE_MISMATCH", "type"},
		{"unknown envelope field", e.submitPath("create_user_tag"), e.body(api.TypeCreateUserTag, tagParams, map[string]any{"extra": 1}), 400, "INVALID_REQUEST", "extra"},
		{"unknown parameter", e.submitPath("create_user_tag"), e.body(api.TypeCreateUserTag, map[string]any{"userTagName": "t", "userIds": []string{}, "color": "red"}, nil), 400, "INVALID_PARAMETER", "color"},
		{"missing parameter", e.submitPath("create_user_tag"), e.body(api.TypeCreateUserTag, map[string]any{"userIds": []string{"u"}}, nil), 400, "INVALID_PARAMETER", "userTagName"},
		{"missing parameters", e.submitPath("create_user_tag"), e.body(api.TypeCreateUserTag, nil, map[string]any{"parameters": nil}), 400, "INVALID_PARAMETER", "parameters"},
		{"bad enum", e.submitPath("set_organization_feature"), e.body(api.TypeSetOrganizationFeature, map[string]any{"name": "FEATURE_NAME_TELEPORT", "value": "x"}, nil), 400, "INVALID_PARAMETER", "name"},
		{"missing timestamp", e.submitPath("create_user_tag"), e.body(api.TypeCreateUserTag, tagParams, map[string]any{"timestampMs": nil}), 400, "MISSING_FIELD", "timestampMs"},
		{"unknown query field", api.QueryPrefix + api.QueryGetActivity, []byte(`{"organizationId":"` + e.org.ID + `","activityId":"x","verbose":true}`), 400, "INVALID_REQUEST", "verbose"},
		{"missing query field", api.QueryPrefix + api.QueryGetActivity, []byte(`{"organizationId":"` + e.org.ID + `"}`), 400, "MISSING_FIELD", "activityId"},
		{"limit with a sign", api.QueryPrefix + api.QueryListActivities, []byte(`{"organizationId":"` + e.org.ID + `","paginationOptions":{"limit":"+5"}}`), 400, "INVALID_FIELD", "limit"},
		{"limit with a leading zero", api.QueryPrefix + api.QueryListActivities, []byte(`{"organizationId":"` + e.org.ID + `","paginationOptions":{"limit":"05"}}`), 400, "INVALID_FIELD", "limit"},
		{"timestamp with a sign", e.submitPath("create_user_tag"), e.body(api.TypeCreateUserTag, tagParams, map[string]any{"timestampMs": "+" + strconv.FormatInt(time.Now().UnixMilli(), 10)}), 400, "INVALID_FIELD", "timestampMs"},
		{"bad limit", api.QueryPrefix + api.QueryListActivities, []byte(`{"organizationId":"` + e.org.ID + `","paginationOptions":{"limit":"101"}}`), 400, "INVALID_FIELD", "limit"},
		{"bad status filter", api.QueryPrefix + api.QueryListActivities, []byte(`{"organizationId":"` + e.org.ID + `","filterByStatus":["DONE"]}`), 400, "INVALID_FIELD", "filterByStatus"},
		{"bad policy", e.submitPath("create_policy"), e.body(api.TypeCreatePolicyV3, map[string]any{"policyName": "p", "effect": api.EffectAllow, "notes": "", "condition": "activity.type ==\n  'x' &&"}, nil), 400, "INVALID_POLICY", "line 2"},
		{"MFA condition that does not compile", e.submitPath("create_mfa_policy"), e.body(api.TypeCreateMfaPolicy, mfaParams(e.user("alice"), "true =="), nil), 400, "INVALID_POLICY", "parameters.condition: line 1"},
		{"MFA condition of only spaces", e.submitPath("create_mfa_policy"), e.body(api.TypeCreateMfaPolicy, mfaParams(e.user("alice"), "   "), nil), 400, "INVALID_PARAMETER", "parameters.condition is only white space"},
		{"MFA condition that is not a bool", e.submitPath("create_mfa_policy"), e.body(api.TypeCreateMfaPolicy, mfaParams(e.user("alice"), "1"), nil), 400, "INVALID_POLICY", "bool"},
		{"interface too large", e.submitPath("create_smart_contract_interface"), e.body(api.TypeCreateSmartContractInterface, map[string]any{
			"smartContractAddress": "0x1", "type": api.SmartContractInterfaceEthereum, "label": "big",
			"smartContractInterface": `"` + strings.Repeat("a", api.MaxSmartContractInterfaceBytes) + `"`}, nil), 400, "INVALID_PARAMETER", "smartContractInterface"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := e.post(c.path, c.body, alice)
			wantError(t, r, c.status, api.CodeInvalidArgument, c.errorCode)
			if !strings.Contains(r.err.Message, c.mention) {
				t.Fatalf("message %q does not mention %q", r.err.Message, c.mention)
			}
		})
	}
	if acts, _ := e.clients["alice"].ListActivities(ctxT(t), api.ListActivitiesOptions{}); len(acts) != 0 {
		t.Fatalf("refused requests created activities: %d", len(acts))
	}
}

func TestBodyOverOneMiBIs413(t *testing.T) {
	e := newEnv(t)
	big := e.body(api.TypeCreateSmartContractInterface, map[string]any{"label": strings.Repeat("x", api.MaxRequestBodyBytes)}, nil)
	wantError(t, e.post(e.submitPath("create_smart_contract_interface"), big, e.keys["alice"]), 413, api.CodeInvalidArgument, "REQUEST_TOO_LARGE")
}

func TestWebAuthnStampAccepted(t *testing.T) {
	e := newEnv(t)
	auth, err := keys.NewSoftAuthenticator("Y3JlZC0x")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.srv.CreateUser(context.Background(), e.org.ID, UserSpec{Name: "pat", Root: false,
		Authenticators: []AuthenticatorSpec{{Name: "yubikey", CredentialID: auth.CredentialID(), PublicKey: auth.PublicKeyHex()}}}); err != nil {
		t.Fatal(err)
	}
	c := e.client(auth)
	who, err := c.Whoami(ctxT(t))
	if err != nil || who.Username != "pat" {
		t.Fatalf("whoami with a passkey: %v %+v", err, who)
	}
	act, err := c.CreateUserTag(ctxT(t), api.CreateUserTagParams{UserTagName: "p", UserIDs: []string{who.UserID}})
	if err != nil || len(act.Votes) != 1 || act.Votes[0].UserID != who.UserID {
		t.Fatalf("submit with a passkey: %v %+v", err, act)
	}
	// A different authenticator claiming the same credential id is refused.
	impostor, _ := keys.NewSoftAuthenticator("Y3JlZC0x")
	if _, err := e.client(impostor).Whoami(ctxT(t)); err == nil {
		t.Fatal("an unregistered passkey key was accepted")
	}
}

func TestJWKSAndAuthProxy(t *testing.T) {
	e := newEnv(t)
	resp, err := http.Get(e.http.URL + api.JWKSPath)
	if err != nil {
		t.Fatal(err)
	}
	var set api.JWKS
	json.NewDecoder(resp.Body).Decode(&set)
	resp.Body.Close()
	if resp.Header.Get("Cache-Control") != api.JWKSCacheControl || len(set.Keys) == 0 || set.Keys[0].Crv != "Ed25519" || set.Keys[0].Alg != "EdDSA" {
		t.Fatalf("JWKS: %q %+v", resp.Header.Get("Cache-Control"), set)
	}
	info, err := SeedDemo(context.Background(), e.srv, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	proxy := httpServer(t, e.srv.AuthProxyHandler())
	c, err := api.NewClient(e.http.URL, info.OrganizationID, nil, api.WithAuthProxy(proxy, info.AuthProxyConfigID))
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := c.WalletKitConfig(ctxT(t))
	if err != nil || cfg.OrganizationID != info.OrganizationID || len(cfg.EnabledProviders) == 0 || cfg.SessionExpirationSeconds == "" {
		t.Fatalf("wallet kit config: %v %+v", err, cfg)
	}
	for _, c := range []struct {
		ids    []string
		body   string
		status int
	}{
		{nil, "{}", 401},
		{[]string{"nope"}, "{}", 401},
		// Which of two credentials counts must not depend on their order.
		{[]string{info.AuthProxyConfigID, "nope"}, "{}", 401},
		{[]string{info.AuthProxyConfigID, info.AuthProxyConfigID}, "{}", 401},
		{[]string{info.AuthProxyConfigID}, "", 200},
		{[]string{info.AuthProxyConfigID}, "null", 400},
		{[]string{info.AuthProxyConfigID}, `{"x":1}`, 400},
	} {
		req, _ := http.NewRequest("POST", proxy+api.WalletKitConfigPath, strings.NewReader(c.body))
		for _, id := range c.ids {
			req.Header.Add(api.AuthProxyConfigIDHeader, id)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != c.status {
			t.Errorf("config ids %q, body %q: HTTP %d, want %d", c.ids, c.body, resp.StatusCode, c.status)
		}
	}
}

func TestErrorMessagesCarryNoControlCharacters(t *testing.T) {
	e := newEnv(t)
	body := []byte(`{"organizationId":"` + e.org.ID + `","activityId":"a","\u001b]52;c;evil\u0007\u202e":1}`)
	r := e.post(api.QueryPrefix+api.QueryGetActivity, body, e.keys["alice"])
	wantError(t, r, 400, api.CodeInvalidArgument, "INVALID_REQUEST")
	for _, bad := range []string{"\x1b", "\x07", "\u202e"} {
		if strings.Contains(r.err.Message, bad) {
			t.Fatalf("message %q carries %q", r.err.Message, bad)
		}
	}
	if !strings.Contains(r.err.Message, "not a known field") {
		t.Fatalf("message %q does not name the problem", r.err.Message)
	}
	// cleanText itself, on what another path might echo.
	//lint:ignore SA1011 the invalid UTF-8 byte is the point of the test
	if got := cleanText("id \x1b[31mred\u202e \xff"); strings.ContainsAny(got, "\x1b\u202e\xff") || !strings.Contains(got, `\u001B`) || !strings.Contains(got, `\uFFFD`) {
		t.Fatalf("cleanText = %q", got)
	}
}

func mfaParams(userID, condition string) map[string]any {
	return map[string]any{"userId": userID, "mfaPolicyName": "m", "condition": condition, "order": 0,
		"requiredAuthenticationMethods": []any{map[string]any{"any": []any{map[string]any{"type": api.AuthPasskey}}}}}
}

// TestStrangersCannotTakeTheVerificationTables: the service verifies a
// stamp before it looks the key up, and a key that signed 16 requests gets
// one of at most 16 tables that make verifying it twice as fast. Strangers'
// keys, whose every request is refused as UNKNOWN_KEY, must not take them:
// 16 throwaway keys signing 17 requests each used to leave no table for a
// member's key.
func TestStrangersCannotTakeTheVerificationTables(t *testing.T) {
	e := newEnv(t)
	whoami := api.QueryPrefix + api.QueryWhoami
	body := whoamiBody(e.org.ID)
	for range 16 {
		stranger, err := keys.Generate(keys.SchemeP256)
		if err != nil {
			t.Fatal(err)
		}
		for range 17 {
			wantError(t, e.post(whoami, body, stranger), 401, api.CodeUnauthenticated, "UNKNOWN_KEY")
		}
		if e.srv.verifier.HasTable(stranger.PublicKeyHex()) {
			t.Fatal("a key the organization does not know got a verification table")
		}
	}
	for range 17 {
		if r := e.post(whoami, body, e.keys["alice"]); r.status != 200 {
			t.Fatalf("whoami as alice: %d %s", r.status, r.body)
		}
	}
	if !e.srv.verifier.HasTable(e.keys["alice"].PublicKeyHex()) {
		t.Fatal("alice's key has no verification table after 17 requests: strangers took them")
	}
}

// TestExpiredKeysGiveUpTheirVerificationTables: keys the organization knew
// (session keys last 15 minutes) that earned every table and then expired do
// not keep them: once they have been quiet a while, a member's key that signs
// often gets one.
func TestExpiredKeysGiveUpTheirVerificationTables(t *testing.T) {
	e := newEnv(t)
	whoami := api.QueryPrefix + api.QueryWhoami
	var specs []UserSpec
	var shortLived []*keys.Key
	for i := range 16 {
		k, err := keys.Generate(keys.SchemeP256)
		if err != nil {
			t.Fatal(err)
		}
		shortLived = append(shortLived, k)
		specs = append(specs, UserSpec{Name: "s" + strconv.Itoa(i), Root: i == 0,
			APIKeys: []APIKeySpec{{Name: "session", PublicKey: k.PublicKeyHex(), ExpirationSeconds: 60}}})
	}
	other, err := e.srv.CreateOrganization(context.Background(), "Other", 1, specs)
	if err != nil {
		t.Fatal(err)
	}
	otherBody := whoamiBody(other.ID)
	for _, k := range shortLived {
		for range 17 {
			if r := e.post(whoami, otherBody, k); r.status != 200 {
				t.Fatalf("whoami: %d %s", r.status, r.body)
			}
		}
		if !e.srv.verifier.HasTable(k.PublicKeyHex()) {
			t.Fatal("a session key signing 17 requests got no table")
		}
	}
	e.skew.Store(int64(time.Hour)) // every session key has expired
	for _, k := range shortLived {
		wantError(t, e.post(whoami, otherBody, k), 401, api.CodeUnauthenticated, "API_KEY_EXPIRED")
	}
	body := whoamiBody(e.org.ID)
	for range 32 {
		if r := e.post(whoami, body, e.keys["alice"]); r.status != 200 {
			t.Fatalf("whoami as alice: %d %s", r.status, r.body)
		}
	}
	if !e.srv.verifier.HasTable(e.keys["alice"].PublicKeyHex()) {
		t.Fatal("alice's key has no table after 32 requests: expired keys still hold every table")
	}
}
