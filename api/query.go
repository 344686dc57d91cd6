package api

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// query POSTs req to query/<name>, stamped, retrying on 429/5xx/network errors.
// Queries carry no type or timestampMs: the body is the request struct.
func (c *Client) query(ctx context.Context, name string, req, out any) error {
	op := "query/" + name
	body, err := Marshal(req)
	if err != nil {
		return fmt.Errorf("%s: encode request: %w", op, err)
	}
	return c.do(ctx, call{op: op, method: "POST", url: c.baseURL + QueryPrefix + name, body: body, stamp: true, retry: true,
		list: isUnpagedList(name)}, out)
}

// isUnpagedList reports the queries whose reply is a whole list the service
// cannot page: it grows with the organization (users, policies) or with an
// activity (evaluations, proofs), so it has its own, larger bound
// (maxListReply).
func isUnpagedList(name string) bool {
	switch name {
	case QueryListUsers, QueryListPolicies, QueryGetMfaPolicies, QueryListMfaPolicies,
		QueryGetPolicyEvaluations, QueryListAppProofs:
		return true
	}
	return false
}

// requireArg checks a required lookup argument before any round trip.
func requireArg(op, field, v string) error {
	if v == "" {
		return fmt.Errorf("query/%s: %w", op, &ValidationError{Field: field, Problem: "is required but empty; give the id to look up"})
	}
	return nil
}

// GetAPIKey returns an API key of the organization.
func (c *Client) GetAPIKey(ctx context.Context, apiKeyID string) (*APIKey, error) {
	if err := requireArg(QueryGetAPIKey, "apiKeyId", apiKeyID); err != nil {
		return nil, err
	}
	var r GetAPIKeyResponse
	if err := c.queryRecord(ctx, QueryGetAPIKey, GetAPIKeyRequest{OrganizationID: c.org, APIKeyID: apiKeyID}, &r); err != nil {
		return nil, err
	}
	return &r.APIKey, nil
}

// GetLatestBootProof returns the latest boot proof of an enclave app.
func (c *Client) GetLatestBootProof(ctx context.Context, appName string) (*BootProof, error) {
	if err := requireArg(QueryGetLatestBootProof, "appName", appName); err != nil {
		return nil, err
	}
	var r BootProofResponse
	if err := c.query(ctx, QueryGetLatestBootProof, GetLatestBootProofRequest{OrganizationID: c.org, AppName: appName}, &r); err != nil {
		return nil, err
	}
	return &r.BootProof, nil
}

// GetBootProof returns the boot proof of the enclave with this ephemeral key.
func (c *Client) GetBootProof(ctx context.Context, ephemeralKey string) (*BootProof, error) {
	if err := requireArg(QueryGetBootProof, "ephemeralKey", ephemeralKey); err != nil {
		return nil, err
	}
	var r BootProofResponse
	if err := c.query(ctx, QueryGetBootProof, GetBootProofRequest{OrganizationID: c.org, EphemeralKey: ephemeralKey}, &r); err != nil {
		return nil, err
	}
	return &r.BootProof, nil
}

// GetPolicyEvaluations returns the policy evaluations of an activity, one per vote
// that triggered an evaluation.
func (c *Client) GetPolicyEvaluations(ctx context.Context, activityID string) ([]PolicyEvaluation, error) {
	if err := requireArg(QueryGetPolicyEvaluations, "activityId", activityID); err != nil {
		return nil, err
	}
	var r GetPolicyEvaluationsResponse
	if err := c.queryRecord(ctx, QueryGetPolicyEvaluations, GetPolicyEvaluationsRequest{OrganizationID: c.org, ActivityID: activityID}, &r); err != nil {
		return nil, err
	}
	return r.PolicyEvaluations, nil
}

// ListAppProofs returns the app proofs of an activity submitted WithAppProofs.
func (c *Client) ListAppProofs(ctx context.Context, activityID string) ([]AppProof, error) {
	if err := requireArg(QueryListAppProofs, "activityId", activityID); err != nil {
		return nil, err
	}
	var r ListAppProofsResponse
	if err := c.query(ctx, QueryListAppProofs, ListAppProofsRequest{OrganizationID: c.org, ActivityID: activityID}, &r); err != nil {
		return nil, err
	}
	return r.AppProofs, nil
}

// GetOnrampTransactionStatus returns a fiat on-ramp transaction's status; refresh
// asks the service to fetch it from the provider first.
func (c *Client) GetOnrampTransactionStatus(ctx context.Context, transactionID string, refresh bool) (string, error) {
	if err := requireArg(QueryGetOnrampTransactionStatus, "transactionId", transactionID); err != nil {
		return "", err
	}
	req := GetOnrampTransactionStatusRequest{OrganizationID: c.org, TransactionID: transactionID}
	if refresh {
		req.Refresh = &refresh
	}
	var r GetOnrampTransactionStatusResponse
	if err := c.query(ctx, QueryGetOnrampTransactionStatus, req, &r); err != nil {
		return "", err
	}
	return r.TransactionStatus, nil
}

// DefaultListLimit is the page size the service uses when a list names none.
const DefaultListLimit = 10

// ListActivitiesOptions filters and pages ListActivities. Zero values mean no
// filter; Limit 0 means the service default (DefaultListLimit), else 1..100. Before and After
// are activity ids.
type ListActivitiesOptions struct {
	Statuses []string
	Types    []string
	Limit    int
	Before   string
	After    string
}

func (o ListActivitiesOptions) request(org string) (ListActivitiesRequest, error) {
	req := ListActivitiesRequest{OrganizationID: org}
	for i, s := range o.Statuses {
		if !slices.Contains(ActivityStatuses(), s) {
			return req, &ValidationError{Field: indexPath("filterByStatus", i),
				Problem: fmt.Sprintf("%s is not an activity status; use one of %s", strconv.QuoteToASCII(s), strings.Join(ActivityStatuses(), ", "))}
		}
	}
	for i, t := range o.Types {
		if t == "" {
			return req, &ValidationError{Field: indexPath("filterByType", i), Problem: "is empty; give an activity type such as " + TypeCreatePolicyV3}
		}
	}
	if o.Limit < 0 || o.Limit > maxListLimit {
		return req, &ValidationError{Field: "paginationOptions.limit", Problem: fmt.Sprintf("is %d; use 1 to %d, or 0 for the default of %d", o.Limit, maxListLimit, DefaultListLimit)}
	}
	if o.Before != "" && o.After != "" {
		return req, &ValidationError{Field: "paginationOptions", Problem: "has both before and after; page in one direction at a time"}
	}
	req.FilterByStatus = o.Statuses
	req.FilterByType = o.Types
	if o.Limit != 0 || o.Before != "" || o.After != "" {
		req.PaginationOptions = &PaginationOptions{Before: o.Before, After: o.After}
		if o.Limit != 0 {
			req.PaginationOptions.Limit = strconv.Itoa(o.Limit)
		}
	}
	return req, nil
}

// ListActivities lists the organization's activities, newest first.
//
// Every listed activity repeats its intent, and one may hold up to 400 kB of
// its requester's text (a smart contract interface), so a page of them can be
// larger than the client reads (MaxReplyBytes, or WithMaxReplyBytes). Then it
// asks again for half as many, down to one, so that a few large activities
// cannot make the list unreadable: the page it returns may be shorter than
// opts.Limit although older activities follow. The client remembers the page
// that fit, per filter, and asks for it first next time, doubling it again
// after a reply well under the limit. ListActivitiesRaw does the same.
func (c *Client) ListActivities(ctx context.Context, opts ListActivitiesOptions) ([]Activity, error) {
	raw, err := c.listShrinking(ctx, opts)
	if err != nil {
		return nil, err
	}
	var r ListActivitiesResponse
	if err := c.decode("query/"+QueryListActivities, raw, &r); err != nil {
		return nil, err
	}
	return r.Activities, nil
}

// ActivityLister lists activities; *Client is one.
type ActivityLister interface {
	ListActivities(ctx context.Context, opts ListActivitiesOptions) ([]Activity, error)
}

// WalkActivities calls visit for each activity opts lists, newest first, 100
// a page, for at most maxPages pages. A page may be shorter than asked
// although older ones follow (ListActivities halves a page too large to
// read): only an empty page is the end. What was visited before an error
// stays visited. When maxPages were read and more may follow, it returns
// ErrWalkCutShort: what was visited is not all there is.
func WalkActivities(ctx context.Context, l ActivityLister, opts ListActivitiesOptions, maxPages int, visit func(Activity)) error {
	opts.Limit = maxListLimit
	for range maxPages {
		acts, err := l.ListActivities(ctx, opts)
		if err != nil {
			return err
		}
		for _, a := range acts {
			visit(a)
		}
		if len(acts) == 0 {
			return nil
		}
		opts.After = acts[len(acts)-1].ID // newest first: older ones follow
	}
	return fmt.Errorf("%w: read %d pages, and older activities may follow", ErrWalkCutShort, maxPages)
}

// ErrWalkCutShort is WalkActivities stopping at its page bound: the
// activities it visited are the newest, not all of them.
var ErrWalkCutShort = errors.New("not every activity was read")

// ActivitiesFollow reports whether the listing opts filters holds activities
// older than the activity id (older), or newer than it: a page may be cut
// short although more follow (see ListActivities), so its length does not
// say. A look that fails returns its error: the caller decides whether to
// say that it could not tell.
func ActivitiesFollow(ctx context.Context, l ActivityLister, opts ListActivitiesOptions, id string, older bool) (bool, error) {
	probe := ListActivitiesOptions{Statuses: opts.Statuses, Types: opts.Types, Limit: 1}
	if older {
		probe.After = id
	} else {
		probe.Before = id
	}
	more, err := l.ListActivities(ctx, probe)
	if err != nil {
		return false, err
	}
	return len(more) > 0, nil
}

// listShrinking validates opts and lists with them, undecoded, asking first
// for the page that fit last time (c.pageSizes) and again with half the page
// each time the reply is larger than the client reads, while the page holds
// more than one activity.
func (c *Client) listShrinking(ctx context.Context, opts ListActivitiesOptions) (json.RawMessage, error) {
	if _, err := opts.request(c.org); err != nil {
		return nil, fmt.Errorf("query/%s: %w", QueryListActivities, err)
	}
	limit := opts.Limit
	if limit == 0 {
		limit = DefaultListLimit
	}
	key := listingKey(opts)
	page := c.pageSizes.start(key, limit)
	for {
		if page < limit {
			opts.Limit = page // else as the caller asked, 0 staying the service's default
		}
		req, err := opts.request(c.org)
		if err != nil {
			return nil, fmt.Errorf("query/%s: %w", QueryListActivities, err)
		}
		raw, err := c.QueryRaw(ctx, QueryListActivities, req)
		if err == nil {
			c.pageSizes.fit(key, page, limit, len(raw), c.maxReply)
			return raw, nil
		}
		var tooLarge *replyTooLargeError
		if !errors.As(err, &tooLarge) || ctx.Err() != nil || page <= 1 {
			return nil, err
		}
		c.pageSizes.tooLarge(key, page)
		page /= 2
	}
}

// GetActivity returns one activity.
func (c *Client) GetActivity(ctx context.Context, activityID string) (*Activity, error) {
	if err := requireArg(QueryGetActivity, "activityId", activityID); err != nil {
		return nil, err
	}
	var r ActivityResponse
	if err := c.query(ctx, QueryGetActivity, GetActivityRequest{OrganizationID: c.org, ActivityID: activityID}, &r); err != nil {
		return nil, err
	}
	if why := ActivityReplyMismatch(c.org, activityID, &r.Activity); why != "" {
		return nil, fmt.Errorf("query/%s: %s", QueryGetActivity, why)
	}
	return &r.Activity, nil
}

// ListPolicies lists the organization's policies.
func (c *Client) ListPolicies(ctx context.Context) ([]Policy, error) {
	var r ListPoliciesResponse
	if err := c.query(ctx, QueryListPolicies, ListPoliciesRequest{OrganizationID: c.org}, &r); err != nil {
		return nil, err
	}
	return r.Policies, nil
}

// GetPolicy returns one policy.
func (c *Client) GetPolicy(ctx context.Context, policyID string) (*Policy, error) {
	if err := requireArg(QueryGetPolicy, "policyId", policyID); err != nil {
		return nil, err
	}
	var r GetPolicyResponse
	if err := c.queryRecord(ctx, QueryGetPolicy, GetPolicyRequest{OrganizationID: c.org, PolicyID: policyID}, &r); err != nil {
		return nil, err
	}
	return &r.Policy, nil
}

// GetMfaPolicies lists one user's MFA policies, in evaluation order
// (MfaPoliciesInOrder: a reply out of order is sorted).
func (c *Client) GetMfaPolicies(ctx context.Context, userID string) ([]MfaPolicy, error) {
	if err := requireArg(QueryGetMfaPolicies, "userId", userID); err != nil {
		return nil, err
	}
	var r GetMfaPoliciesResponse
	if err := c.query(ctx, QueryGetMfaPolicies, GetMfaPoliciesRequest{OrganizationID: c.org, UserID: userID}, &r); err != nil {
		return nil, err
	}
	return MfaPoliciesInOrder(r.MfaPolicies), nil
}

// GetMfaPolicy returns one MFA policy of a user.
func (c *Client) GetMfaPolicy(ctx context.Context, userID, mfaPolicyID string) (*MfaPolicy, error) {
	if err := requireArg(QueryGetMfaPolicy, "userId", userID); err != nil {
		return nil, err
	}
	if err := requireArg(QueryGetMfaPolicy, "mfaPolicyId", mfaPolicyID); err != nil {
		return nil, err
	}
	var r GetMfaPolicyResponse
	if err := c.queryRecord(ctx, QueryGetMfaPolicy, GetMfaPolicyRequest{OrganizationID: c.org, UserID: userID, MfaPolicyID: mfaPolicyID}, &r); err != nil {
		return nil, err
	}
	return &r.MfaPolicy, nil
}

// GetMfaStatus says which MFA policy applies to each voter of an activity and
// which of its steps are satisfied; userID "" means every voter.
func (c *Client) GetMfaStatus(ctx context.Context, activityID, userID string) ([]MfaStatus, error) {
	if err := requireArg(QueryGetMfaStatus, "activityId", activityID); err != nil {
		return nil, err
	}
	var r GetMfaStatusResponse
	if err := c.query(ctx, QueryGetMfaStatus, GetMfaStatusRequest{OrganizationID: c.org, ActivityID: activityID, UserID: userID}, &r); err != nil {
		return nil, err
	}
	return r.MfaStatuses, nil
}

// Whoami returns the organization and user the client's key belongs to.
func (c *Client) Whoami(ctx context.Context) (*WhoamiResponse, error) {
	var r WhoamiResponse
	if err := c.query(ctx, QueryWhoami, WhoamiRequest{OrganizationID: c.org}, &r); err != nil {
		return nil, err
	}
	return &r, nil
}

// GetOrganizationConfigs returns the organization's features and root quorum.
func (c *Client) GetOrganizationConfigs(ctx context.Context) (*OrganizationConfigs, error) {
	var r GetOrganizationConfigsResponse
	if err := c.query(ctx, QueryGetOrganizationConfigs, GetOrganizationConfigsRequest{OrganizationID: c.org}, &r); err != nil {
		return nil, err
	}
	return &r.Configs, nil
}

// ListUsers lists the organization's users: never nil when read (ReadUsers).
func (c *Client) ListUsers(ctx context.Context) ([]User, error) {
	var r ListUsersResponse
	if err := c.query(ctx, QueryListUsers, ListUsersRequest{OrganizationID: c.org}, &r); err != nil {
		return nil, err
	}
	return ReadUsers(r.Users), nil
}

// ReadUsers is a user list read from a reply, never nil: a reply holding
// nobody ({"users":null}, {}) is a list read and empty, which the checks
// (CheckActivityVotes, VoteKeyOwner) must not take for one not read (nil).
func ReadUsers(users []User) []User {
	if users == nil {
		return []User{}
	}
	return users
}

// GetUser returns one user.
func (c *Client) GetUser(ctx context.Context, userID string) (*User, error) {
	if err := requireArg(QueryGetUser, "userId", userID); err != nil {
		return nil, err
	}
	var r GetUserResponse
	if err := c.queryRecord(ctx, QueryGetUser, GetUserRequest{OrganizationID: c.org, UserID: userID}, &r); err != nil {
		return nil, err
	}
	return &r.User, nil
}

// WalletKitConfig returns the login-kit configuration from the auth proxy
// (WithAuthProxy). It is authenticated by the configuration id header only: the
// body is {} and it carries no stamp.
// A reply without one of the fields SPEC requires is refused: it is not the
// service's (a proxy's page, a stub), and shown it would pass for a login
// kit with nothing enabled.
func (c *Client) WalletKitConfig(ctx context.Context) (*WalletKitConfig, error) {
	r, _, err := c.readWalletKitConfig(ctx)
	return r, err
}

// WalletKitConfigRaw is WalletKitConfig returning the reply undecoded, with
// the same checks.
func (c *Client) WalletKitConfigRaw(ctx context.Context) (json.RawMessage, error) {
	_, raw, err := c.readWalletKitConfig(ctx)
	return raw, err
}

// readWalletKitConfig is the one reading of the login kit, typed or raw: a
// reply read one way only (decodeOneReading), so the organization checked
// is the one the login kit's own code reads, with the required fields.
func (c *Client) readWalletKitConfig(ctx context.Context) (*WalletKitConfig, json.RawMessage, error) {
	var raw json.RawMessage
	if err := c.walletKitConfig(ctx, &raw); err != nil {
		return nil, nil, err
	}
	var r WalletKitConfig
	if err := c.decodeOneReading(walletKitConfigOp, raw, &r); err != nil {
		return nil, nil, err
	}
	if err := r.checkRequired(); err != nil {
		return nil, nil, err
	}
	return &r, raw, nil
}

// walletKitConfigOp names the auth proxy's request in errors.
const walletKitConfigOp = "auth_proxy/wallet_kit_config"

// checkRequired refuses a configuration without a field SPEC requires
// (enabledProviders, sessionExpirationSeconds, organizationId), naming the
// ones missing; an empty string is as good as missing, an empty list of
// providers is a list.
func (r *WalletKitConfig) checkRequired() error {
	var missing []string
	if r.EnabledProviders == nil {
		missing = append(missing, "enabledProviders")
	}
	if r.SessionExpirationSeconds == "" {
		missing = append(missing, "sessionExpirationSeconds")
	}
	if r.OrganizationID == "" {
		missing = append(missing, "organizationId")
	}
	if len(missing) == 0 {
		return nil
	}
	return fmt.Errorf("%s: the reply lacks %s, which every login-kit configuration has; the auth proxy may not be this service's: check auth_proxy_url",
		walletKitConfigOp, strings.Join(missing, ", "))
}

func (c *Client) walletKitConfig(ctx context.Context, out any) error {
	const op = walletKitConfigOp
	if c.authProxyURL == "" {
		return fmt.Errorf("%s: no auth proxy configured; set auth_proxy_url and auth_proxy_config_id in the profile", op)
	}
	return c.do(ctx, call{op: op, method: "POST", url: c.authProxyURL + WalletKitConfigPath, body: []byte("{}"), setting: "auth_proxy_url",
		retry: true, headers: map[string]string{AuthProxyConfigIDHeader: c.authProxyConfigID}}, out)
}

// WebhookJWKS fetches the webhook verification keys (GET, no authentication).
// webhook.JWKSCache caches them by Cache-Control; this is the plain fetch.
func (c *Client) WebhookJWKS(ctx context.Context) (*JWKS, error) {
	var r JWKS
	if err := c.do(ctx, call{op: "discovery/webhooks/jwks", method: "GET", url: c.baseURL + JWKSPath, retry: true}, &r); err != nil {
		return nil, err
	}
	return &r, nil
}

// WaitForActivity polls GetActivity until until(activity) is true (nil until: the
// activity reached a terminal status) or ctx ends, waiting with capped exponential
// backoff between polls (the retry policy's base and cap). When ctx ends it returns
// the last activity seen with ctx's error.
func (c *Client) WaitForActivity(ctx context.Context, activityID string, until func(*Activity) bool) (*Activity, error) {
	a, _, err := c.waitFor(ctx, activityID, until, func(ctx context.Context) (*Activity, json.RawMessage, error) {
		a, err := c.GetActivity(ctx, activityID)
		return a, nil, err
	})
	return a, err
}
