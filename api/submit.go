package api

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strconv"
)

// SubmitOption adjusts a submit request.
type SubmitOption func(*submitOptions)

type submitOptions struct {
	appProofs bool
	sentSig   *string
}

// NoteSignature has the submit write to dst the signature of the stamp it
// was sent with (X-Stamp's or X-Stamp-WebAuthn's signature; "" when the
// stamp says none). The service records it with a vote, so it tells the
// vote just cast from an earlier one, or a copy, by the same key.
func NoteSignature(dst *string) SubmitOption {
	return func(o *submitOptions) { o.sentSig = dst }
}

// WithAppProofs asks the service to produce app proofs for the activity
// (generateAppProofs: true), to be listed later with ListAppProofs.
func WithAppProofs() SubmitOption {
	return func(o *submitOptions) { o.appProofs = true }
}

// MarshalJSON sends a nil ReceiverUserTags as [], as SPEC.md requires.
func (inv Invitation) MarshalJSON() ([]byte, error) {
	type plain Invitation
	p := plain(inv)
	if p.ReceiverUserTags == nil {
		p.ReceiverUserTags = []string{}
	}
	return Marshal(p)
}

// The lists below are required keys that may be empty: a nil list goes on the
// wire as [], since null (or no key) is refused as missing.

// MarshalJSON sends a nil Invitations as [].
func (p CreateInvitationsParams) MarshalJSON() ([]byte, error) {
	type plain CreateInvitationsParams
	if p.Invitations == nil {
		p.Invitations = []Invitation{}
	}
	return Marshal(plain(p))
}

// MarshalJSON sends a nil WalletAccountIDs as [].
func (p DeleteWalletAccountsParams) MarshalJSON() ([]byte, error) {
	type plain DeleteWalletAccountsParams
	if p.WalletAccountIDs == nil {
		p.WalletAccountIDs = []string{}
	}
	return Marshal(plain(p))
}

// MarshalJSON sends a nil UserIDs as [].
func (p CreateUserTagParams) MarshalJSON() ([]byte, error) {
	type plain CreateUserTagParams
	if p.UserIDs == nil {
		p.UserIDs = []string{}
	}
	return Marshal(plain(p))
}

// MarshalJSON sends a nil APIKeyIDs as [].
func (p DeleteAPIKeysParams) MarshalJSON() ([]byte, error) {
	type plain DeleteAPIKeysParams
	if p.APIKeyIDs == nil {
		p.APIKeyIDs = []string{}
	}
	return Marshal(plain(p))
}

// Marshal encodes v compactly without HTML escaping, so that "a >= 2" goes on
// the wire as written (as the official SDKs send it) rather than as "a \u003e= 2".
// The local service encodes its replies with it too: escaping makes each <, >
// and & six bytes, and a listed activity may repeat 400 kB of them.
func Marshal(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// NewActivityRequest builds the envelope of a submit: it validates the
// organization id and params, refuses a private key in a name or notes
// (SecretInFreeText), checks the size of the encoded body (a
// *ValidationError, before anything is sent), and marshals them. The caller marshals the envelope once and stamps exactly
// those bytes.
func NewActivityRequest(op Operation, organizationID string, params Params, now int64, appProofs bool) (ActivityRequest, error) {
	if organizationID == "" {
		return ActivityRequest{}, noOrganizationError()
	}
	if err := params.Validate(); err != nil {
		return ActivityRequest{}, err
	}
	if err := SecretInFreeText(params); err != nil {
		return ActivityRequest{}, err
	}
	raw, err := Marshal(params)
	if err != nil {
		return ActivityRequest{}, fmt.Errorf("encode parameters: %w", err)
	}
	req := ActivityRequest{
		Type:           op.Type,
		TimestampMs:    strconv.FormatInt(now, 10),
		OrganizationID: organizationID,
		Parameters:     raw,
	}
	if appProofs {
		t := true
		req.GenerateAppProofs = &t
	}
	// The service reads at most MaxRequestBodyBytes: say so here, naming
	// what to cut, rather than upload a body it answers 413.
	body, err := Marshal(req)
	if err != nil {
		return ActivityRequest{}, fmt.Errorf("encode request: %w", err)
	}
	if err := checkBodySize(body, raw); err != nil {
		return ActivityRequest{}, err
	}
	return req, nil
}

// submit validates, marshals once, stamps those bytes and POSTs them.
//
// Submits are not retried: if the connection fails after the request was sent,
// the error wraps ErrOutcomeUnknown. The service treats a byte-identical body as
// the same activity (DESIGN.md §4), so a caller that kept the body may resend it
// safely; otherwise look the activity up with ListActivities before submitting a
// new request (which would carry a new timestamp, hence be a new activity).
func (c *Client) submit(ctx context.Context, path string, params Params, opts []SubmitOption) (*Activity, error) {
	cl, err := c.submitCall(path, params, opts)
	if err != nil {
		return nil, &notSentError{err}
	}
	return c.sendActivity(ctx, cl)
}

// sendActivity sends a submit and decodes the activity it answers with.
func (c *Client) sendActivity(ctx context.Context, cl call) (*Activity, error) {
	var reply ActivityResponse
	if err := c.do(ctx, cl, &reply); err != nil {
		return nil, err
	}
	if reply.Activity.ID == "" || reply.Activity.Status == "" {
		// Accepted, so perhaps recorded, but the reply does not say which activity.
		return nil, cl.outcomeUnknown(&unreadableReplyError{fmt.Errorf("%s: the reply carries no activity id or status; the server may not be this service", cl.op)})
	}
	if err := cl.checkReply(&reply.Activity); err != nil {
		return nil, err
	}
	return &reply.Activity, nil
}

// submitCall validates params, builds the envelope and marshals it once: the
// request every submit sends (typed or raw).
func (c *Client) submitCall(path string, params Params, opts []SubmitOption) (call, error) {
	op, ok := OperationByPath(path)
	if !ok {
		return call{}, fmt.Errorf("submit %s: unknown operation", SanitizeID(path))
	}
	var so submitOptions
	for _, o := range opts {
		o(&so)
	}
	name := "submit/" + op.Path
	req, err := NewActivityRequest(op, c.org, params, c.now().UnixMilli(), so.appProofs)
	if err != nil {
		return call{}, fmt.Errorf("%s: %w", name, err)
	}
	body, err := Marshal(req)
	if err != nil {
		return call{}, fmt.Errorf("%s: encode request: %w", name, err)
	}
	return call{op: name, method: "POST", url: c.baseURL + SubmitPrefix + op.Path, body: body, stamp: true, stamper: c.stamper, sentSig: so.sentSig}, nil
}

// OAuth exchanges an OIDC token for a new API key whose credential bundle is
// encrypted to p.TargetPublicKey (oauth). The token must carry the nonce
// OauthNonce(p.TargetPublicKey).
func (c *Client) OAuth(ctx context.Context, p OauthParams, opts ...SubmitOption) (*Activity, error) {
	return c.submit(ctx, "oauth", &p, opts)
}

// CreateInvitations invites users (create_invitations).
func (c *Client) CreateInvitations(ctx context.Context, p CreateInvitationsParams, opts ...SubmitOption) (*Activity, error) {
	return c.submit(ctx, "create_invitations", &p, opts)
}

// CreateSmartContractInterface uploads an ABI or IDL (create_smart_contract_interface).
func (c *Client) CreateSmartContractInterface(ctx context.Context, p CreateSmartContractInterfaceParams, opts ...SubmitOption) (*Activity, error) {
	return c.submit(ctx, "create_smart_contract_interface", &p, opts)
}

// SetOrganizationFeature sets a feature (set_organization_feature); it completes
// only once the root quorum approves.
func (c *Client) SetOrganizationFeature(ctx context.Context, p SetOrganizationFeatureParams, opts ...SubmitOption) (*Activity, error) {
	return c.submit(ctx, "set_organization_feature", &p, opts)
}

// UpdateOauth2Credential updates an OAuth2 client credential (update_oauth2_credential).
func (c *Client) UpdateOauth2Credential(ctx context.Context, p UpdateOauth2CredentialParams, opts ...SubmitOption) (*Activity, error) {
	return c.submit(ctx, "update_oauth2_credential", &p, opts)
}

// CreatePolicy creates a policy (create_policy, V3).
func (c *Client) CreatePolicy(ctx context.Context, p CreatePolicyParams, opts ...SubmitOption) (*Activity, error) {
	return c.submit(ctx, "create_policy", &p, opts)
}

// DeleteWalletAccounts deletes wallet accounts (delete_wallet_accounts).
func (c *Client) DeleteWalletAccounts(ctx context.Context, p DeleteWalletAccountsParams, opts ...SubmitOption) (*Activity, error) {
	return c.submit(ctx, "delete_wallet_accounts", &p, opts)
}

// CreateUserTag creates a user tag and gives it to users (create_user_tag).
func (c *Client) CreateUserTag(ctx context.Context, p CreateUserTagParams, opts ...SubmitOption) (*Activity, error) {
	return c.submit(ctx, "create_user_tag", &p, opts)
}

// DeleteAPIKeys deletes a user's API keys (delete_api_keys).
func (c *Client) DeleteAPIKeys(ctx context.Context, p DeleteAPIKeysParams, opts ...SubmitOption) (*Activity, error) {
	return c.submit(ctx, "delete_api_keys", &p, opts)
}

// CreateReadOnlySession creates a one-hour read-only session (create_read_only_session).
func (c *Client) CreateReadOnlySession(ctx context.Context, opts ...SubmitOption) (*Activity, error) {
	return c.submit(ctx, "create_read_only_session", &CreateReadOnlySessionParams{}, opts)
}

// DeleteTvcDeployment deletes a TVC deployment (delete_tvc_deployment).
func (c *Client) DeleteTvcDeployment(ctx context.Context, p DeleteTvcDeploymentParams, opts ...SubmitOption) (*Activity, error) {
	return c.submit(ctx, "delete_tvc_deployment", &p, opts)
}

// CreateMfaPolicy adds an MFA policy to a user (create_mfa_policy). SPEC.md does
// not list generateAppProofs for it, so it takes no options.
func (c *Client) CreateMfaPolicy(ctx context.Context, p CreateMfaPolicyParams) (*Activity, error) {
	return c.submit(ctx, "create_mfa_policy", &p, nil)
}

// ApproveActivity votes to approve the activity with this fingerprint. The reply is
// the target activity after the vote.
func (c *Client) ApproveActivity(ctx context.Context, fingerprint string, opts ...SubmitOption) (*Activity, error) {
	return c.submit(ctx, "approve_activity", &ApproveActivityParams{Fingerprint: fingerprint}, opts)
}

// RejectActivity votes to reject the activity with this fingerprint. The reply is
// the target activity after the vote.
func (c *Client) RejectActivity(ctx context.Context, fingerprint string, opts ...SubmitOption) (*Activity, error) {
	return c.submit(ctx, "reject_activity", &RejectActivityParams{Fingerprint: fingerprint}, opts)
}

// OauthNonce is the nonce claim an OIDC token must carry to be exchanged by
// oauth for a key sealed to targetPublicKey: the lowercase hex SHA-256 of the
// key string exactly as the request sends it (the official SDKs'
// getOauthNonce). Ask the login provider for a token with this nonce after
// making the target key: it binds the token to that key, so a token seen by
// others (the activity's intent repeats it) gets them nothing.
func OauthNonce(targetPublicKey string) string {
	sum := sha256.Sum256([]byte(targetPublicKey))
	return hex.EncodeToString(sum[:])
}
