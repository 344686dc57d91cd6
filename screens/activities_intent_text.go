package screens

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/ui"
)

// What an activity would do, in words: the detail's heading and the list's
// WHAT cell.

// intentSummary is a one-line description of what an activity would do, for
// the detail's heading. Names are quoted with api.Quote, so a name cannot close
// its quotes and pass its own words for the console's, and look-alike letters
// show; what decides the meaning (an effect) comes before the name, where a
// long name cannot push it out of the line.
func intentSummary(c *Common, in api.Intent) string {
	var s string
	switch keys := in.Keys(); {
	case len(keys) > 1:
		s = fmt.Sprintf("%d operations in one intent: %s (every field below)", len(keys), strings.Join(keys, ", "))
	case in.CreatePolicyIntentV3 != nil:
		p := in.CreatePolicyIntentV3
		s = fmt.Sprintf("create %s policy %s", api.EffectText(p.Effect), quoteHead(p.PolicyName))
	case in.SetOrganizationFeatureIntent != nil:
		p := in.SetOrganizationFeatureIntent
		s = fmt.Sprintf("set %s = %s", strings.TrimPrefix(p.Name, "FEATURE_NAME_"), quoteHead(p.Value))
	case in.DeleteAPIKeysIntent != nil:
		p := in.DeleteAPIKeysIntent
		s = fmt.Sprintf("delete %s of %s", plural(len(p.APIKeyIDs), "API key"), userNameHead(c, p.UserID))
	case in.DeleteWalletAccountsIntent != nil:
		s = "delete " + plural(len(in.DeleteWalletAccountsIntent.WalletAccountIDs), "wallet account")
	case in.CreateUserTagIntent != nil:
		p := in.CreateUserTagIntent
		s = fmt.Sprintf("tag %s %s", plural(len(p.UserIDs), "user"), quoteHead(p.UserTagName))
	case in.CreateInvitationsIntent != nil:
		s = "invite " + plural(len(in.CreateInvitationsIntent.Invitations), "user") + " as " + sendersText(c, in.CreateInvitationsIntent.Invitations)
	case in.CreateMfaPolicyIntent != nil:
		p := in.CreateMfaPolicyIntent
		s = fmt.Sprintf("create MFA policy for %s: %s", userNameHead(c, p.UserID), quoteHead(p.MfaPolicyName))
	case in.CreateSmartContractInterfaceIntent != nil:
		p := in.CreateSmartContractInterfaceIntent
		s = fmt.Sprintf("create contract interface at %s: %s", quoteHead(p.SmartContractAddress), quoteHead(p.Label))
	case in.UpdateOauth2CredentialIntent != nil:
		p := in.UpdateOauth2CredentialIntent
		s = fmt.Sprintf("update OAuth2 credential %s (%s)", api.SanitizeID(p.Oauth2CredentialID), quoteHead(p.Provider))
	case in.DeleteTvcDeploymentIntent != nil:
		s = "delete TVC deployment " + api.SanitizeID(in.DeleteTvcDeploymentIntent.DeploymentID)
	case in.OauthIntent != nil:
		s = "OAuth login, new API key " + quoteHead(in.OauthIntent.APIKeyName)
	case in.CreateReadOnlySessionIntent != nil:
		s = "create a read-only session"
	case len(in.Other) > 0:
		s = "a type this console does not know: " + strings.Join(in.UnknownKeys(), ", ") + " (every field below)"
	default:
		if _, params := in.Params(); params == nil {
			return "(this console cannot show this activity's intent)"
		}
		out, _ := json.Marshal(in)
		s = string(out)
	}
	if head, cut := nameHead(s, 4*headBytes); cut {
		s = head + "…" // more than the 70 cells kept: not cleaned whole
	}
	return ansi.Truncate(ui.Clean(s), 70, "…")
}

// sendersText names the distinct senders of invitations, by name (quoted,
// as the detail's heading quotes every name) when the console knows them,
// else as "unknown user <id>".
func sendersText(c *Common, invs []api.Invitation) string {
	var out []string
	seen := map[string]bool{}
	for _, inv := range invs {
		if seen[inv.SenderUserID] {
			continue
		}
		seen[inv.SenderUserID] = true
		if n, ok := c.Org.UserNames[inv.SenderUserID]; ok {
			out = append(out, quoteHead(n))
		} else {
			out = append(out, "unknown user "+api.SanitizeID(inv.SenderUserID))
		}
	}
	return orElse(strings.Join(out, ", "), "(no sender)")
}

// userNameHead is a user's name for the detail's heading, quoted always as
// its other names are (quoteHead): a member's name cannot pass its words for
// the console's; else the (quoted if tampered) id.
func userNameHead(c *Common, id string) string {
	if n := c.Org.UserNames[id]; n != "" {
		return quoteHead(n)
	}
	return "user " + api.SanitizeID(id)
}

// userName is a user's name when the console knows it, else the (quoted if
// tampered) id.
func userName(c *Common, id string) string {
	if n := c.Org.UserNames[id]; n != "" {
		return api.NameText(n)
	}
	return "user " + api.SanitizeID(id)
}

// intentWhat is the list's WHAT cell: what the activity would do, in a few words
// ("delete 1 API key of carol", "set feature WEBHOOK", "create ALLOW policy
// "x""). The detail and the vote dialog say it in full.
func intentWhat(c *Common, act *api.Activity) string {
	in := act.Intent
	var s string
	switch keys := in.Keys(); {
	case len(keys) > 1:
		s = fmt.Sprintf("%d operations: %s", len(keys), strings.Join(keys, ", "))
	case in.CreatePolicyIntentV3 != nil:
		p := in.CreatePolicyIntentV3
		s = "create " + api.EffectText(p.Effect) + " policy " + api.Quote(p.PolicyName)
	case in.SetOrganizationFeatureIntent != nil:
		s = "set feature " + strings.TrimPrefix(in.SetOrganizationFeatureIntent.Name, "FEATURE_NAME_")
	case in.DeleteAPIKeysIntent != nil:
		s = "delete " + apiKeysWhat(c, in.DeleteAPIKeysIntent)
	case in.DeleteWalletAccountsIntent != nil:
		s = "delete " + plural(len(in.DeleteWalletAccountsIntent.WalletAccountIDs), "wallet account")
	case in.CreateUserTagIntent != nil:
		p := in.CreateUserTagIntent
		s = "tag " + plural(len(p.UserIDs), "user") + " " + api.Quote(p.UserTagName)
	case in.CreateInvitationsIntent != nil:
		s = "invite " + plural(len(in.CreateInvitationsIntent.Invitations), "user")
	case in.CreateMfaPolicyIntent != nil:
		p := in.CreateMfaPolicyIntent
		s = "create MFA policy for " + userName(c, p.UserID) + ": " + api.Quote(p.MfaPolicyName)
	case in.CreateSmartContractInterfaceIntent != nil:
		s = "create contract interface " + api.Quote(in.CreateSmartContractInterfaceIntent.Label)
	case in.UpdateOauth2CredentialIntent != nil:
		s = "update OAuth2 credential (" + api.Quote(in.UpdateOauth2CredentialIntent.Provider) + ")"
	case in.DeleteTvcDeploymentIntent != nil:
		s = "delete TVC deployment " + api.SanitizeID(in.DeleteTvcDeploymentIntent.DeploymentID)
	case in.OauthIntent != nil:
		s = "OAuth login, new API key " + api.Quote(in.OauthIntent.APIKeyName)
	case in.CreateReadOnlySessionIntent != nil:
		s = "create a read-only session"
	default:
		s = strings.ToLower(strings.ReplaceAll(shortType(act.Type), "_", " "))
	}
	return ui.Clean(s)
}

// apiKeysWhat counts a delete_api_keys' keys and names them when the console
// knows them all and they are few, so that deletions of different keys of one
// user read differently in the list.
func apiKeysWhat(c *Common, p *api.DeleteAPIKeysParams) string {
	what := plural(len(p.APIKeyIDs), "API key")
	var names []string
	for _, id := range p.APIKeyIDs {
		n, ok := c.Org.APIKeyNames[id]
		if !ok {
			names = nil
			break
		}
		names = append(names, api.Quote(n))
	}
	if len(names) > 0 && len(names) <= 2 {
		what += " " + strings.Join(names, ", ")
	}
	return what + " of " + userName(c, p.UserID)
}
