package api

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"flag"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/vigil-console/vigil/keys"
)

var update = flag.Bool("update", false, "rewrite testdata/requests/*.json from the client's requests")

// fixedNow is 2026-01-01T00:00:00Z; its epoch milliseconds are written out by hand
// in the goldens' "timestampMs".
var fixedNow = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

const fixedMs = "1767225600000"

const testOrg = "org-7f3c"

// recorded is what the test server saw of one request.
type recorded struct {
	Method, Path string
	Header       http.Header
	Body         []byte
}

// testService is an httptest server that records requests and verifies stamps with
// the real keys package, replying with whatever reply returns.
type testService struct {
	t     *testing.T
	srv   *httptest.Server
	key   *keys.Key
	mu    sync.Mutex
	reqs  []recorded
	reply func(n int, r recorded, w http.ResponseWriter) // n counts from 0
}

func newTestService(t *testing.T, reply func(n int, r recorded, w http.ResponseWriter)) *testService {
	t.Helper()
	key, err := keys.Generate(keys.SchemeP256)
	if err != nil {
		t.Fatal(err)
	}
	s := &testService{t: t, key: key, reply: reply}
	s.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		rec := recorded{Method: r.Method, Path: r.URL.Path, Header: r.Header.Clone(), Body: body}
		s.mu.Lock()
		n := len(s.reqs)
		s.reqs = append(s.reqs, rec)
		s.mu.Unlock()
		s.reply(n, rec, w)
	}))
	t.Cleanup(s.srv.Close)
	return s
}

func (s *testService) client(t *testing.T, opts ...Option) *Client {
	t.Helper()
	opts = append([]Option{WithClock(func() time.Time { return fixedNow }), WithRetryPolicy(3, time.Millisecond, 4*time.Millisecond)}, opts...)
	c, err := NewClient(s.srv.URL, testOrg, s.key, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func (s *testService) requests() []recorded {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slicesClone(s.reqs)
}

func slicesClone[T any](s []T) []T { return append([]T(nil), s...) }

// checkStamp verifies the X-Stamp of r over exactly the received bytes.
func (s *testService) checkStamp(t *testing.T, r recorded) {
	t.Helper()
	st, err := keys.Verify(r.Header.Get(keys.HeaderStamp), r.Body)
	if err != nil {
		t.Fatalf("%s: X-Stamp does not verify over the received body: %v", r.Path, err)
	}
	if st.PublicKey != s.key.PublicKeyHex() {
		t.Fatalf("%s: stamped by %s, want %s", r.Path, st.PublicKey, s.key.PublicKeyHex())
	}
}

func writeJSON(w http.ResponseWriter, status int, body string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	io.WriteString(w, body)
}

const activityReply = `{"activity":{"id":"act-1","organizationId":"org-7f3c","status":"ACTIVITY_STATUS_COMPLETED","type":"T","intent":{},"result":{},"votes":[],"fingerprint":"sha256:ab","canApprove":false,"canReject":false,"createdAt":{"seconds":"1767225600","nanos":"0"},"updatedAt":{"seconds":"1767225600","nanos":"0"}}}`

// activityReplyTo is activityReply as the service answers the submit body:
// an activity of the body's organization and type whose fingerprint is the
// body's, or for a vote the activity voted on.
func activityReplyTo(t *testing.T, body []byte) string {
	var req struct {
		Type, OrganizationID string
		Parameters           struct{ Fingerprint string }
	}
	if err := json.Unmarshal(body, &req); err != nil {
		t.Errorf("submit body is not JSON: %v", err)
	}
	var reply map[string]map[string]any
	if err := json.Unmarshal([]byte(activityReply), &reply); err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(body)
	a := reply["activity"]
	a["organizationId"], a["type"], a["fingerprint"] = req.OrganizationID, req.Type, "sha256:"+hex.EncodeToString(sum[:])
	if req.Type == TypeApproveActivity || req.Type == TypeRejectActivity {
		a["type"], a["fingerprint"] = TypeCreateUserTag, req.Parameters.Fingerprint
	}
	out, err := json.Marshal(reply)
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}

type opCase struct {
	name   string // golden file name
	method string
	path   string
	kind   string // "submit", "query", "proxy", "jwks"
	reply  string
	call   func(context.Context, *Client) (any, error)
	check  func(any) bool
}

func isActivity(v any) bool { a, ok := v.(*Activity); return ok && a.ID == "act-1" }

func allOperations() []opCase {
	p := validParams()
	sub := func(name string, call func(context.Context, *Client) (any, error)) opCase {
		return opCase{name: name, method: "POST", path: SubmitPrefix + name, kind: "submit", reply: activityReply, call: call, check: isActivity}
	}
	q := func(name, reply string, call func(context.Context, *Client) (any, error), check func(any) bool) opCase {
		return opCase{name: name, method: "POST", path: QueryPrefix + name, kind: "query", reply: reply, call: call, check: check}
	}
	return []opCase{
		sub("oauth", func(ctx context.Context, c *Client) (any, error) {
			return c.OAuth(ctx, *p[TypeOauth].(*OauthParams), WithAppProofs())
		}),
		sub("create_invitations", func(ctx context.Context, c *Client) (any, error) {
			in := *p[TypeCreateInvitations].(*CreateInvitationsParams)
			in.Invitations[0].ReceiverUserTags = nil // must still go out as []
			return c.CreateInvitations(ctx, in)
		}),
		sub("create_smart_contract_interface", func(ctx context.Context, c *Client) (any, error) {
			return c.CreateSmartContractInterface(ctx, *p[TypeCreateSmartContractInterface].(*CreateSmartContractInterfaceParams))
		}),
		sub("set_organization_feature", func(ctx context.Context, c *Client) (any, error) {
			return c.SetOrganizationFeature(ctx, *p[TypeSetOrganizationFeature].(*SetOrganizationFeatureParams))
		}),
		sub("update_oauth2_credential", func(ctx context.Context, c *Client) (any, error) {
			return c.UpdateOauth2Credential(ctx, *p[TypeUpdateOauth2Credential].(*UpdateOauth2CredentialParams))
		}),
		sub("create_policy", func(ctx context.Context, c *Client) (any, error) {
			return c.CreatePolicy(ctx, *p[TypeCreatePolicyV3].(*CreatePolicyParams), WithAppProofs())
		}),
		sub("delete_wallet_accounts", func(ctx context.Context, c *Client) (any, error) {
			in := *p[TypeDeleteWalletAccounts].(*DeleteWalletAccountsParams)
			in.DeleteWithoutExport = boolPtr(false)
			return c.DeleteWalletAccounts(ctx, in)
		}),
		sub("create_user_tag", func(ctx context.Context, c *Client) (any, error) {
			return c.CreateUserTag(ctx, *p[TypeCreateUserTag].(*CreateUserTagParams))
		}),
		sub("delete_api_keys", func(ctx context.Context, c *Client) (any, error) {
			return c.DeleteAPIKeys(ctx, *p[TypeDeleteAPIKeys].(*DeleteAPIKeysParams))
		}),
		sub("create_read_only_session", func(ctx context.Context, c *Client) (any, error) { return c.CreateReadOnlySession(ctx) }),
		sub("delete_tvc_deployment", func(ctx context.Context, c *Client) (any, error) {
			return c.DeleteTvcDeployment(ctx, *p[TypeDeleteTvcDeployment].(*DeleteTvcDeploymentParams))
		}),
		sub("create_mfa_policy", func(ctx context.Context, c *Client) (any, error) {
			return c.CreateMfaPolicy(ctx, *p[TypeCreateMfaPolicy].(*CreateMfaPolicyParams))
		}),
		sub("approve_activity", func(ctx context.Context, c *Client) (any, error) { return c.ApproveActivity(ctx, "sha256:00ff") }),
		sub("reject_activity", func(ctx context.Context, c *Client) (any, error) { return c.RejectActivity(ctx, "sha256:00ff") }),

		q(QueryGetAPIKey, `{"apiKey":{"apiKeyId":"k-1","apiKeyName":"ci","credential":{"publicKey":"02ab","type":"CREDENTIAL_TYPE_API_KEY_P256"},"createdAt":{"seconds":"1","nanos":"0"},"updatedAt":{"seconds":"1","nanos":"0"}}}`,
			func(ctx context.Context, c *Client) (any, error) { return c.GetAPIKey(ctx, "k-1") },
			func(v any) bool {
				k := v.(*APIKey)
				return k.APIKeyID == "k-1" && k.Credential.Type == CredentialAPIKeyP256
			}),
		q(QueryGetLatestBootProof, `{"bootProof":{"ephemeralPublicKeyHex":"04aa","enclaveApp":"signer"}}`,
			func(ctx context.Context, c *Client) (any, error) { return c.GetLatestBootProof(ctx, "signer") },
			func(v any) bool { return v.(*BootProof).EphemeralPublicKeyHex == "04aa" }),
		q(QueryGetBootProof, `{"bootProof":{"ephemeralPublicKeyHex":"04bb"}}`,
			func(ctx context.Context, c *Client) (any, error) { return c.GetBootProof(ctx, "04bb") },
			func(v any) bool { return v.(*BootProof).EphemeralPublicKeyHex == "04bb" }),
		q(QueryGetPolicyEvaluations, `{"policyEvaluations":[{"id":"pe-1","activityId":"act-1","voteId":"v-1","policyEvaluations":[{"policyId":"p-1","outcome":"OUTCOME_ALLOW"}]}]}`,
			func(ctx context.Context, c *Client) (any, error) { return c.GetPolicyEvaluations(ctx, "act-1") },
			func(v any) bool {
				e := v.([]PolicyEvaluation)
				return len(e) == 1 && e[0].PolicyEvaluations[0].Outcome == OutcomeAllow
			}),
		q(QueryListAppProofs, `{"appProofs":[{"scheme":"SIGNATURE_SCHEME_EPHEMERAL_KEY_P256","publicKey":"04cc","proofPayload":"{}","signature":"00"}]}`,
			func(ctx context.Context, c *Client) (any, error) { return c.ListAppProofs(ctx, "act-1") },
			func(v any) bool { p := v.([]AppProof); return len(p) == 1 && p[0].PublicKey == "04cc" }),
		q(QueryGetOnrampTransactionStatus, `{"transactionStatus":"COMPLETED"}`,
			func(ctx context.Context, c *Client) (any, error) {
				return c.GetOnrampTransactionStatus(ctx, "tx-1", true)
			},
			func(v any) bool { return v.(string) == "COMPLETED" }),
		q(QueryListActivities, `{"activities":[`+strings.TrimSuffix(strings.TrimPrefix(activityReply, `{"activity":`), "}")+`]}`,
			func(ctx context.Context, c *Client) (any, error) {
				return c.ListActivities(ctx, ListActivitiesOptions{Statuses: []string{StatusConsensusNeeded}, Types: []string{TypeCreatePolicyV3}, Limit: 25, Before: "act-9"})
			},
			func(v any) bool { a := v.([]Activity); return len(a) == 1 && a[0].ID == "act-1" }),
		q(QueryGetActivity, activityReply,
			func(ctx context.Context, c *Client) (any, error) { return c.GetActivity(ctx, "act-1") }, isActivity),
		q(QueryListPolicies, `{"policies":[{"policyId":"p-1","policyName":"n","effect":"EFFECT_DENY"}]}`,
			func(ctx context.Context, c *Client) (any, error) { return c.ListPolicies(ctx) },
			func(v any) bool { p := v.([]Policy); return len(p) == 1 && p[0].Effect == EffectDeny }),
		q(QueryGetPolicy, `{"policy":{"policyId":"p-1"}}`,
			func(ctx context.Context, c *Client) (any, error) { return c.GetPolicy(ctx, "p-1") },
			func(v any) bool { return v.(*Policy).PolicyID == "p-1" }),
		q(QueryGetMfaPolicies, `{"mfaPolicies":[{"mfaPolicyId":"m-1","mfaPolicyName":"passkey","condition":"true","order":0,"requiredAuthenticationMethods":[{"any":[{"type":"AUTHENTICATION_TYPE_PASSKEY"}]}]}]}`,
			func(ctx context.Context, c *Client) (any, error) { return c.GetMfaPolicies(ctx, "u-1") },
			func(v any) bool { m := v.([]MfaPolicy); return len(m) == 1 && m[0].MfaPolicyName == "passkey" }),
		q(QueryGetMfaPolicy, `{"mfaPolicy":{"mfaPolicyId":"m-2","mfaPolicyName":"otp","condition":"true","order":1,"requiredAuthenticationMethods":[]}}`,
			func(ctx context.Context, c *Client) (any, error) { return c.GetMfaPolicy(ctx, "u-1", "m-2") },
			func(v any) bool { return v.(*MfaPolicy).MfaPolicyID == "m-2" }),
		q(QueryGetMfaStatus, `{"mfaStatuses":[{"mfaPolicyId":"m-1","userId":"u-1","satisfied":true,"satisfiedMethods":[{"type":"AUTHENTICATION_TYPE_API_KEY","id":"k-1"}],"requiredMethods":[{"any":[{"type":"AUTHENTICATION_TYPE_API_KEY"}]}]}]}`,
			func(ctx context.Context, c *Client) (any, error) { return c.GetMfaStatus(ctx, "act-1", "") },
			func(v any) bool {
				m := v.([]MfaStatus)
				return len(m) == 1 && m[0].Satisfied && m[0].SatisfiedMethods[0].ID == "k-1"
			}),
		q(QueryWhoami, `{"organizationId":"org-7f3c","organizationName":"Acme","userId":"u-1","username":"alice"}`,
			func(ctx context.Context, c *Client) (any, error) { return c.Whoami(ctx) },
			func(v any) bool { return v.(*WhoamiResponse).Username == "alice" }),
		q(QueryGetOrganizationConfigs, `{"configs":{"features":[{"name":"FEATURE_NAME_WEBHOOK","value":"https://h"}],"quorum":{"threshold":2,"userIds":["u-1","u-2","u-3"]}}}`,
			func(ctx context.Context, c *Client) (any, error) { return c.GetOrganizationConfigs(ctx) },
			func(v any) bool {
				o := v.(*OrganizationConfigs)
				return o.Quorum.Threshold == 2 && len(o.Quorum.UserIDs) == 3
			}),
		q(QueryListUsers, `{"users":[{"userId":"u-1","userName":"alice"}]}`,
			func(ctx context.Context, c *Client) (any, error) { return c.ListUsers(ctx) },
			func(v any) bool { u := v.([]User); return len(u) == 1 && u[0].UserName == "alice" }),
		q(QueryGetUser, `{"user":{"userId":"u-2","userName":"bob"}}`,
			func(ctx context.Context, c *Client) (any, error) { return c.GetUser(ctx, "u-2") },
			func(v any) bool { return v.(*User).UserName == "bob" }),
		{name: "wallet_kit_config", method: "POST", path: "/proxy" + WalletKitConfigPath, kind: "proxy",
			reply: `{"enabledProviders":["google","email"],"sessionExpirationSeconds":"900","organizationId":"org-7f3c","oauthClientIds":{"google":"g-1"}}`,
			call:  func(ctx context.Context, c *Client) (any, error) { return c.WalletKitConfig(ctx) },
			check: func(v any) bool {
				w := v.(*WalletKitConfig)
				return w.SessionExpirationSeconds == "900" && w.OauthClientIDs["google"] == "g-1"
			}},
		{name: "jwks", method: "GET", path: JWKSPath, kind: "jwks",
			reply: `{"keys":[{"kid":"k1","kty":"OKP","crv":"Ed25519","alg":"EdDSA","use":"sig","x":"AAAA","service_signature_algorithm":"ed25519","service_signature_version":"v1"}]}`,
			call:  func(ctx context.Context, c *Client) (any, error) { return c.WebhookJWKS(ctx) },
			check: func(v any) bool { j := v.(*JWKS); return len(j.Keys) == 1 && j.Keys[0].Kid == "k1" }},
	}
}

// TestEveryOperationRequest checks, for every operation, the exact request body
// against its golden file and the transport contract: method, path, headers,
// stamp over the received bytes, and what must not be there.
func TestEveryOperationRequest(t *testing.T) {
	cases := allOperations()
	if want := len(SubmitOperations()) + len(QueryOperations()) + 2; len(cases) != want {
		t.Fatalf("%d operations tested, want %d", len(cases), want)
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := newTestService(t, func(_ int, r recorded, w http.ResponseWriter) {
				if tc.kind == "submit" {
					writeJSON(w, 200, activityReplyTo(t, r.Body))
					return
				}
				writeJSON(w, 200, tc.reply)
			})
			c := s.client(t, WithAuthProxy(s.srv.URL+"/proxy/", "cfg-42"), WithUserAgent("vigil-test/1"))
			got, err := tc.call(context.Background(), c)
			if err != nil {
				t.Fatalf("call: %v", err)
			}
			if !tc.check(got) {
				t.Errorf("decoded reply %+v does not match %s", got, tc.reply)
			}
			reqs := s.requests()
			if len(reqs) != 1 {
				t.Fatalf("%d requests, want 1", len(reqs))
			}
			r := reqs[0]
			if r.Method != tc.method || r.Path != tc.path {
				t.Errorf("%s %s, want %s %s", r.Method, r.Path, tc.method, tc.path)
			}
			if ua := r.Header.Get("User-Agent"); ua != "vigil-test/1" {
				t.Errorf("User-Agent %q", ua)
			}
			switch tc.kind {
			case "submit", "query":
				if ct := r.Header.Get("Content-Type"); ct != "application/json" {
					t.Errorf("Content-Type %q, want application/json", ct)
				}
				s.checkStamp(t, r)
				var top map[string]json.RawMessage
				if err := json.Unmarshal(r.Body, &top); err != nil {
					t.Fatalf("body is not a JSON object: %v", err)
				}
				if string(top["organizationId"]) != `"`+testOrg+`"` {
					t.Errorf("organizationId = %s", top["organizationId"])
				}
				_, hasType := top["type"]
				_, hasTs := top["timestampMs"]
				if tc.kind == "query" && (hasType || hasTs) {
					t.Errorf("query body carries type/timestampMs: %s", r.Body)
				}
				if tc.kind == "submit" {
					op, _ := OperationByPath(tc.name)
					if string(top["type"]) != `"`+op.Type+`"` || string(top["timestampMs"]) != `"`+fixedMs+`"` {
						t.Errorf("envelope type/timestampMs = %s/%s, want %s/%s", top["type"], top["timestampMs"], op.Type, fixedMs)
					}
				}
			case "proxy":
				if v := r.Header.Get(AuthProxyConfigIDHeader); v != "cfg-42" {
					t.Errorf("%s = %q, want cfg-42", AuthProxyConfigIDHeader, v)
				}
				if r.Header.Get(keys.HeaderStamp) != "" || r.Header.Get(keys.HeaderStampWebAuthn) != "" {
					t.Error("auth proxy call carries a stamp")
				}
				if string(r.Body) != "{}" {
					t.Errorf("auth proxy body %q, want {}", r.Body)
				}
			case "jwks":
				if r.Header.Get(keys.HeaderStamp) != "" || r.Header.Get(AuthProxyConfigIDHeader) != "" || r.Header.Get("Authorization") != "" {
					t.Error("JWKS request carries authentication")
				}
				if len(r.Body) != 0 {
					t.Errorf("JWKS GET has a body %q", r.Body)
				}
				return
			}
			golden := filepath.Join("testdata", "requests", tc.name+".json")
			if *update {
				var pretty bytes.Buffer
				pretty.Write(r.Body)
				pretty.WriteByte('\n')
				if err := os.WriteFile(golden, pretty.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test ./api -run TestEveryOperationRequest -update, then review the file against SPEC.md)", err)
			}
			if string(r.Body) != strings.TrimSuffix(string(want), "\n") {
				t.Errorf("body\n%s\nwant (%s)\n%s", r.Body, golden, want)
			}
		})
	}
}
