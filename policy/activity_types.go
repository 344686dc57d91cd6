package policy

// documentedResourceActions is the real service's "Activity types by
// resource and action" table (features/policies/language.mdx), for the
// activity types of the real service that this service does not implement:
// a simulated activity of any documented type gets the documented resource
// and action. Older versions of a type (ACTIVITY_TYPE_SIGN_TRANSACTION for
// ACTIVITY_TYPE_SIGN_TRANSACTION_V2) take those of their kind's listed version.
var documentedResourceActions = map[string][2]string{
	"ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V8":      {"ORGANIZATION", "CREATE"},
	"ACTIVITY_TYPE_DELETE_ORGANIZATION":             {"ORGANIZATION", "DELETE"},
	"ACTIVITY_TYPE_DELETE_SUB_ORGANIZATION":         {"ORGANIZATION", "DELETE"},
	"ACTIVITY_TYPE_CREATE_INVITATIONS":              {"INVITATION", "CREATE"},
	"ACTIVITY_TYPE_DELETE_INVITATION":               {"INVITATION", "DELETE"},
	"ACTIVITY_TYPE_CREATE_POLICY_V3":                {"POLICY", "CREATE"},
	"ACTIVITY_TYPE_CREATE_POLICIES":                 {"POLICY", "CREATE"},
	"ACTIVITY_TYPE_UPDATE_POLICY_V2":                {"POLICY", "UPDATE"},
	"ACTIVITY_TYPE_DELETE_POLICY":                   {"POLICY", "DELETE"},
	"ACTIVITY_TYPE_DELETE_POLICIES":                 {"POLICY", "DELETE"},
	"ACTIVITY_TYPE_CREATE_SMART_CONTRACT_INTERFACE": {"SMART_CONTRACT_INTERFACE", "CREATE"},
	"ACTIVITY_TYPE_DELETE_SMART_CONTRACT_INTERFACE": {"SMART_CONTRACT_INTERFACE", "DELETE"},
	"ACTIVITY_TYPE_CREATE_WALLET":                   {"WALLET", "CREATE"},
	"ACTIVITY_TYPE_CREATE_WALLET_ACCOUNTS":          {"WALLET", "CREATE"},
	"ACTIVITY_TYPE_EXPORT_WALLET":                   {"WALLET", "EXPORT"},
	"ACTIVITY_TYPE_EXPORT_WALLET_ACCOUNT":           {"WALLET", "EXPORT"},
	"ACTIVITY_TYPE_INIT_IMPORT_WALLET":              {"WALLET", "IMPORT"},
	"ACTIVITY_TYPE_IMPORT_WALLET":                   {"WALLET", "IMPORT"},
	"ACTIVITY_TYPE_DELETE_WALLETS":                  {"WALLET", "DELETE"},
	"ACTIVITY_TYPE_UPDATE_WALLET":                   {"WALLET", "UPDATE"},
	"ACTIVITY_TYPE_DELETE_WALLET_ACCOUNTS":          {"WALLET", "DELETE"},
	"ACTIVITY_TYPE_CREATE_PRIVATE_KEYS_V2":          {"PRIVATE_KEY", "CREATE"},
	"ACTIVITY_TYPE_CREATE_PRIVATE_KEY_TAG":          {"PRIVATE_KEY", "CREATE"},
	"ACTIVITY_TYPE_UPDATE_PRIVATE_KEY_TAG":          {"PRIVATE_KEY", "UPDATE"},
	"ACTIVITY_TYPE_DISABLE_PRIVATE_KEY":             {"PRIVATE_KEY", "DELETE"},
	"ACTIVITY_TYPE_DELETE_PRIVATE_KEY_TAGS":         {"PRIVATE_KEY", "DELETE"},
	"ACTIVITY_TYPE_DELETE_PRIVATE_KEYS":             {"PRIVATE_KEY", "DELETE"},
	"ACTIVITY_TYPE_EXPORT_PRIVATE_KEY":              {"PRIVATE_KEY", "EXPORT"},
	"ACTIVITY_TYPE_INIT_IMPORT_PRIVATE_KEY":         {"PRIVATE_KEY", "IMPORT"},
	"ACTIVITY_TYPE_IMPORT_PRIVATE_KEY":              {"PRIVATE_KEY", "IMPORT"},
	"ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2":             {"PRIVATE_KEY", "SIGN"},
	"ACTIVITY_TYPE_SIGN_RAW_PAYLOADS":               {"PRIVATE_KEY", "SIGN"},
	"ACTIVITY_TYPE_SIGN_TRANSACTION_V2":             {"PRIVATE_KEY", "SIGN"},
	"ACTIVITY_TYPE_ETH_SEND_TRANSACTION":            {"PRIVATE_KEY", "SIGN"},
	"ACTIVITY_TYPE_SOL_SEND_TRANSACTION":            {"PRIVATE_KEY", "SIGN"},
	"ACTIVITY_TYPE_CREATE_USERS_V4":                 {"USER", "CREATE"},
	"ACTIVITY_TYPE_CREATE_USER_TAG":                 {"USER", "CREATE"},
	"ACTIVITY_TYPE_CREATE_API_ONLY_USERS":           {"USER", "CREATE"},
	"ACTIVITY_TYPE_UPDATE_USER":                     {"USER", "UPDATE"},
	"ACTIVITY_TYPE_UPDATE_USER_NAME":                {"USER", "UPDATE"},
	"ACTIVITY_TYPE_UPDATE_USER_EMAIL":               {"USER", "UPDATE"},
	"ACTIVITY_TYPE_UPDATE_USER_PHONE_NUMBER":        {"USER", "UPDATE"},
	"ACTIVITY_TYPE_UPDATE_USER_TAG":                 {"USER", "UPDATE"},
	"ACTIVITY_TYPE_DELETE_USERS":                    {"USER", "DELETE"},
	"ACTIVITY_TYPE_DELETE_USER_TAGS":                {"USER", "DELETE"},
	"ACTIVITY_TYPE_CREATE_API_KEYS_V2":              {"CREDENTIAL", "CREATE"},
	"ACTIVITY_TYPE_CREATE_AUTHENTICATORS_V2":        {"CREDENTIAL", "CREATE"},
	"ACTIVITY_TYPE_DELETE_API_KEYS":                 {"CREDENTIAL", "DELETE"},
	"ACTIVITY_TYPE_DELETE_AUTHENTICATORS":           {"CREDENTIAL", "DELETE"},
	"ACTIVITY_TYPE_CREATE_OAUTH_PROVIDERS_V2":       {"CREDENTIAL", "CREATE"},
	"ACTIVITY_TYPE_DELETE_OAUTH_PROVIDERS":          {"CREDENTIAL", "DELETE"},
	"ACTIVITY_TYPE_SET_PAYMENT_METHOD_V2":           {"PAYMENT_METHOD", "UPDATE"},
	"ACTIVITY_TYPE_DELETE_PAYMENT_METHOD":           {"PAYMENT_METHOD", "DELETE"},
	"ACTIVITY_TYPE_ACTIVATE_BILLING_TIER":           {"SUBSCRIPTION", "CREATE"},
	"ACTIVITY_TYPE_UPDATE_ALLOWED_ORIGINS":          {"CONFIG", "UPDATE"},
	"ACTIVITY_TYPE_INIT_USER_EMAIL_RECOVERY_V2":     {"RECOVERY", "CREATE"},
	"ACTIVITY_TYPE_EMAIL_AUTH_V3":                   {"AUTH", "CREATE"},
	"ACTIVITY_TYPE_INIT_OTP_AUTH_V3":                {"AUTH", "CREATE"},
	"ACTIVITY_TYPE_OTP_AUTH":                        {"AUTH", "CREATE"},
	"ACTIVITY_TYPE_OAUTH":                           {"AUTH", "CREATE"},
	"ACTIVITY_TYPE_OAUTH_LOGIN":                     {"AUTH", "CREATE"},
	"ACTIVITY_TYPE_OTP_LOGIN_V2":                    {"AUTH", "CREATE"},
	"ACTIVITY_TYPE_STAMP_LOGIN":                     {"AUTH", "CREATE"},
	"ACTIVITY_TYPE_CREATE_READ_WRITE_SESSION_V2":    {"AUTH", "CREATE"},
	"ACTIVITY_TYPE_CREATE_OAUTH2_CREDENTIAL":        {"AUTH", "CREATE"},
	"ACTIVITY_TYPE_DELETE_OAUTH2_CREDENTIAL":        {"AUTH", "DELETE"},
	"ACTIVITY_TYPE_UPDATE_OAUTH2_CREDENTIAL":        {"AUTH", "UPDATE"},
	"ACTIVITY_TYPE_OAUTH2_AUTHENTICATE":             {"AUTH", "CREATE"},
	"ACTIVITY_TYPE_INIT_OTP_V3":                     {"OTP", "CREATE"},
	"ACTIVITY_TYPE_VERIFY_OTP_V2":                   {"OTP", "VERIFY"},
	"ACTIVITY_TYPE_ENABLE_AUTH_PROXY":               {"AUTH_PROXY", "CREATE"},
	"ACTIVITY_TYPE_DISABLE_AUTH_PROXY":              {"AUTH_PROXY", "DELETE"},
	"ACTIVITY_TYPE_UPDATE_AUTH_PROXY_CONFIG":        {"AUTH_PROXY", "UPDATE"},
	"ACTIVITY_TYPE_CREATE_WEBHOOK_ENDPOINT":         {"WEBHOOK_ENDPOINT", "CREATE"},
	"ACTIVITY_TYPE_UPDATE_WEBHOOK_ENDPOINT":         {"WEBHOOK_ENDPOINT", "UPDATE"},
	"ACTIVITY_TYPE_DELETE_WEBHOOK_ENDPOINT":         {"WEBHOOK_ENDPOINT", "DELETE"},
	"ACTIVITY_TYPE_CREATE_TVC_APP":                  {"TVC_APP", "CREATE"},
	"ACTIVITY_TYPE_UPDATE_TVC_APP_LIVE_DEPLOYMENT":  {"TVC_APP", "UPDATE"},
	"ACTIVITY_TYPE_DELETE_TVC_APP_AND_DEPLOYMENTS":  {"TVC_APP", "DELETE"},
	"ACTIVITY_TYPE_CREATE_TVC_DEPLOYMENT":           {"TVC_DEPLOYMENT", "CREATE"},
	"ACTIVITY_TYPE_CREATE_TVC_MANIFEST_APPROVALS":   {"TVC_DEPLOYMENT", "UPDATE"},
	"ACTIVITY_TYPE_RESTORE_TVC_DEPLOYMENT":          {"TVC_DEPLOYMENT", "UPDATE"},
	"ACTIVITY_TYPE_POST_TVC_QUORUM_KEY_SHARE":       {"TVC_DEPLOYMENT", "UPDATE"},
	"ACTIVITY_TYPE_DELETE_TVC_DEPLOYMENT":           {"TVC_DEPLOYMENT", "DELETE"},
	"ACTIVITY_TYPE_CREATE_TVC_OPERATOR":             {"TVC_OPERATOR", "CREATE"},
	"ACTIVITY_TYPE_CREATE_TVC_QUORUM_KEY":           {"TVC_QUORUM_KEY", "CREATE"},
	"ACTIVITY_TYPE_RE_ENCRYPT_TVC_QUORUM_KEY_SHARE": {"TVC_QUORUM_KEY", "ENCRYPT"},
}

// documentedByKind indexes documentedResourceActions by kind.
var documentedByKind = func() map[string][2]string {
	out := make(map[string][2]string, len(documentedResourceActions))
	for typ, ra := range documentedResourceActions {
		out[KindOf(typ)] = ra
	}
	return out
}()

// typesOutsideTheTable are real activity types the docs name outside their
// resource and action table (the Secrets pages): their resource and action
// are empty.
var typesOutsideTheTable = []string{
	"ACTIVITY_TYPE_EXPORT_SECRETS", "ACTIVITY_TYPE_IMPORT_SECRETS", "ACTIVITY_TYPE_INIT_IMPORT_SECRETS",
}

// typesOnlyInTheKindsTable are the real activity types the docs' "Activity
// kinds" table lists and their resource and action table omits: known (a
// condition on their type or kind may match), with an empty resource and
// action, as typesOutsideTheTable, since the docs do not say theirs.
var typesOnlyInTheKindsTable = []string{
	"ACTIVITY_TYPE_UPSERT_SWAP_CONFIG", "ACTIVITY_TYPE_EXECUTE_SWAP", "ACTIVITY_TYPE_INIT_FIAT_ON_RAMP",
	"ACTIVITY_TYPE_CREATE_FIAT_ON_RAMP_CREDENTIAL", "ACTIVITY_TYPE_UPDATE_FIAT_ON_RAMP_CREDENTIAL",
	"ACTIVITY_TYPE_DELETE_FIAT_ON_RAMP_CREDENTIAL", "ACTIVITY_TYPE_UPSERT_GAS_USAGE_CONFIG",
	"ACTIVITY_TYPE_UPDATE_MFA_POLICY", "ACTIVITY_TYPE_DELETE_MFA_POLICY", "ACTIVITY_TYPE_CREATE_SESSION_PROFILE",
}

// documentedResources and documentedActions are the values the docs'
// "Activity resources and actions" section calls valid. Some (SPONSORSHIP,
// SESSION_PROFILE, …) no type of its table has, yet real activities do, so a
// comparison with one may match.
var (
	documentedResources = []string{"AUTH", "AUTH_PROXY", "CONFIG", "CREDENTIAL", "FIAT_TRANSACTION", "INVITATION",
		"MFA_POLICY", "ON_RAMP_CREDENTIALS", "ORGANIZATION", "OTP", "PAYMENT_METHOD", "POLICY", "PRIVATE_KEY",
		"RECOVERY", "SESSION_PROFILE", "SMART_CONTRACT_INTERFACE", "SPONSORSHIP", "SUBSCRIPTION", "TVC_APP",
		"TVC_DEPLOYMENT", "TVC_OPERATOR", "TVC_QUORUM_KEY", "USER", "WALLET", "WEBHOOK_ENDPOINT"}
	documentedActions = []string{"CREATE", "UPDATE", "DELETE", "SIGN", "EXPORT", "IMPORT", "VERIFY", "ENCRYPT"}
)

// knownActivityTypes is every activity type vigil knows of: this service's,
// the docs' resource and action table's, the root quorum's, those whose
// parameters the docs list (the Spark ones), typesOutsideTheTable and
// typesOnlyInTheKindsTable.
func knownActivityTypes() []string {
	var out []string
	for typ := range resourceActions {
		out = append(out, typ)
	}
	for typ := range documentedResourceActions {
		out = append(out, typ)
	}
	for typ := range rootQuorumTypes {
		out = append(out, typ)
	}
	for _, ts := range documentedParams {
		for _, t := range ts {
			out = append(out, "ACTIVITY_TYPE_"+t)
		}
	}
	out = append(out, typesOnlyInTheKindsTable...)
	return append(out, typesOutsideTheTable...)
}
