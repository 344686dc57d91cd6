package api

import (
	"encoding/json"
	"fmt"
	"net/mail"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Limits on what a request may carry. The client checks them before it sends
// (Validate), and the local service refuses what exceeds them with a 400 (the
// same Validate). Lengths are in characters (Unicode code points).
const (
	MaxNameLength         = 256   // policy, MFA policy, tag, label, API key and user names
	MaxNotesLength        = 4096  // notes
	MaxExpressionLength   = 16384 // condition and consensus expressions
	MaxIDLength           = 256   // ids, fingerprints, addresses, client ids, method ids
	MaxEmailLength        = 254   // an e-mail address (RFC 5321)
	MaxFeatureValueLength = 4096  // a feature's value (a URL, a list of origins)
	MaxCredentialLength   = 16384 // oidcToken, targetPublicKey, encryptedClientSecret
	MaxListItems          = 100   // items of one list: invitations, ids, tags, MFA steps, methods
	MaxMfaPolicyOrder     = 10000 // create_mfa_policy order: 0 to this
	MaxExpirationSeconds  = 10 * 365 * 24 * 60 * 60
)

// ValidationError says which parameter of a request is wrong and why. Field is a JSON
// path relative to the parameters object, e.g. "invitations[2].accessType".
//
// The local service turns these into its 400 replies, so Problem is written for the
// person who sent the request: what was wrong and what to do instead.
type ValidationError struct {
	Field   string
	Problem string
	// ErrorCode is the service's errorCode for the problem when it is not
	// INVALID_PARAMETER: JSONKeyCase for a key that matches a field only when
	// case is ignored, as the envelope's keys are answered.
	ErrorCode string
}

func (e *ValidationError) Error() string {
	if e.Field == "" {
		return "invalid request: parameters " + e.Problem
	}
	return "invalid parameter " + e.Field + ": " + e.Problem
}

// Is makes a ValidationError match ErrInvalidArgument, the sentinel of the 400 the
// service would have answered.
func (e *ValidationError) Is(target error) bool { return target == ErrInvalidArgument }

func invalid(field, format string, args ...any) *ValidationError {
	return &ValidationError{Field: field, Problem: fmt.Sprintf(format, args...)}
}

// joinPath appends a JSON key to a path.
func joinPath(prefix, key string) string {
	if prefix == "" {
		return key
	}
	return prefix + "." + key
}

// indexPath appends an array index to a path.
func indexPath(prefix string, i int) string { return prefix + "[" + strconv.Itoa(i) + "]" }

func requireString(field, v, what string) error {
	if v == "" {
		return invalid(field, "is required but empty; set it to %s", what)
	}
	if !utf8.ValidString(v) {
		return invalid(field, "is not valid UTF-8; send text encoded as UTF-8")
	}
	return nil
}

// within checks that v is at most max characters; what names the limit.
func within(field, v string, max int, what string) error {
	if len(v) <= max { // bytes bound characters from above
		return nil
	}
	if n := utf8.RuneCountInString(v); n > max {
		return invalid(field, "is %d characters long, over the limit of %d for %s; shorten it", n, max, what)
	}
	return nil
}

// atMost checks that a list has at most max items.
func atMost(field string, n, max int, what string) error {
	if n > max {
		return invalid(field, "has %d %s, over the limit of %d per request; send them in several requests", n, what, max)
	}
	return nil
}

func optionalString(field, v string) error {
	if !utf8.ValidString(v) {
		return invalid(field, "is not valid UTF-8; send text encoded as UTF-8")
	}
	return nil
}

func requireEnum(field, v string, allowed []string) error {
	if v == "" {
		return invalid(field, "is required but empty; set it to one of %s", strings.Join(allowed, ", "))
	}
	if !slices.Contains(allowed, v) {
		return invalid(field, "%s is not an accepted value; use one of %s", strconv.QuoteToASCII(v), strings.Join(allowed, ", "))
	}
	return nil
}

// idList checks a list of ids: each non-empty and listed once, at most
// MaxListItems of them. The list itself may be empty: SPEC.md makes the key
// required (checkJSON refuses it missing or null), not the items, and an empty
// list is a request it allows (a tag given to users later). A client that
// finds an empty delete pointless says so itself (the CLI and console do).
func idList(field string, ids []string, what string) error {
	if err := atMost(field, len(ids), MaxListItems, what+"s"); err != nil {
		return err
	}
	first := make(map[string]int, len(ids))
	for i, id := range ids {
		if err := requireString(indexPath(field, i), id, "a "+what); err != nil {
			return err
		}
		if err := within(indexPath(field, i), id, MaxIDLength, "an id"); err != nil {
			return err
		}
		// Listed twice, an id would make its second deletion fail with a
		// cause that is not the real one.
		if j, dup := first[id]; dup {
			return invalid(indexPath(field, i), "%s is %s[%d] again; list each %s once", strconv.QuoteToASCII(id), field, j, what)
		}
		first[id] = i
	}
	return nil
}

// ParseDecimal reads a number sent as a string (timestampMs, limits, seconds)
// in its one spelling: decimal digits, no sign, no leading zero. Two spellings
// of one value would be two fingerprints of one request.
func ParseDecimal(s string) (int64, error) {
	if s == "" || len(s) > 1 && s[0] == '0' || strings.TrimLeft(s, "0123456789") != "" {
		return 0, fmt.Errorf("%s is not a number written in decimal digits without a sign or leading zeros", strconv.QuoteToASCII(s))
	}
	return strconv.ParseInt(s, 10, 64)
}

// positiveSeconds checks an optional numeric string of seconds.
func positiveSeconds(field, v string) error {
	if v == "" {
		return nil
	}
	n, err := ParseDecimal(v)
	if err != nil {
		return invalid(field, "%s is not a whole number of seconds; send decimal digits such as \"900\"", strconv.QuoteToASCII(v))
	}
	if n <= 0 {
		return invalid(field, "%s is not positive; send a number of seconds greater than 0", strconv.QuoteToASCII(v))
	}
	if n > MaxExpirationSeconds {
		return invalid(field, "%s is more than %d seconds (10 years); send a shorter lifetime", strconv.QuoteToASCII(v), MaxExpirationSeconds)
	}
	return nil
}

// Validate checks the oauth parameters.
func (p *OauthParams) Validate() error {
	if p == nil {
		return invalid("", "missing; send the oauth parameters object")
	}
	return first(
		requireString("oidcToken", p.OidcToken, "the base64-encoded OIDC token"),
		within("oidcToken", p.OidcToken, MaxCredentialLength, "a token"),
		requireString("targetPublicKey", p.TargetPublicKey, "the public key the credential bundle is to be encrypted to"),
		within("targetPublicKey", p.TargetPublicKey, MaxCredentialLength, "a public key"),
		optionalString("apiKeyName", p.APIKeyName),
		within("apiKeyName", p.APIKeyName, MaxNameLength, "a name"),
		positiveSeconds("expirationSeconds", p.ExpirationSeconds),
	)
}

// Validate checks the create_invitations parameters and each invitation. An
// empty list is allowed (idList says why).
func (p *CreateInvitationsParams) Validate() error {
	if p == nil {
		return invalid("", "missing; send the create_invitations parameters object")
	}
	if err := atMost("invitations", len(p.Invitations), MaxListItems, "invitations"); err != nil {
		return err
	}
	// One mailbox invited twice in one round would get two invitations
	// under two names, and a per-invitee setting (matched to an address
	// ignoring case) would reach both: refused, as a repeated id is.
	first := make(map[string]int, len(p.Invitations))
	for i := range p.Invitations {
		if err := p.Invitations[i].validate(indexPath("invitations", i)); err != nil {
			return err
		}
		address := addressKey(p.Invitations[i].ReceiverUserEmail)
		if j, dup := first[address]; dup {
			return invalid(joinPath(indexPath("invitations", i), "receiverUserEmail"), "%s is invitations[%d]'s address again (addresses are compared ignoring the case of ASCII letters); invite each address once",
				strconv.QuoteToASCII(p.Invitations[i].ReceiverUserEmail), j)
		}
		first[address] = i
	}
	return nil
}

// Validate checks one invitation on its own; field names are relative to it.
func (inv *Invitation) Validate() error { return inv.validate("") }

func (inv *Invitation) validate(prefix string) error {
	if err := requireString(joinPath(prefix, "receiverUserName"), inv.ReceiverUserName, "the recipient's name"); err != nil {
		return err
	}
	if err := within(joinPath(prefix, "receiverUserName"), inv.ReceiverUserName, MaxNameLength, "a name"); err != nil {
		return err
	}
	field := joinPath(prefix, "receiverUserEmail")
	if err := requireString(field, inv.ReceiverUserEmail, "the recipient's e-mail address"); err != nil {
		return err
	}
	if err := within(field, inv.ReceiverUserEmail, MaxEmailLength, "an e-mail address"); err != nil {
		return err
	}
	if addr, err := mail.ParseAddress(inv.ReceiverUserEmail); err != nil || addr.Address != inv.ReceiverUserEmail {
		if err == nil && strings.HasPrefix(inv.ReceiverUserEmail, `"`) {
			// RFC 5322 allows it, but the address it reads as is not the
			// text sent, and few mail systems take one: refused on purpose.
			return invalid(field, "%s has a quoted local part, which is not accepted; send a plain address such as alice@example.com", strconv.QuoteToASCII(inv.ReceiverUserEmail))
		}
		return invalid(field, "%s is not an e-mail address; send a plain address such as alice@example.com", strconv.QuoteToASCII(inv.ReceiverUserEmail))
	}
	if err := atMost(joinPath(prefix, "receiverUserTags"), len(inv.ReceiverUserTags), MaxListItems, "tags"); err != nil {
		return err
	}
	for i, tag := range inv.ReceiverUserTags {
		if err := requireString(indexPath(joinPath(prefix, "receiverUserTags"), i), tag, "a user tag id (or leave the tag out)"); err != nil {
			return err
		}
		if err := within(indexPath(joinPath(prefix, "receiverUserTags"), i), tag, MaxIDLength, "an id"); err != nil {
			return err
		}
	}
	if err := requireEnum(joinPath(prefix, "accessType"), inv.AccessType, AccessTypes()); err != nil {
		return err
	}
	return first(
		requireString(joinPath(prefix, "senderUserId"), inv.SenderUserID, "the id of the user sending the invitation"),
		within(joinPath(prefix, "senderUserId"), inv.SenderUserID, MaxIDLength, "an id"),
	)
}

// Validate checks the create_smart_contract_interface parameters, including the
// 400 kB limit on the interface.
func (p *CreateSmartContractInterfaceParams) Validate() error {
	if p == nil {
		return invalid("", "missing; send the create_smart_contract_interface parameters object")
	}
	if err := requireString("smartContractAddress", p.SmartContractAddress, "the contract address or program id"); err != nil {
		return err
	}
	if err := within("smartContractAddress", p.SmartContractAddress, MaxIDLength, "an address"); err != nil {
		return err
	}
	if err := requireString("smartContractInterface", p.SmartContractInterface, "the ABI or IDL as a JSON string"); err != nil {
		return err
	}
	if n := len(p.SmartContractInterface); n > MaxSmartContractInterfaceBytes {
		return invalid("smartContractInterface", "is %d bytes, over the limit of %d bytes (400 kB); trim the ABI/IDL to the functions you need", n, MaxSmartContractInterfaceBytes)
	}
	if !jsonValidString(p.SmartContractInterface) {
		return invalid("smartContractInterface", "is not valid JSON; send the ABI or IDL document itself, as a JSON string")
	}
	if err := requireEnum("type", p.Type, SmartContractInterfaceTypes()); err != nil {
		return err
	}
	if err := requireString("label", p.Label, "a human-readable name"); err != nil {
		return err
	}
	return first(
		within("label", p.Label, MaxNameLength, "a label"),
		optionalString("notes", p.Notes),
		within("notes", p.Notes, MaxNotesLength, "notes"),
	)
}

// Validate checks the set_organization_feature parameters. An empty value is
// accepted: SPEC.md marks value required but optional in meaning (it replaces the
// feature's value), so the key must be sent but may be "".
func (p *SetOrganizationFeatureParams) Validate() error {
	if p == nil {
		return invalid("", "missing; send the set_organization_feature parameters object")
	}
	if err := CheckFeatureName(p.Name); err != nil {
		return err
	}
	return first(optionalString("value", p.Value), within("value", p.Value, MaxFeatureValueLength, "a feature value"))
}

// Validate checks the update_oauth2_credential parameters.
func (p *UpdateOauth2CredentialParams) Validate() error {
	if p == nil {
		return invalid("", "missing; send the update_oauth2_credential parameters object")
	}
	if err := requireString("oauth2CredentialId", p.Oauth2CredentialID, "the id of the credential to update"); err != nil {
		return err
	}
	if err := within("oauth2CredentialId", p.Oauth2CredentialID, MaxIDLength, "an id"); err != nil {
		return err
	}
	if err := requireEnum("provider", p.Provider, Oauth2Providers()); err != nil {
		return err
	}
	if err := requireString("clientId", p.ClientID, "the client id issued by the provider"); err != nil {
		return err
	}
	return first(
		within("clientId", p.ClientID, MaxIDLength, "a client id"),
		requireString("encryptedClientSecret", p.EncryptedClientSecret, "the client secret encrypted to the TLS fetcher key"),
		within("encryptedClientSecret", p.EncryptedClientSecret, MaxCredentialLength, "an encrypted secret"),
	)
}

// Validate checks the create_policy parameters. Notes may be "" (the key is always
// sent): SPEC.md requires the field but gives it no content rule.
func (p *CreatePolicyParams) Validate() error {
	if p == nil {
		return invalid("", "missing; send the create_policy parameters object")
	}
	if err := requireString("policyName", p.PolicyName, "a name for the policy"); err != nil {
		return err
	}
	if err := within("policyName", p.PolicyName, MaxNameLength, "a name"); err != nil {
		return err
	}
	if err := requireEnum("effect", p.Effect, Effects()); err != nil {
		return err
	}
	return first(
		optionalString("condition", p.Condition),
		within("condition", p.Condition, MaxExpressionLength, "an expression"),
		optionalString("consensus", p.Consensus),
		within("consensus", p.Consensus, MaxExpressionLength, "an expression"),
		optionalString("notes", p.Notes),
		within("notes", p.Notes, MaxNotesLength, "notes"),
		optionalString("time", p.Time),
		within("time", p.Time, MaxExpressionLength, "an expression"),
	)
}

// Validate checks the delete_wallet_accounts parameters.
func (p *DeleteWalletAccountsParams) Validate() error {
	if p == nil {
		return invalid("", "missing; send the delete_wallet_accounts parameters object")
	}
	return idList("walletAccountIds", p.WalletAccountIDs, "wallet account id")
}

// Validate checks the create_user_tag parameters.
func (p *CreateUserTagParams) Validate() error {
	if p == nil {
		return invalid("", "missing; send the create_user_tag parameters object")
	}
	if err := requireString("userTagName", p.UserTagName, "a name for the tag"); err != nil {
		return err
	}
	if err := within("userTagName", p.UserTagName, MaxNameLength, "a name"); err != nil {
		return err
	}
	return idList("userIds", p.UserIDs, "user id")
}

// Validate checks the delete_api_keys parameters.
func (p *DeleteAPIKeysParams) Validate() error {
	if p == nil {
		return invalid("", "missing; send the delete_api_keys parameters object")
	}
	if err := requireString("userId", p.UserID, "the id of the user owning the keys"); err != nil {
		return err
	}
	if err := within("userId", p.UserID, MaxIDLength, "an id"); err != nil {
		return err
	}
	return idList("apiKeyIds", p.APIKeyIDs, "API key id")
}

// Validate accepts the (empty) create_read_only_session parameters.
func (p *CreateReadOnlySessionParams) Validate() error { return nil }

// Validate checks the delete_tvc_deployment parameters.
func (p *DeleteTvcDeploymentParams) Validate() error {
	if p == nil {
		return invalid("", "missing; send the delete_tvc_deployment parameters object")
	}
	return first(
		requireString("deploymentId", p.DeploymentID, "the id of the deployment to delete"),
		within("deploymentId", p.DeploymentID, MaxIDLength, "an id"),
	)
}

// Validate checks the create_mfa_policy parameters: at least one step, each with at
// least one known method, and a non-negative order.
func (p *CreateMfaPolicyParams) Validate() error {
	if p == nil {
		return invalid("", "missing; send the create_mfa_policy parameters object")
	}
	if err := requireString("userId", p.UserID, "the id of the user the policy is for"); err != nil {
		return err
	}
	if err := within("userId", p.UserID, MaxIDLength, "an id"); err != nil {
		return err
	}
	if err := requireString("mfaPolicyName", p.MfaPolicyName, "a name for the MFA policy"); err != nil {
		return err
	}
	if err := within("mfaPolicyName", p.MfaPolicyName, MaxNameLength, "a name"); err != nil {
		return err
	}
	if err := requireString("condition", p.Condition, "an expression that is true when the policy applies (e.g. true)"); err != nil {
		return err
	}
	// Only spaces would compile to "always applies": a required expression
	// left unwritten, not a decision.
	if strings.TrimSpace(p.Condition) == "" {
		return invalid("condition", "is only white space; set it to an expression that is true when the policy applies (e.g. true)")
	}
	if err := within("condition", p.Condition, MaxExpressionLength, "an expression"); err != nil {
		return err
	}
	if len(p.RequiredAuthenticationMethods) == 0 {
		return invalid("requiredAuthenticationMethods", "is required but empty; list at least one step, e.g. [{\"any\":[{\"type\":\"%s\"}]}]", AuthPasskey)
	}
	if err := atMost("requiredAuthenticationMethods", len(p.RequiredAuthenticationMethods), MaxListItems, "steps"); err != nil {
		return err
	}
	for i, step := range p.RequiredAuthenticationMethods {
		stepPath := indexPath("requiredAuthenticationMethods", i)
		if len(step.Any) == 0 {
			return invalid(joinPath(stepPath, "any"), "is empty; list at least one authentication method the user may use for this step")
		}
		if err := atMost(joinPath(stepPath, "any"), len(step.Any), MaxListItems, "methods"); err != nil {
			return err
		}
		for j, m := range step.Any {
			methodPath := indexPath(joinPath(stepPath, "any"), j)
			if err := requireEnum(joinPath(methodPath, "type"), m.Type, AuthenticationTypes()); err != nil {
				return err
			}
			if err := optionalString(joinPath(methodPath, "id"), m.ID); err != nil {
				return err
			}
			if err := within(joinPath(methodPath, "id"), m.ID, MaxIDLength, "an id"); err != nil {
				return err
			}
		}
	}
	if p.Order < 0 || p.Order > MaxMfaPolicyOrder {
		return invalid("order", "is %d; send 0 or more, at most %d (0 is evaluated first)", p.Order, MaxMfaPolicyOrder)
	}
	return first(optionalString("notes", p.Notes), within("notes", p.Notes, MaxNotesLength, "notes"))
}

// Validate checks the approve_activity parameters.
func (p *ApproveActivityParams) Validate() error {
	if p == nil {
		return invalid("", "missing; send the approve_activity parameters object")
	}
	return first(
		requireString("fingerprint", p.Fingerprint, "the fingerprint of the activity to approve"),
		within("fingerprint", p.Fingerprint, MaxIDLength, "a fingerprint"),
	)
}

// Validate checks the reject_activity parameters.
func (p *RejectActivityParams) Validate() error {
	if p == nil {
		return invalid("", "missing; send the reject_activity parameters object")
	}
	return first(
		requireString("fingerprint", p.Fingerprint, "the fingerprint of the activity to reject"),
		within("fingerprint", p.Fingerprint, MaxIDLength, "a fingerprint"),
	)
}

// first returns the first non-nil error: validation reports one problem at a time,
// in field order, so the message names exactly one field.
func first(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// Params is implemented by the parameters of every submit operation.
type Params interface {
	Validate() error
}

// jsonValidString reports whether s is a JSON document.
func jsonValidString(s string) bool { return json.Valid([]byte(s)) }
