package api

import (
	"slices"
	"strings"

	"github.com/vigil-console/vigil/keys"
)

// Path prefixes of the two kinds of operation.
const (
	SubmitPrefix = "/public/v1/submit/"
	QueryPrefix  = "/public/v1/query/"
	// JWKSPath is where the webhook verification keys are published (GET, no auth).
	JWKSPath = "/public/v1/discovery/webhooks/jwks"
	// WalletKitConfigPath is the auth proxy's login-kit configuration (POST).
	WalletKitConfigPath = "/v1/wallet_kit_config"
	// AuthProxyConfigIDHeader authenticates the auth proxy call.
	AuthProxyConfigIDHeader = "X-Auth-Proxy-Config-Id"
	// JWKSCacheControl is the Cache-Control of the JWKS reply (SPEC.md Limits).
	JWKSCacheControl = "public, max-age=86400, s-maxage=86400, stale-if-error=604800"
)

// Activity type values.
const (
	TypeOauth                        = "ACTIVITY_TYPE_OAUTH"
	TypeCreateInvitations            = "ACTIVITY_TYPE_CREATE_INVITATIONS"
	TypeCreateSmartContractInterface = "ACTIVITY_TYPE_CREATE_SMART_CONTRACT_INTERFACE"
	TypeSetOrganizationFeature       = "ACTIVITY_TYPE_SET_ORGANIZATION_FEATURE"
	TypeUpdateOauth2Credential       = "ACTIVITY_TYPE_UPDATE_OAUTH2_CREDENTIAL"
	TypeCreatePolicyV3               = "ACTIVITY_TYPE_CREATE_POLICY_V3"
	TypeDeleteWalletAccounts         = "ACTIVITY_TYPE_DELETE_WALLET_ACCOUNTS"
	TypeCreateUserTag                = "ACTIVITY_TYPE_CREATE_USER_TAG"
	TypeDeleteAPIKeys                = "ACTIVITY_TYPE_DELETE_API_KEYS"
	TypeCreateReadOnlySession        = "ACTIVITY_TYPE_CREATE_READ_ONLY_SESSION"
	TypeDeleteTvcDeployment          = "ACTIVITY_TYPE_DELETE_TVC_DEPLOYMENT"
	TypeCreateMfaPolicy              = "ACTIVITY_TYPE_CREATE_MFA_POLICY"
	TypeApproveActivity              = "ACTIVITY_TYPE_APPROVE_ACTIVITY"
	TypeRejectActivity               = "ACTIVITY_TYPE_REJECT_ACTIVITY"
)

// Operation describes one submit operation: its path segment, type value and the
// keys of its intent and result.
type Operation struct {
	Path      string // path segment after /public/v1/submit/
	Type      string // activity type value
	IntentKey string
	ResultKey string // empty for approve/reject, whose reply is the target activity
}

// SubmitOperations lists every submit operation, SPEC.md's twelve then the two votes.
func SubmitOperations() []Operation {
	return []Operation{
		{"oauth", TypeOauth, "oauthIntent", "oauthResult"},
		{"create_invitations", TypeCreateInvitations, "createInvitationsIntent", "createInvitationsResult"},
		{"create_smart_contract_interface", TypeCreateSmartContractInterface, "createSmartContractInterfaceIntent", "createSmartContractInterfaceResult"},
		{"set_organization_feature", TypeSetOrganizationFeature, "setOrganizationFeatureIntent", "setOrganizationFeatureResult"},
		{"update_oauth2_credential", TypeUpdateOauth2Credential, "updateOauth2CredentialIntent", "updateOauth2CredentialResult"},
		{"create_policy", TypeCreatePolicyV3, "createPolicyIntentV3", "createPolicyResult"},
		{"delete_wallet_accounts", TypeDeleteWalletAccounts, "deleteWalletAccountsIntent", "deleteWalletAccountsResult"},
		{"create_user_tag", TypeCreateUserTag, "createUserTagIntent", "createUserTagResult"},
		{"delete_api_keys", TypeDeleteAPIKeys, "deleteApiKeysIntent", "deleteApiKeysResult"},
		{"create_read_only_session", TypeCreateReadOnlySession, "createReadOnlySessionIntent", "createReadOnlySessionResult"},
		{"delete_tvc_deployment", TypeDeleteTvcDeployment, "deleteTvcDeploymentIntent", "deleteTvcDeploymentResult"},
		{"create_mfa_policy", TypeCreateMfaPolicy, "createMfaPolicyIntent", "createMfaPolicyResult"},
		{"approve_activity", TypeApproveActivity, "approveActivityIntent", ""},
		{"reject_activity", TypeRejectActivity, "rejectActivityIntent", ""},
	}
}

// OperationByPath finds a submit operation by its path segment.
func OperationByPath(path string) (Operation, bool) {
	for _, op := range SubmitOperations() {
		if op.Path == path {
			return op, true
		}
	}
	return Operation{}, false
}

// OperationByType finds a submit operation by its activity type value.
func OperationByType(typ string) (Operation, bool) {
	for _, op := range SubmitOperations() {
		if op.Type == typ {
			return op, true
		}
	}
	return Operation{}, false
}

// Query operation path segments (after /public/v1/query/).
const (
	QueryGetAPIKey                  = "get_api_key"
	QueryGetLatestBootProof         = "get_latest_boot_proof"
	QueryGetPolicyEvaluations       = "get_policy_evaluations"
	QueryListAppProofs              = "list_app_proofs"
	QueryGetOnrampTransactionStatus = "get_onramp_transaction_status"
	QueryListActivities             = "list_activities"
	QueryGetActivity                = "get_activity"
	QueryListPolicies               = "list_policies"
	QueryGetPolicy                  = "get_policy"
	QueryListMfaPolicies            = "list_mfa_policies" // the local service's earlier name, kept as an alias of get_mfa_policies that may list every user's; the service has no such query
	QueryGetMfaPolicies             = "get_mfa_policies"
	QueryGetMfaPolicy               = "get_mfa_policy"
	QueryGetMfaStatus               = "get_mfa_status"
	QueryWhoami                     = "whoami"
	QueryGetOrganizationConfigs     = "get_organization_configs"
	QueryListUsers                  = "list_users"
	QueryGetUser                    = "get_user"
	QueryGetBootProof               = "get_boot_proof"
)

// QueryOperations lists every query path segment of the service (not
// QueryListMfaPolicies, the local service's alias).
func QueryOperations() []string {
	return []string{QueryGetAPIKey, QueryGetLatestBootProof, QueryGetPolicyEvaluations,
		QueryListAppProofs, QueryGetOnrampTransactionStatus, QueryListActivities,
		QueryGetActivity, QueryListPolicies, QueryGetPolicy,
		QueryGetMfaPolicies, QueryGetMfaPolicy, QueryGetMfaStatus,
		QueryWhoami, QueryGetOrganizationConfigs, QueryListUsers, QueryGetUser,
		QueryGetBootProof}
}

// Enumerations of SPEC.md.
const (
	// Credential types: keys owns them (keys.Credential*).
	CredentialWebAuthnAuthenticator = keys.CredentialWebAuthnAuthenticator
	CredentialAPIKeyP256            = keys.CredentialAPIKeyP256
	CredentialRecoverUserKeyP256    = keys.CredentialRecoverUserKeyP256
	CredentialAPIKeySecp256k1       = keys.CredentialAPIKeySecp256k1
	CredentialEmailAuthKeyP256      = keys.CredentialEmailAuthKeyP256
	CredentialAPIKeyEd25519         = keys.CredentialAPIKeyEd25519
	CredentialOtpAuthKeyP256        = keys.CredentialOtpAuthKeyP256
	CredentialReadWriteSessionP256  = keys.CredentialReadWriteSessionP256
	CredentialOauthKeyP256          = keys.CredentialOauthKeyP256
	CredentialLogin                 = keys.CredentialLogin

	// Stamp signature schemes: keys owns them (keys.Scheme*).
	SchemeP256      = keys.SchemeP256
	SchemeSecp256k1 = keys.SchemeSecp256k1
	SchemeEd25519   = keys.SchemeEd25519
	SchemeWebAuthn  = keys.SchemeWebAuthn

	EffectAllow = "EFFECT_ALLOW"
	EffectDeny  = "EFFECT_DENY"

	OutcomeAllow                  = "OUTCOME_ALLOW"
	OutcomeDenyExplicit           = "OUTCOME_DENY_EXPLICIT"
	OutcomeDenyImplicit           = "OUTCOME_DENY_IMPLICIT"
	OutcomeRequiresConsensus      = "OUTCOME_REQUIRES_CONSENSUS"
	OutcomeRejected               = "OUTCOME_REJECTED"
	OutcomeError                  = "OUTCOME_ERROR"
	OutcomeRequiresAuthenticators = "OUTCOME_REQUIRES_AUTHENTICATORS"
	OutcomeTimeInactive           = "OUTCOME_TIME_INACTIVE" // a policy whose time expression is false

	AppProofSchemeEphemeralKeyP256 = "SIGNATURE_SCHEME_EPHEMERAL_KEY_P256"

	AccessTypeWeb = "ACCESS_TYPE_WEB"
	AccessTypeAPI = "ACCESS_TYPE_API"
	AccessTypeAll = "ACCESS_TYPE_ALL"

	SmartContractInterfaceEthereum = "SMART_CONTRACT_INTERFACE_TYPE_ETHEREUM"
	SmartContractInterfaceSolana   = "SMART_CONTRACT_INTERFACE_TYPE_SOLANA"

	Oauth2ProviderX       = "OAUTH2_PROVIDER_X"
	Oauth2ProviderDiscord = "OAUTH2_PROVIDER_DISCORD"

	AuthEmailOTP = "AUTHENTICATION_TYPE_EMAIL_OTP"
	AuthSMSOTP   = "AUTHENTICATION_TYPE_SMS_OTP"
	AuthPasskey  = "AUTHENTICATION_TYPE_PASSKEY"
	AuthAPIKey   = "AUTHENTICATION_TYPE_API_KEY"
	AuthOauth    = "AUTHENTICATION_TYPE_OAUTH"
	AuthSession  = "AUTHENTICATION_TYPE_SESSION"

	FeatureRootUserEmailRecovery    = "FEATURE_NAME_ROOT_USER_EMAIL_RECOVERY"
	FeatureWebauthnOrigins          = "FEATURE_NAME_WEBAUTHN_ORIGINS"
	FeatureEmailAuth                = "FEATURE_NAME_EMAIL_AUTH"
	FeatureEmailRecovery            = "FEATURE_NAME_EMAIL_RECOVERY"
	FeatureWebhook                  = "FEATURE_NAME_WEBHOOK"
	FeatureSMSAuth                  = "FEATURE_NAME_SMS_AUTH"
	FeatureOtpEmailAuth             = "FEATURE_NAME_OTP_EMAIL_AUTH"
	FeatureAuthProxy                = "FEATURE_NAME_AUTH_PROXY"
	FeatureSolanaRentPrefundEnabled = "FEATURE_NAME_SOLANA_RENT_PREFUND_ENABLED"
)

// CredentialTypeOfScheme is keys.CredentialTypeOfScheme: the credential type
// behind a stamp of this scheme.
func CredentialTypeOfScheme(scheme string) string { return keys.CredentialTypeOfScheme(scheme) }

// CredentialTypes lists every credential type value.
func CredentialTypes() []string {
	return []string{CredentialWebAuthnAuthenticator, CredentialAPIKeyP256, CredentialRecoverUserKeyP256,
		CredentialAPIKeySecp256k1, CredentialEmailAuthKeyP256, CredentialAPIKeyEd25519,
		CredentialOtpAuthKeyP256, CredentialReadWriteSessionP256, CredentialOauthKeyP256, CredentialLogin}
}

// Outcomes lists every policy outcome value.
func Outcomes() []string {
	return []string{OutcomeAllow, OutcomeDenyExplicit, OutcomeDenyImplicit, OutcomeRequiresConsensus,
		OutcomeRejected, OutcomeError, OutcomeRequiresAuthenticators, OutcomeTimeInactive}
}

// Feature names the official client (@turnkey/http) lists that SPEC.md
// does not: vigil does not set them, and its service refuses them
// (CheckFeatureName), but shows them when a real service reports them.
const (
	FeatureSwapConfig = "FEATURE_NAME_SWAP_CONFIG"
	FeatureEarnConfig = "FEATURE_NAME_EARN_CONFIG"
)

// FeatureNames lists every organization feature name.
func FeatureNames() []string {
	return []string{FeatureRootUserEmailRecovery, FeatureWebauthnOrigins, FeatureEmailAuth,
		FeatureEmailRecovery, FeatureWebhook, FeatureSMSAuth, FeatureOtpEmailAuth,
		FeatureAuthProxy, FeatureSolanaRentPrefundEnabled}
}

// AuthenticationTypes lists every MFA authentication method type.
func AuthenticationTypes() []string {
	return []string{AuthEmailOTP, AuthSMSOTP, AuthPasskey, AuthAPIKey, AuthOauth, AuthSession}
}

// AuthenticationTypeOf is the MFA method type a vote cast with a credential
// of this type proves: the local service decides MFA policies with it, and
// the console offers a method only the credentials that prove it.
func AuthenticationTypeOf(credentialType string) string {
	switch credentialType {
	case CredentialWebAuthnAuthenticator:
		return AuthPasskey
	case CredentialOauthKeyP256:
		return AuthOauth
	case CredentialReadWriteSessionP256:
		return AuthSession
	case CredentialEmailAuthKeyP256, CredentialOtpAuthKeyP256:
		return AuthEmailOTP
	}
	return AuthAPIKey
}

// CredentialTypesProving lists the credential types a vote cast with which
// proves MFA method type t (as AuthenticationTypeOf decides): none for
// SMS_OTP, so a method of that type pinned to any credential is never met.
func CredentialTypesProving(t string) []string {
	var out []string
	for _, c := range CredentialTypes() {
		if AuthenticationTypeOf(c) == t {
			out = append(out, c)
		}
	}
	return out
}

// CredentialKind names the credential that proves MFA method type t, for
// messages: a SESSION is proved by a read-write session key, a PASSKEY by
// an authenticator.
func CredentialKind(t string) string {
	switch t {
	case AuthSession:
		return "session key"
	case AuthAPIKey:
		return "API key"
	case AuthOauth:
		return "OAuth key"
	case AuthEmailOTP:
		return "e-mail key"
	case AuthPasskey:
		return "authenticator"
	}
	return "credential"
}

// CredentialMethodTypes maps each credential of the users, by id, to the MFA
// method type a vote cast with it proves: a passkey a PASSKEY, an API key as
// AuthenticationTypeOf its credential type. A method pinned to a credential
// that proves another type can never be met.
func CredentialMethodTypes(users ...User) map[string]string {
	out := map[string]string{}
	for _, u := range users {
		for _, a := range u.Authenticators {
			out[a.AuthenticatorID] = AuthenticationTypeOf(CredentialWebAuthnAuthenticator)
		}
		for _, k := range u.APIKeys {
			out[k.APIKeyID] = AuthenticationTypeOf(k.Credential.Type)
		}
	}
	return out
}

// AccessTypes lists the invitation access types.
func AccessTypes() []string { return []string{AccessTypeWeb, AccessTypeAPI, AccessTypeAll} }

// SmartContractInterfaceTypes lists the smart contract interface types.
func SmartContractInterfaceTypes() []string {
	return []string{SmartContractInterfaceEthereum, SmartContractInterfaceSolana}
}

// Oauth2Providers lists the OAuth2 providers of update_oauth2_credential.
func Oauth2Providers() []string { return []string{Oauth2ProviderX, Oauth2ProviderDiscord} }

// Effects lists the policy effects.
func Effects() []string { return []string{EffectAllow, EffectDeny} }

// EffectText shows policy effect e for a reader: a known effect without its
// EFFECT_ prefix ("ALLOW"); any other quoted whole, its look-alike letters
// escaped, and marked unknown. Trimming the prefix alone would draw "ALLOW",
// "EFFECT_ALLOW " or "EFFECT_\u0410LLOW" exactly as EFFECT_ALLOW, which the
// engine treats as neither allow nor deny.
func EffectText(e string) string {
	if slices.Contains(Effects(), e) {
		return strings.TrimPrefix(e, "EFFECT_")
	}
	return Quote(e) + " (unknown effect: neither ALLOW nor DENY)"
}

// MaxSmartContractInterfaceBytes is SPEC.md's 400kb limit on smartContractInterface.
const MaxSmartContractInterfaceBytes = 400 * 1000

// MaxRequestBodyBytes is the local service's limit on a request body (DESIGN.md §4).
const MaxRequestBodyBytes = 1 << 20
