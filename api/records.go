package api

// ---- query requests and replies (SPEC.md and DESIGN.md §3) ----

// GetAPIKeyRequest is the body of query/get_api_key.
type GetAPIKeyRequest struct {
	OrganizationID string `json:"organizationId"`
	APIKeyID       string `json:"apiKeyId"`
}

// GetAPIKeyResponse is the reply of query/get_api_key.
type GetAPIKeyResponse struct {
	APIKey APIKey `json:"apiKey"`
}

// GetLatestBootProofRequest is the body of query/get_latest_boot_proof.
type GetLatestBootProofRequest struct {
	OrganizationID string `json:"organizationId"`
	AppName        string `json:"appName"`
}

// GetBootProofRequest is the body of query/get_boot_proof.
type GetBootProofRequest struct {
	OrganizationID string `json:"organizationId"`
	EphemeralKey   string `json:"ephemeralKey"`
}

// BootProofResponse is the reply of get_latest_boot_proof and get_boot_proof.
type BootProofResponse struct {
	BootProof BootProof `json:"bootProof"`
}

// GetPolicyEvaluationsRequest is the body of query/get_policy_evaluations.
type GetPolicyEvaluationsRequest struct {
	OrganizationID string `json:"organizationId"`
	ActivityID     string `json:"activityId"`
}

// GetPolicyEvaluationsResponse is the reply of query/get_policy_evaluations.
type GetPolicyEvaluationsResponse struct {
	PolicyEvaluations []PolicyEvaluation `json:"policyEvaluations"`
}

// ListAppProofsRequest is the body of query/list_app_proofs.
type ListAppProofsRequest struct {
	OrganizationID string `json:"organizationId"`
	ActivityID     string `json:"activityId"`
}

// ListAppProofsResponse is the reply of query/list_app_proofs.
type ListAppProofsResponse struct {
	AppProofs []AppProof `json:"appProofs"`
}

// GetOnrampTransactionStatusRequest is the body of query/get_onramp_transaction_status.
type GetOnrampTransactionStatusRequest struct {
	OrganizationID string `json:"organizationId"`
	TransactionID  string `json:"transactionId"`
	Refresh        *bool  `json:"refresh,omitempty"`
}

// GetOnrampTransactionStatusResponse is the reply of query/get_onramp_transaction_status.
type GetOnrampTransactionStatusResponse struct {
	TransactionStatus string `json:"transactionStatus"`
}

// ListActivitiesRequest is the body of query/list_activities.
type ListActivitiesRequest struct {
	OrganizationID    string             `json:"organizationId"`
	FilterByStatus    []string           `json:"filterByStatus,omitempty"`
	FilterByType      []string           `json:"filterByType,omitempty"`
	PaginationOptions *PaginationOptions `json:"paginationOptions,omitempty"`
}

// PaginationOptions pages a list: Limit is "1".."100" (default 10); Before and After
// are activity ids.
type PaginationOptions struct {
	Limit  string `json:"limit,omitempty"`
	Before string `json:"before,omitempty"`
	After  string `json:"after,omitempty"`
}

// ListActivitiesResponse is the reply of query/list_activities, newest first.
type ListActivitiesResponse struct {
	Activities []Activity `json:"activities"`
}

// GetActivityRequest is the body of query/get_activity.
type GetActivityRequest struct {
	OrganizationID string `json:"organizationId"`
	ActivityID     string `json:"activityId"`
}

// ListPoliciesRequest is the body of query/list_policies.
type ListPoliciesRequest struct {
	OrganizationID string `json:"organizationId"`
}

// ListPoliciesResponse is the reply of query/list_policies.
type ListPoliciesResponse struct {
	Policies []Policy `json:"policies"`
}

// GetPolicyRequest is the body of query/get_policy.
type GetPolicyRequest struct {
	OrganizationID string `json:"organizationId"`
	PolicyID       string `json:"policyId"`
}

// GetPolicyResponse is the reply of query/get_policy.
type GetPolicyResponse struct {
	Policy Policy `json:"policy"`
}

// ListMfaPoliciesRequest is the body of query/list_mfa_policies.
type ListMfaPoliciesRequest struct {
	OrganizationID string `json:"organizationId"`
	UserID         string `json:"userId,omitempty"`
}

// ListMfaPoliciesResponse is the reply of query/list_mfa_policies.
type ListMfaPoliciesResponse struct {
	MfaPolicies []MfaPolicy `json:"mfaPolicies"`
}

// GetMfaPoliciesRequest is the body of query/get_mfa_policies.
type GetMfaPoliciesRequest struct {
	OrganizationID string `json:"organizationId"`
	UserID         string `json:"userId"`
}

// GetMfaPoliciesResponse is the reply of query/get_mfa_policies.
type GetMfaPoliciesResponse struct {
	MfaPolicies []MfaPolicy `json:"mfaPolicies"`
}

// GetMfaPolicyRequest is the body of query/get_mfa_policy.
type GetMfaPolicyRequest struct {
	OrganizationID string `json:"organizationId"`
	UserID         string `json:"userId"`
	MfaPolicyID    string `json:"mfaPolicyId"`
}

// GetMfaPolicyResponse is the reply of query/get_mfa_policy.
type GetMfaPolicyResponse struct {
	MfaPolicy MfaPolicy `json:"mfaPolicy"`
}

// GetMfaStatusRequest is the body of query/get_mfa_status; UserID narrows the
// reply to one voter.
type GetMfaStatusRequest struct {
	OrganizationID string `json:"organizationId"`
	ActivityID     string `json:"activityId"`
	UserID         string `json:"userId,omitempty"`
}

// GetMfaStatusResponse is the reply of query/get_mfa_status.
type GetMfaStatusResponse struct {
	MfaStatuses []MfaStatus `json:"mfaStatuses"`
}

// MfaStatus says, for one voter of an activity, which MFA policy applies and
// which of its steps the voter's credentials satisfy.
type MfaStatus struct {
	MfaPolicyID      string                 `json:"mfaPolicyId"`
	UserID           string                 `json:"userId"`
	Satisfied        bool                   `json:"satisfied"`
	SatisfiedMethods []AuthenticationMethod `json:"satisfiedMethods"`
	RequiredMethods  []AuthenticationStep   `json:"requiredMethods"`
}

// WhoamiRequest is the body of query/whoami.
type WhoamiRequest struct {
	OrganizationID string `json:"organizationId"`
}

// WhoamiResponse is the reply of query/whoami.
type WhoamiResponse struct {
	OrganizationID   string `json:"organizationId"`
	OrganizationName string `json:"organizationName"`
	UserID           string `json:"userId"`
	Username         string `json:"username"`
}

// GetOrganizationConfigsRequest is the body of query/get_organization_configs.
type GetOrganizationConfigsRequest struct {
	OrganizationID string `json:"organizationId"`
}

// GetOrganizationConfigsResponse is the reply of query/get_organization_configs.
type GetOrganizationConfigsResponse struct {
	Configs OrganizationConfigs `json:"configs"`
}

// OrganizationConfigs are an organization's features and root quorum.
type OrganizationConfigs struct {
	Features []Feature `json:"features"`
	Quorum   Quorum    `json:"quorum"`
}

// Quorum is the root quorum: Threshold of UserIDs must approve.
type Quorum struct {
	Threshold int      `json:"threshold"`
	UserIDs   []string `json:"userIds"`
}

// ListUsersRequest is the body of query/list_users.
type ListUsersRequest struct {
	OrganizationID string `json:"organizationId"`
}

// ListUsersResponse is the reply of query/list_users.
type ListUsersResponse struct {
	Users []User `json:"users"`
}

// GetUserRequest is the body of query/get_user.
type GetUserRequest struct {
	OrganizationID string `json:"organizationId"`
	UserID         string `json:"userId"`
}

// GetUserResponse is the reply of query/get_user.
type GetUserResponse struct {
	User User `json:"user"`
}

// ---- records ----

// APIKey is an API key record.
type APIKey struct {
	APIKeyID          string     `json:"apiKeyId"`
	APIKeyName        string     `json:"apiKeyName"`
	Credential        Credential `json:"credential"`
	CreatedAt         Time       `json:"createdAt"`
	UpdatedAt         Time       `json:"updatedAt"`
	ExpirationSeconds string     `json:"expirationSeconds,omitempty"`
}

// Credential is the public half of an API key or authenticator.
type Credential struct {
	PublicKey        string `json:"publicKey"`
	Type             string `json:"type"`
	SessionProfileID string `json:"sessionProfileId,omitempty"`
}

// Authenticator is a user's WebAuthn authenticator (passkey). Every field is
// sent (transports as [] when none is known): the official client's
// v1Authenticator requires them all.
type Authenticator struct {
	AuthenticatorID   string     `json:"authenticatorId"`
	AuthenticatorName string     `json:"authenticatorName"`
	CredentialID      string     `json:"credentialId"`
	Credential        Credential `json:"credential"`
	// Transports are AUTHENTICATOR_TRANSPORT_* values (USB, NFC, BLE, ...).
	Transports []string `json:"transports"`
	// AttestationType is the WebAuthn attestation conveyance of the
	// registration ("none" when none was verified).
	AttestationType string `json:"attestationType"`
	// Aaguid names the authenticator's make and model (a UUID; all zeros
	// when unknown, as WebAuthn sends it without attestation).
	Aaguid    string `json:"aaguid"`
	Model     string `json:"model"`
	CreatedAt Time   `json:"createdAt"`
	UpdatedAt Time   `json:"updatedAt"`
}

// Authenticator transports (v1AuthenticatorTransport).
const (
	TransportBLE      = "AUTHENTICATOR_TRANSPORT_BLE"
	TransportInternal = "AUTHENTICATOR_TRANSPORT_INTERNAL"
	TransportNFC      = "AUTHENTICATOR_TRANSPORT_NFC"
	TransportUSB      = "AUTHENTICATOR_TRANSPORT_USB"
	TransportHybrid   = "AUTHENTICATOR_TRANSPORT_HYBRID"
)

// AuthenticatorTransports lists every transport value.
func AuthenticatorTransports() []string {
	return []string{TransportBLE, TransportInternal, TransportNFC, TransportUSB, TransportHybrid}
}

// UnknownAaguid is the AAGUID of an authenticator whose make is not known:
// WebAuthn sends all zeros when the registration carries no attestation.
const UnknownAaguid = "00000000-0000-0000-0000-000000000000"

// MarshalJSON sends transports as [] when there are none.
func (a Authenticator) MarshalJSON() ([]byte, error) {
	type plain Authenticator
	p := plain(a)
	p.Transports = orEmpty(p.Transports)
	return Marshal(p)
}

// User is a user of an organization. Every array is sent, empty when there is
// nothing in it: the official client's types require them.
type User struct {
	UserID          string          `json:"userId"`
	UserName        string          `json:"userName"`
	UserEmail       string          `json:"userEmail,omitempty"`
	UserPhoneNumber string          `json:"userPhoneNumber,omitempty"`
	APIKeys         []APIKey        `json:"apiKeys"`
	Authenticators  []Authenticator `json:"authenticators"`
	UserTags        []string        `json:"userTags"`
	OauthProviders  []OauthProvider `json:"oauthProviders"`
	MfaPolicies     []MfaPolicy     `json:"mfaPolicies"`
	CreatedAt       Time            `json:"createdAt"`
	UpdatedAt       Time            `json:"updatedAt"`
}

// MarshalJSON sends nil arrays as [], so no code path can leave one out.
func (u User) MarshalJSON() ([]byte, error) {
	type plain User
	p := plain(u)
	p.APIKeys = orEmpty(p.APIKeys)
	p.Authenticators = orEmpty(p.Authenticators)
	p.UserTags = orEmpty(p.UserTags)
	p.OauthProviders = orEmpty(p.OauthProviders)
	p.MfaPolicies = orEmpty(p.MfaPolicies)
	return Marshal(p)
}

func orEmpty[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// OauthProvider is an OIDC identity linked to a user: tokens from Issuer for
// Audience whose sub is Subject sign in as that user (oauth).
type OauthProvider struct {
	ProviderID   string `json:"providerId"`
	ProviderName string `json:"providerName"`
	Issuer       string `json:"issuer"`
	Audience     string `json:"audience"`
	Subject      string `json:"subject"`
	CreatedAt    Time   `json:"createdAt"`
	UpdatedAt    Time   `json:"updatedAt"`
}

// BootProof is a boot proof record (get_latest_boot_proof, get_boot_proof).
type BootProof struct {
	EphemeralPublicKeyHex  string `json:"ephemeralPublicKeyHex"`
	AwsAttestationDocB64   string `json:"awsAttestationDocB64"`
	QosManifestB64         string `json:"qosManifestB64"`
	QosManifestEnvelopeB64 string `json:"qosManifestEnvelopeB64"`
	DeploymentLabel        string `json:"deploymentLabel"`
	EnclaveApp             string `json:"enclaveApp"`
	Owner                  string `json:"owner"`
	CreatedAt              Time   `json:"createdAt"`
	QosManifestVersion     string `json:"qosManifestVersion,omitempty"`
}

// PolicyEvaluation is one evaluation of the policies for a vote on an activity.
type PolicyEvaluation struct {
	ID                string          `json:"id"`
	ActivityID        string          `json:"activityId"`
	OrganizationID    string          `json:"organizationId"`
	VoteID            string          `json:"voteId"`
	PolicyEvaluations []PolicyOutcome `json:"policyEvaluations"`
	CreatedAt         Time            `json:"createdAt"`
}

// PolicyOutcome is the outcome of one policy in an evaluation.
type PolicyOutcome struct {
	PolicyID string `json:"policyId,omitempty"`
	Outcome  string `json:"outcome,omitempty"`
}

// AppProof is an app proof record.
type AppProof struct {
	Scheme       string `json:"scheme"`
	PublicKey    string `json:"publicKey"`
	ProofPayload string `json:"proofPayload"`
	Signature    string `json:"signature"`
}

// Feature is an organization feature: a name and a value.
type Feature struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

// Policy is a policy record.
type Policy struct {
	PolicyID   string `json:"policyId"`
	PolicyName string `json:"policyName"`
	Effect     string `json:"effect"`
	Condition  string `json:"condition"`
	Consensus  string `json:"consensus"`
	Notes      string `json:"notes"`
	// Time is when the policy is active, a time expression (v1Policy.time,
	// optional); empty: always.
	Time      string `json:"time,omitempty"`
	CreatedAt Time   `json:"createdAt"`
	UpdatedAt Time   `json:"updatedAt"`
}

// MfaPolicy is an MFA policy record.
type MfaPolicy struct {
	MfaPolicyID                   string               `json:"mfaPolicyId"`
	UserID                        string               `json:"userId"`
	MfaPolicyName                 string               `json:"mfaPolicyName"`
	Condition                     string               `json:"condition"`
	RequiredAuthenticationMethods []AuthenticationStep `json:"requiredAuthenticationMethods"`
	Order                         int                  `json:"order"`
	Notes                         string               `json:"notes"`
	CreatedAt                     Time                 `json:"createdAt"`
	UpdatedAt                     Time                 `json:"updatedAt"`
}

// WalletKitConfig is the login-kit configuration served by the auth proxy.
type WalletKitConfig struct {
	EnabledProviders         []string          `json:"enabledProviders"`
	SessionExpirationSeconds string            `json:"sessionExpirationSeconds"`
	OrganizationID           string            `json:"organizationId"`
	OauthClientIDs           map[string]string `json:"oauthClientIds,omitempty"`
	OauthRedirectURL         string            `json:"oauthRedirectUrl,omitempty"`
	OtpAlphanumeric          *bool             `json:"otpAlphanumeric,omitempty"`
	OtpLength                string            `json:"otpLength,omitempty"`
}

// JWK is one webhook verification key.
type JWK struct {
	Kid                       string `json:"kid"`
	Kty                       string `json:"kty"`
	Crv                       string `json:"crv"`
	Alg                       string `json:"alg"`
	Use                       string `json:"use"`
	X                         string `json:"x"`
	ServiceSignatureAlgorithm string `json:"service_signature_algorithm"`
	ServiceSignatureVersion   string `json:"service_signature_version"`
}

// JWKS is the webhook verification key set.
type JWKS struct {
	Keys []JWK `json:"keys"`
}

// ErrorBody is the service's error reply (DESIGN.md §3).
type ErrorBody struct {
	Code    int           `json:"code"`
	Message string        `json:"message"`
	Details []ErrorDetail `json:"details,omitempty"`
}

// ErrorDetail is one entry of an error's details.
type ErrorDetail struct {
	Type      string `json:"@type"`
	ErrorCode string `json:"errorCode,omitempty"`
}

// ErrorDetailType is the @type of the service's error details.
const ErrorDetailType = "type.googleapis.com/errors.v1.ServiceErrorDetail"
