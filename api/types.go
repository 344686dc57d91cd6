// Package api holds the wire records of the activity/query service (SPEC.md and
// DESIGN.md §3) and a typed client with one method per operation.
//
// Every record here is shared by the client, the local service (server/) and the
// console (screens/): the JSON tags are the wire format, so nobody hand-builds JSON.
package api

import (
	"encoding/json"
	"fmt"
	"strconv"
	"time"
)

// Time is the service's time object: seconds and nanos since the epoch, as strings.
type Time struct {
	Seconds string `json:"seconds"`
	Nanos   string `json:"nanos"`
}

// NewTime converts t to the wire time object.
func NewTime(t time.Time) Time {
	return Time{Seconds: strconv.FormatInt(t.Unix(), 10), Nanos: strconv.Itoa(t.Nanosecond())}
}

// Time converts the wire object back; a malformed or empty object gives the zero time.
func (t Time) Time() time.Time {
	s, err := strconv.ParseInt(t.Seconds, 10, 64)
	if err != nil {
		return time.Time{}
	}
	n, _ := strconv.ParseInt(t.Nanos, 10, 64)
	if n < 0 || n >= 1e9 {
		n = 0
	}
	return time.Unix(s, n).UTC()
}

// IsZero reports whether the object carries no time.
func (t Time) IsZero() bool { return t.Seconds == "" || t.Time().IsZero() }

// UnmarshalJSON accepts the time object, and also a plain string of epoch
// milliseconds, which SPEC.md's activity table shows for createdAt/updatedAt.
func (t *Time) UnmarshalJSON(b []byte) error {
	if len(b) > 0 && b[0] == '"' {
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		ms, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			// Only a prefix: the reply is untrusted and may be megabytes long.
			return fmt.Errorf("time: %q is neither a time object nor epoch milliseconds", ClipBytes(s, 64))
		}
		*t = NewTime(time.UnixMilli(ms))
		return nil
	}
	if string(b) == "null" {
		*t = Time{}
		return nil
	}
	type plain Time
	var p plain
	if err := json.Unmarshal(b, &p); err != nil {
		return err
	}
	*t = Time(p)
	return nil
}

// ActivityRequest is the envelope of every submit operation. Parameters is kept raw
// so the server can decode it per operation and the client can marshal it once.
type ActivityRequest struct {
	Type              string          `json:"type"`
	TimestampMs       string          `json:"timestampMs"`
	OrganizationID    string          `json:"organizationId"`
	Parameters        json.RawMessage `json:"parameters"`
	GenerateAppProofs *bool           `json:"generateAppProofs,omitempty"`
}

// ActivityResponse is the reply of every submit operation and of get_activity.
type ActivityResponse struct {
	Activity Activity `json:"activity"`
}

// Activity is the activity record (SPEC.md, plus DESIGN.md's failure).
type Activity struct {
	ID             string `json:"id"`
	OrganizationID string `json:"organizationId"`
	Status         string `json:"status"`
	Type           string `json:"type"`
	// TimestampMs is the creation time in epoch milliseconds, a string, as
	// SPEC.md's sample reply shows it (its field table and the official
	// client's types leave it out; docs/local-service.md).
	TimestampMs string `json:"timestampMs,omitempty"`
	Intent      Intent `json:"intent"`
	Result      Result `json:"result"`
	Votes       []Vote `json:"votes"`
	// AppProofs are the enclave's signed proofs of a completed activity
	// submitted with generateAppProofs (none otherwise).
	AppProofs   []AppProof `json:"appProofs,omitempty"`
	Fingerprint string     `json:"fingerprint"`
	CanApprove  bool       `json:"canApprove"`
	CanReject   bool       `json:"canReject"`
	CreatedAt   Time       `json:"createdAt"`
	UpdatedAt   Time       `json:"updatedAt"`
	Failure     *Failure   `json:"failure,omitempty"`

	// escaped is set when the client decoded the record escaping its
	// strings for the terminal (not WithExactStrings): CheckVote then
	// compares the signed parameters with the intent only as escaped, and
	// says so; a record read exactly is compared exactly.
	escaped bool
}

// markEscaped notes that SanitizeValue escaped these records as decoded.
func (r *ActivityResponse) markEscaped() { r.Activity.escaped = true }

func (r *ListActivitiesResponse) markEscaped() {
	for i := range r.Activities {
		r.Activities[i].escaped = true
	}
}

// VoteOf is userID's vote on the activity, nil when the user has not voted
// (or userID is empty).
func (a *Activity) VoteOf(userID string) *Vote {
	if userID == "" {
		return nil
	}
	for i := range a.Votes {
		if a.Votes[i].UserID == userID {
			return &a.Votes[i]
		}
	}
	return nil
}

// Failure says why an activity FAILED: the official client's rpcStatus.
type Failure struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
	// Details are the specifics the service gives beyond the message, as
	// sent: each a protobuf Any ({"@type": …, and that type's own members}),
	// decoded generically (FailureDetailLines shows them). Their strings
	// are sanitised with the record's; numbers are kept as sent
	// (json.Number).
	Details []any `json:"details,omitempty"`
}

// Activity statuses (DESIGN.md §3).
const (
	StatusCreated              = "ACTIVITY_STATUS_CREATED"
	StatusPending              = "ACTIVITY_STATUS_PENDING"
	StatusCompleted            = "ACTIVITY_STATUS_COMPLETED"
	StatusFailed               = "ACTIVITY_STATUS_FAILED"
	StatusConsensusNeeded      = "ACTIVITY_STATUS_CONSENSUS_NEEDED"
	StatusRejected             = "ACTIVITY_STATUS_REJECTED"
	StatusAuthenticatorsNeeded = "ACTIVITY_STATUS_AUTHENTICATORS_NEEDED"
)

// ActivityStatuses lists every status value.
func ActivityStatuses() []string {
	return []string{StatusCreated, StatusPending, StatusCompleted, StatusFailed,
		StatusConsensusNeeded, StatusRejected, StatusAuthenticatorsNeeded}
}

// IsTerminal reports whether an activity in this status can no longer change.
func IsTerminal(status string) bool {
	switch status {
	case StatusCompleted, StatusFailed, StatusRejected:
		return true
	}
	return false
}

// Vote is one approval or rejection on an activity.
type Vote struct {
	ID         string `json:"id"`
	UserID     string `json:"userId"`
	User       User   `json:"user"`
	ActivityID string `json:"activityId"`
	Selection  string `json:"selection"`
	Message    string `json:"message" sanitize:"exact"` // the body its signature covers: clean it to show it
	PublicKey  string `json:"publicKey"`
	Signature  string `json:"signature"`
	Scheme     string `json:"scheme"`
	CreatedAt  Time   `json:"createdAt"`
}

// Vote selections.
const (
	VoteApproved = "VOTE_SELECTION_APPROVED"
	VoteRejected = "VOTE_SELECTION_REJECTED"
)

// VoteSelection is the selection an approval (approve) or a rejection casts.
func VoteSelection(approve bool) string {
	if approve {
		return VoteApproved
	}
	return VoteRejected
}

// Intent holds exactly one key, named after the operation's intent.
type Intent struct {
	OauthIntent                        *OauthParams                        `json:"oauthIntent,omitempty"`
	CreateInvitationsIntent            *CreateInvitationsParams            `json:"createInvitationsIntent,omitempty"`
	CreateSmartContractInterfaceIntent *CreateSmartContractInterfaceParams `json:"createSmartContractInterfaceIntent,omitempty"`
	SetOrganizationFeatureIntent       *SetOrganizationFeatureParams       `json:"setOrganizationFeatureIntent,omitempty"`
	UpdateOauth2CredentialIntent       *UpdateOauth2CredentialParams       `json:"updateOauth2CredentialIntent,omitempty"`
	CreatePolicyIntentV3               *CreatePolicyParams                 `json:"createPolicyIntentV3,omitempty"`
	DeleteWalletAccountsIntent         *DeleteWalletAccountsParams         `json:"deleteWalletAccountsIntent,omitempty"`
	CreateUserTagIntent                *CreateUserTagParams                `json:"createUserTagIntent,omitempty"`
	DeleteAPIKeysIntent                *DeleteAPIKeysParams                `json:"deleteApiKeysIntent,omitempty"`
	CreateReadOnlySessionIntent        *CreateReadOnlySessionParams        `json:"createReadOnlySessionIntent,omitempty"`
	DeleteTvcDeploymentIntent          *DeleteTvcDeploymentParams          `json:"deleteTvcDeploymentIntent,omitempty"`
	CreateMfaPolicyIntent              *CreateMfaPolicyParams              `json:"createMfaPolicyIntent,omitempty"`
	ApproveActivityIntent              *ApproveActivityParams              `json:"approveActivityIntent,omitempty"`
	RejectActivityIntent               *RejectActivityParams               `json:"rejectActivityIntent,omitempty"`

	// Other holds, exactly as sent, a key of an intent this client does not
	// know (an operation of the real service outside SPEC.md's list), so it
	// can be shown rather than lost (intentraw.go).
	Other map[string]json.RawMessage `json:"-"`
}

// Result holds exactly one key, named after the operation's result (none while the
// activity has not completed).
type Result struct {
	OauthResult                        *OauthResult                        `json:"oauthResult,omitempty"`
	CreateInvitationsResult            *CreateInvitationsResult            `json:"createInvitationsResult,omitempty"`
	CreateSmartContractInterfaceResult *CreateSmartContractInterfaceResult `json:"createSmartContractInterfaceResult,omitempty"`
	SetOrganizationFeatureResult       *SetOrganizationFeatureResult       `json:"setOrganizationFeatureResult,omitempty"`
	UpdateOauth2CredentialResult       *UpdateOauth2CredentialResult       `json:"updateOauth2CredentialResult,omitempty"`
	CreatePolicyResult                 *CreatePolicyResult                 `json:"createPolicyResult,omitempty"`
	DeleteWalletAccountsResult         *DeleteWalletAccountsResult         `json:"deleteWalletAccountsResult,omitempty"`
	CreateUserTagResult                *CreateUserTagResult                `json:"createUserTagResult,omitempty"`
	DeleteAPIKeysResult                *DeleteAPIKeysResult                `json:"deleteApiKeysResult,omitempty"`
	CreateReadOnlySessionResult        *CreateReadOnlySessionResult        `json:"createReadOnlySessionResult,omitempty"`
	DeleteTvcDeploymentResult          *DeleteTvcDeploymentResult          `json:"deleteTvcDeploymentResult,omitempty"`
	CreateMfaPolicyResult              *CreateMfaPolicyResult              `json:"createMfaPolicyResult,omitempty"`

	// Other holds, exactly as sent, a result key this client does not know,
	// and a known one that cannot be read one way (resultraw.go).
	Other map[string]json.RawMessage `json:"-"`
	// UnknownFields are the members of a known result key this client has
	// no field for (or whose name differs from one only in case), by path
	// ("oauthResult.expiresAt") with their values as sent, so they can be
	// shown after the known ones.
	UnknownFields []Member `json:"-"`
	// sent holds the known keys read with UnknownFields as sent, for
	// MarshalJSON.
	sent map[string]json.RawMessage
}

// ---- parameters of the submit operations (also the intent content) ----

// OauthParams are the parameters of oauth.
type OauthParams struct {
	OidcToken          string `json:"oidcToken"`
	TargetPublicKey    string `json:"targetPublicKey"`
	APIKeyName         string `json:"apiKeyName,omitempty"`
	ExpirationSeconds  string `json:"expirationSeconds,omitempty"`
	InvalidateExisting *bool  `json:"invalidateExisting,omitempty"`
}

// CreateInvitationsParams are the parameters of create_invitations.
type CreateInvitationsParams struct {
	Invitations []Invitation `json:"invitations"`
}

// Invitation is one item of create_invitations. ReceiverUserTags is sent as []
// when empty, as SPEC.md requires.
type Invitation struct {
	ReceiverUserName  string   `json:"receiverUserName"`
	ReceiverUserEmail string   `json:"receiverUserEmail"`
	ReceiverUserTags  []string `json:"receiverUserTags"`
	AccessType        string   `json:"accessType"`
	SenderUserID      string   `json:"senderUserId"`
}

// CreateSmartContractInterfaceParams are the parameters of create_smart_contract_interface.
type CreateSmartContractInterfaceParams struct {
	SmartContractAddress   string `json:"smartContractAddress"`
	SmartContractInterface string `json:"smartContractInterface"`
	Type                   string `json:"type"`
	Label                  string `json:"label"`
	Notes                  string `json:"notes,omitempty"`
}

// SetOrganizationFeatureParams are the parameters of set_organization_feature.
type SetOrganizationFeatureParams struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

// UpdateOauth2CredentialParams are the parameters of update_oauth2_credential.
type UpdateOauth2CredentialParams struct {
	Oauth2CredentialID    string `json:"oauth2CredentialId"`
	Provider              string `json:"provider"`
	ClientID              string `json:"clientId"`
	EncryptedClientSecret string `json:"encryptedClientSecret"`
}

// CreatePolicyParams are the parameters of create_policy (V3).
type CreatePolicyParams struct {
	PolicyName string `json:"policyName"`
	Effect     string `json:"effect"`
	Condition  string `json:"condition,omitempty"`
	Consensus  string `json:"consensus,omitempty"`
	Notes      string `json:"notes"`
	// Time is when the policy is active, a time expression (the real
	// service's v1CreatePolicyIntentV3.time); empty: always.
	Time string `json:"time,omitempty"`
}

// DeleteWalletAccountsParams are the parameters of delete_wallet_accounts.
type DeleteWalletAccountsParams struct {
	WalletAccountIDs    []string `json:"walletAccountIds"`
	DeleteWithoutExport *bool    `json:"deleteWithoutExport,omitempty"`
}

// CreateUserTagParams are the parameters of create_user_tag.
type CreateUserTagParams struct {
	UserTagName string   `json:"userTagName"`
	UserIDs     []string `json:"userIds"`
}

// DeleteAPIKeysParams are the parameters of delete_api_keys.
type DeleteAPIKeysParams struct {
	UserID    string   `json:"userId"`
	APIKeyIDs []string `json:"apiKeyIds"`
}

// CreateReadOnlySessionParams is the (empty) parameters object of create_read_only_session.
type CreateReadOnlySessionParams struct{}

// DeleteTvcDeploymentParams are the parameters of delete_tvc_deployment.
type DeleteTvcDeploymentParams struct {
	DeploymentID string `json:"deploymentId"`
}

// CreateMfaPolicyParams are the parameters of create_mfa_policy.
type CreateMfaPolicyParams struct {
	UserID                        string               `json:"userId"`
	MfaPolicyName                 string               `json:"mfaPolicyName"`
	Condition                     string               `json:"condition"`
	RequiredAuthenticationMethods []AuthenticationStep `json:"requiredAuthenticationMethods"`
	Order                         int                  `json:"order"`
	Notes                         string               `json:"notes,omitempty"`
}

// AuthenticationStep is one ordered MFA step: any one of its methods satisfies it.
type AuthenticationStep struct {
	Any []AuthenticationMethod `json:"any"`
}

// AuthenticationMethod is one acceptable method of a step; an empty ID means any
// authenticator of that type.
type AuthenticationMethod struct {
	Type string `json:"type"`
	ID   string `json:"id,omitempty"`
}

// ApproveActivityParams are the parameters of approve_activity.
type ApproveActivityParams struct {
	Fingerprint string `json:"fingerprint"`
}

// RejectActivityParams are the parameters of reject_activity.
type RejectActivityParams struct {
	Fingerprint string `json:"fingerprint"`
}

// ---- results ----

// OauthResult is the result of oauth; CredentialBundle is HPKE-encrypted to the
// request's targetPublicKey.
type OauthResult struct {
	UserID           string `json:"userId"`
	APIKeyID         string `json:"apiKeyId"`
	CredentialBundle string `json:"credentialBundle"`
}

// CreateInvitationsResult is the result of create_invitations.
type CreateInvitationsResult struct {
	InvitationIDs []string `json:"invitationIds"`
}

// CreateSmartContractInterfaceResult is the result of create_smart_contract_interface.
type CreateSmartContractInterfaceResult struct {
	SmartContractInterfaceID string `json:"smartContractInterfaceId"`
}

// SetOrganizationFeatureResult is the result of set_organization_feature: the
// resulting feature list.
type SetOrganizationFeatureResult struct {
	Features []Feature `json:"features"`
}

// UpdateOauth2CredentialResult is the result of update_oauth2_credential.
type UpdateOauth2CredentialResult struct {
	Oauth2CredentialID string `json:"oauth2CredentialId"`
}

// CreatePolicyResult is the result of create_policy.
type CreatePolicyResult struct {
	PolicyID string `json:"policyId"`
}

// DeleteWalletAccountsResult is the result of delete_wallet_accounts.
type DeleteWalletAccountsResult struct {
	WalletAccountIDs []string `json:"walletAccountIds"`
}

// CreateUserTagResult is the result of create_user_tag.
type CreateUserTagResult struct {
	UserTagID string   `json:"userTagId"`
	UserIDs   []string `json:"userIds"`
}

// DeleteAPIKeysResult is the result of delete_api_keys.
type DeleteAPIKeysResult struct {
	APIKeyIDs []string `json:"apiKeyIds"`
}

// CreateReadOnlySessionResult is the result of create_read_only_session.
type CreateReadOnlySessionResult struct {
	OrganizationID   string `json:"organizationId"`
	OrganizationName string `json:"organizationName"`
	UserID           string `json:"userId"`
	Username         string `json:"username"`
	Session          string `json:"session"`
	SessionExpiry    string `json:"sessionExpiry"`
}

// DeleteTvcDeploymentResult is the result of delete_tvc_deployment.
type DeleteTvcDeploymentResult struct {
	DeploymentID string `json:"deploymentId"`
}

// CreateMfaPolicyResult is the result of create_mfa_policy.
type CreateMfaPolicyResult struct {
	MfaPolicyID string `json:"mfaPolicyId"`
}
