package cli

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/ui"
)

const featureUsage = `vigil feature — organization features

Usage:
  vigil feature list [--json]
  vigil feature set --value V NAME

Every subcommand takes --profile NAME and --config FILE (or $VIGIL_PROFILE,
$VIGIL_CONFIG) and -h for its flags and examples.
`

func cmdFeature(ctx context.Context, c proc, args []string) error {
	return runGroup(ctx, c, "feature", featureUsage, []subcommand{
		{"list", featureList},
		{"set", featureSet},
	}, args)
}

const featureListUsage = `Usage: vigil feature list [--json]

Lists the organization's features and its root quorum (get_organization_configs).

Examples:
  vigil feature list
  vigil feature list --json | jq .configs.features

Flags:
`

func featureList(ctx context.Context, c proc, args []string) error {
	return queryVerb{
		name: "feature list", usage: featureListUsage,
		exact: true, // escaped once, below: quoting the client's escaped copy showed a real ESC and a typed \u001b alike
		raw: func(ctx context.Context, client *api.Client, _ string) (json.RawMessage, error) {
			return client.QueryRaw(ctx, api.QueryGetOrganizationConfigs, api.GetOrganizationConfigsRequest{OrganizationID: client.OrganizationID()})
		},
		show: func(ctx context.Context, c proc, client *api.Client, _ string) error {
			cfg, err := client.GetOrganizationConfigs(ctx)
			if err != nil {
				return err
			}
			rows := make([][]string, 0, len(cfg.Features))
			for _, f := range cfg.Features {
				// Quoted as the vote prompt quotes it: look-alike letters marked.
				rows = append(rows, []string{api.NameText(f.Name), api.Quote(f.Value)})
			}
			if err := table(c.stdout, []string{"FEATURE", "VALUE"}, rows); err != nil {
				return err
			}
			_, err = fmt.Fprintf(c.stdout, "\nroot quorum: %d of %s\n", cfg.Quorum.Threshold, namedIDs(listUserNames(ctx, c, client), cfg.Quorum.UserIDs, ", ", true))
			return err
		},
	}.run(ctx, c, args)
}

const featureSetUsage = `Usage: vigil feature set --value V NAME

Submits set_organization_feature. NAME is a feature name, in full or without
FEATURE_NAME_ (email_auth, webhook, …). --value is required, even when empty:
the new value replaces the current one. It is checked for the feature:
  webhook            the delivery URL (http or https, no user:password@), or
                     --value '' to turn webhooks off
  webauthn_origins   origins separated by commas, e.g. https://app.example.com
  the others         enabled, disabled, true, false or ''
Before submitting it says on standard error what the value replaces; when
the current features cannot be read it submits nothing and says why: run it
again, or pass --replacing-unknown to submit without knowing. The
change needs the root quorum's approval: the activity waits until enough root
users approve it ('vigil activity approve ID'); this prints it.

Examples:
  vigil feature set --value https://hooks.example.com/vigil webhook
  vigil feature set --value '' webhook        # turns webhooks off
  vigil feature set --value enabled email_auth

Flags:
`

// featureName turns "email_auth" or FEATURE_NAME_EMAIL_AUTH into the wire value.
func featureName(s string) (string, error) {
	v := strings.ToUpper(strings.ReplaceAll(strings.TrimSpace(s), "-", "_"))
	if !strings.HasPrefix(v, "FEATURE_NAME_") {
		v = "FEATURE_NAME_" + v
	}
	names := api.FeatureNames()
	short := make([]string, 0, len(names))
	for _, n := range names {
		if n == v {
			return v, nil
		}
		short = append(short, strings.ToLower(strings.TrimPrefix(n, "FEATURE_NAME_")))
	}
	if v == api.FeatureSwapConfig || v == api.FeatureEarnConfig {
		return "", usagef("feature set: %s is a feature of the real service that vigil's specification (SPEC.md) does not list, so vigil does not set it (its local service refuses it): set it with the real service's own tools, or use one of %s", v, strings.Join(short, ", "))
	}
	return "", usagef("feature set: %q is not a feature; use one of %s", s, strings.Join(short, ", "))
}

func featureSet(ctx context.Context, c proc, args []string) error {
	fs, conn := newSubmitFlags("feature set", featureSetUsage)
	value := fs.String("value", "", "the feature's new `VALUE` (required; '' to turn it off)")
	allowEmpty(fs, "value") // '' turns a feature off
	replacingUnknown := fs.Bool("replacing-unknown", false, "submit even when the current value cannot be read (the change then replaces a value nobody saw)")
	pos, err := parseFlags(c, fs, args)
	if err != nil {
		return err
	}
	arg, err := oneArg("feature set", "feature name", pos)
	if err != nil {
		return err
	}
	name, err := featureName(arg)
	if err != nil {
		return err
	}
	// A forgotten --value must not quietly become "" (for WEBHOOK: webhooks
	// off): the empty value has to be asked for.
	if !visited(fs)["value"] {
		return usagef("feature set: --value is required; give the new value, or --value '' to turn %s off", strings.TrimPrefix(name, "FEATURE_NAME_"))
	}
	if err := api.CheckFeatureValue(name, *value); err != nil {
		return usagef("feature set: %v", err)
	}
	client, _, err := conn.submitClient(c)
	if err != nil {
		return err
	}
	// Whoever submits, and the quorum after them, must know what the change
	// replaces: a failed read stops here unless asked to go on without it.
	current, err := readCurrentFeature(ctx, client, name)
	if err != nil {
		if !*replacingUnknown {
			return fmt.Errorf("feature set %s: nothing submitted: the current value (what this change replaces) could not be read: %w; "+
				"run the command again, or pass --replacing-unknown to submit without knowing it", strings.TrimPrefix(name, "FEATURE_NAME_"), err)
		}
		current = fmt.Sprintf("(unknown: the organization's features could not be read: %v)", err)
	}
	fmt.Fprintln(c.stderr, featureChangeText(name, *value, current))
	fmt.Fprintln(c.stderr, "Setting a feature needs the root quorum: it takes effect once enough root users approve.")
	return submitVerb(ctx, c, conn, client, "set_organization_feature", &api.SetOrganizationFeatureParams{Name: name, Value: *value})
}

// currentFeature is a feature's value now as the service reports it, quoted
// as the vote prompt quotes it, or says that it is not set or unknown.
func currentFeature(ctx context.Context, client *api.Client, name string) string {
	current, err := readCurrentFeature(ctx, client, name)
	if err != nil {
		return fmt.Sprintf("(unknown: the organization's features could not be read: %v)", err)
	}
	return current
}

// readCurrentFeature is a feature's value now as the service reports it,
// quoted as the vote prompt quotes it, or "(not set now)".
func readCurrentFeature(ctx context.Context, client *api.Client, name string) (string, error) {
	cfg, err := client.GetOrganizationConfigs(ctx)
	if err != nil {
		return "", err
	}
	for _, f := range cfg.Features {
		if f.Name == name {
			return api.Quote(f.Value), nil
		}
	}
	return "(not set now)", nil
}

// featureChangeText says what setting name to value changes, from current
// (currentFeature), saying "off" for an empty webhook.
func featureChangeText(name, value, current string) string {
	if name == api.FeatureWebhook && value == "" {
		return fmt.Sprintf("This turns webhooks off: WEBHOOK %s → \"\" (no deliveries).", current)
	}
	return fmt.Sprintf("%s: %s → %s", strings.TrimPrefix(name, "FEATURE_NAME_"), current, api.Quote(value))
}

const userUsage = `vigil user — the organization's users

Usage:
  vigil user list [--json]
  vigil user get [--json] USER_ID

Every subcommand takes --profile NAME and --config FILE (or $VIGIL_PROFILE,
$VIGIL_CONFIG) and -h for its flags and examples.
`

func cmdUser(ctx context.Context, c proc, args []string) error {
	return runGroup(ctx, c, "user", userUsage, []subcommand{
		{"list", userList},
		{"get", userGet},
	}, args)
}

const userListUsage = `Usage: vigil user list [--json]

Lists the users: id, name, e-mail, tags (by name, read from the completed
create_user_tag activities, as the console shows them; an id when none names
it; --json keeps the ids) and how many API keys and authenticators each has,
with how many of the keys cannot sign: expired ("2 (1 EXPIRED)"), or with a
lifetime that cannot be read ("2 (1 cannot sign: lifetime unknown)"), which
counts as unable to sign, as in user get.

Examples:
  vigil user list
  vigil user list --json | jq -r '.users[].userName'

Flags:
`

func userList(ctx context.Context, c proc, args []string) error {
	return queryVerb{
		name: "user list", usage: userListUsage,
		// Names are escaped once, here: escaping the client's already
		// sanitised copy printed a real newline and a typed \n alike.
		exact: true,
		raw: func(ctx context.Context, client *api.Client, _ string) (json.RawMessage, error) {
			return client.QueryRaw(ctx, api.QueryListUsers, api.ListUsersRequest{OrganizationID: client.OrganizationID()})
		},
		show: func(ctx context.Context, c proc, client *api.Client, _ string) error {
			users, err := client.ListUsers(ctx)
			if err != nil {
				return err
			}
			var tags map[string]string
			if slices.ContainsFunc(users, func(u api.User) bool { return len(u.UserTags) > 0 }) {
				tags = listTagNames(ctx, c, client)
			}
			now := client.ServiceNow() // keys expire by the service's clock
			rows := make([][]string, 0, len(users))
			for _, u := range users {
				rows = append(rows, []string{api.SanitizeID(u.UserID), api.NameText(u.UserName), api.Sanitize(u.UserEmail), namedIDs(tags, u.UserTags, ",", false),
					apiKeyCount(u.APIKeys, now), strconv.Itoa(len(u.Authenticators))})
			}
			return table(c.stdout, []string{"ID", "NAME", "EMAIL", "TAGS", "API KEYS", "AUTHENTICATORS"}, rows)
		},
	}.run(ctx, c, args)
}

const userGetUsage = `Usage: vigil user get [--json] USER_ID

Shows one user with their API keys and authenticators. EXPIRES gives each API
key's expiry in UTC: "never", "2026-11-28 08:13:14Z (in 14m)", "EXPIRED …"
for a key the service no longer accepts, or "unknown (…)" when the lifetime
the service sent cannot be read (such a key counts as unable to sign). A user
left with no credential that can sign is said to have none.

Examples:
  vigil user get 0192a6c4-…

Flags:
`

func userGet(ctx context.Context, c proc, args []string) error {
	return queryVerb{
		name: "user get", usage: userGetUsage, arg: "user id",
		exact: true, // showUser escapes what it prints, once
		raw: func(ctx context.Context, client *api.Client, id string) (json.RawMessage, error) {
			return client.QueryRecordRaw(ctx, api.QueryGetUser, api.GetUserRequest{OrganizationID: client.OrganizationID(), UserID: id})
		},
		show: showUser,
	}.run(ctx, c, args)
}

// showUser writes a user and a table of their API keys and authenticators.
// client keeps strings exact: each is escaped here, names with api.NameText.
func showUser(ctx context.Context, c proc, client *api.Client, id string) error {
	u, err := client.GetUser(ctx, id)
	if err != nil {
		return err
	}
	var tags map[string]string
	if len(u.UserTags) > 0 {
		tags = listTagNames(ctx, c, client)
	}
	if err := fields(c.stdout, "id", api.SanitizeID(u.UserID), "name", api.NameText(u.UserName), "email", api.Sanitize(u.UserEmail),
		"tags", namedIDs(tags, u.UserTags, ", ", true), "created", timeText(u.CreatedAt), "updated", timeText(u.UpdatedAt)); err != nil {
		return err
	}
	now := client.ServiceNow() // keys expire by the service's clock
	var rows [][]string
	for _, k := range u.APIKeys {
		rows = append(rows, []string{"api key", api.SanitizeID(k.APIKeyID), api.NameText(k.APIKeyName), api.Sanitize(k.Credential.Type),
			apiKeyExpiryText(k, now), api.SanitizeID(k.Credential.PublicKey)})
	}
	for _, a := range u.Authenticators {
		// Authenticators have no lifetime in the service.
		rows = append(rows, []string{"authenticator", api.SanitizeID(a.AuthenticatorID), api.NameText(a.AuthenticatorName), api.Sanitize(a.Credential.Type),
			"never", api.SanitizeID(a.Credential.PublicKey)})
	}
	if len(rows) == 0 {
		return nil
	}
	fmt.Fprintln(c.stdout)
	if err := table(c.stdout, []string{"KIND", "ID", "NAME", "TYPE", "EXPIRES", "PUBLIC KEY"}, rows); err != nil {
		return err
	}
	if !u.CanSign(now) {
		// As the console's Users screen says: such a member cannot vote.
		_, err = fmt.Fprintln(c.stdout, "\nno credential that can sign: every API key has expired or has a lifetime that cannot be read, and there is no authenticator")
		return err
	}
	return nil
}

// apiKeyExpiryText shows when k stops authenticating, in UTC as every CLI
// time: "never", the time and how long is left, or EXPIRED and how long
// ago. A lifetime that cannot be read is shown as unknown, not as "never":
// it cannot be trusted to last (api.APIKey.LifetimeProblem).
func apiKeyExpiryText(k api.APIKey, now time.Time) string {
	if why := k.LifetimeProblem(); why != "" {
		return "unknown (" + why + ")"
	}
	exp, ok := k.Expiry()
	if !ok {
		return "never"
	}
	at := exp.UTC().Format("2006-01-02 15:04:05Z")
	if k.Expired(now) {
		return "EXPIRED " + at + " (" + ui.HumanDuration(now.Sub(exp).Round(time.Second)) + " ago)"
	}
	return at + " (in " + ui.HumanDuration(exp.Sub(now).Round(time.Second)) + ")"
}

// apiKeyCount is how many keys there are, and how many of them cannot sign:
// expired, or with a lifetime that cannot be read (which may have expired,
// so it fails closed as in user get: api.APIKey.SignsAt).
func apiKeyCount(keys []api.APIKey, now time.Time) string {
	expired, unknown := 0, 0
	for _, k := range keys {
		switch {
		case k.LifetimeProblem() != "":
			unknown++
		case k.Expired(now):
			expired++
		}
	}
	switch {
	case unknown == 0 && expired == 0:
		return strconv.Itoa(len(keys))
	case unknown == 0:
		return fmt.Sprintf("%d (%d EXPIRED)", len(keys), expired)
	case expired == 0:
		return fmt.Sprintf("%d (%d cannot sign: lifetime unknown)", len(keys), unknown)
	}
	return fmt.Sprintf("%d (%d cannot sign: %d EXPIRED, %d lifetime unknown)", len(keys), expired+unknown, expired, unknown)
}

const apikeyUsage = `vigil apikey — API keys

Usage:
  vigil apikey get [--json] API_KEY_ID
  vigil apikey delete [--user USER_ID] [--yes] API_KEY_ID…

Every subcommand takes --profile NAME and --config FILE (or $VIGIL_PROFILE,
$VIGIL_CONFIG) and -h for its flags and examples.
`

func cmdAPIKey(ctx context.Context, c proc, args []string) error {
	return runGroup(ctx, c, "apikey", apikeyUsage, []subcommand{
		{"get", apikeyGet},
		{"delete", apikeyDelete},
	}, args)
}

const apikeyGetUsage = `Usage: vigil apikey get [--json] API_KEY_ID

Shows one API key: name, credential type, public key, dates. "expires" is
when the key stops authenticating, in UTC, and how long is left ("never", or
"EXPIRED …" once the service refuses it); --json keeps the service's
expirationSeconds, the lifetime counted from createdAt.

Examples:
  vigil apikey get 0192a6c4-…

Flags:
`

func apikeyGet(ctx context.Context, c proc, args []string) error {
	return queryVerb{
		name: "apikey get", usage: apikeyGetUsage, arg: "API key id",
		exact: true, // the name is escaped once, below
		raw: func(ctx context.Context, client *api.Client, id string) (json.RawMessage, error) {
			return client.QueryRecordRaw(ctx, api.QueryGetAPIKey, api.GetAPIKeyRequest{OrganizationID: client.OrganizationID(), APIKeyID: id})
		},
		show: func(ctx context.Context, c proc, client *api.Client, id string) error {
			k, err := client.GetAPIKey(ctx, id)
			if err != nil {
				return err
			}
			return fields(c.stdout, "id", api.SanitizeID(k.APIKeyID), "name", api.NameText(k.APIKeyName), "type", api.Sanitize(k.Credential.Type),
				"public key", api.SanitizeID(k.Credential.PublicKey), "expires", apiKeyExpiryText(*k, client.ServiceNow()),
				"created", timeText(k.CreatedAt), "updated", timeText(k.UpdatedAt))
		},
	}.run(ctx, c, args)
}

const apikeyDeleteUsage = `Usage: vigil apikey delete [--user USER_ID] [--yes] API_KEY_ID…

Submits delete_api_keys for keys of one user. Without --user the owner is
looked up. On a terminal it shows the keys and asks first; a script passes --yes.
It warns first (on standard error) when the deletion would leave a root member
with no credential that can sign and fewer root members able to sign than the
quorum's threshold: the service fails such a deletion (an expired key, or one
whose lifetime cannot be read, counts as nothing); and when a key deleted is
the one the profile signs with: once deleted, the profile is locked out;
when a root member is left with no vote, or only keys that expire; and when
an MFA policy pins a key deleted (no vote can meet that method afterwards).
It refuses a key whose deletion already waits for votes, naming that
activity: approve it instead.

Examples:
  vigil apikey delete 0192a6c4-…
  vigil apikey delete --yes --user 0192… 0192a6c4-… 0192a6c5-…

Flags:
`

func apikeyDelete(ctx context.Context, c proc, args []string) error {
	fs, conn := newSubmitFlags("apikey delete", apikeyDeleteUsage)
	userID := fs.String("user", "", "the `USER_ID` owning the keys (default: looked up)")
	yes := fs.Bool("yes", false, "delete without asking (for scripts)")
	ids, err := parseFlags(c, fs, args)
	if err != nil {
		return err
	}
	if len(ids) == 0 {
		return usagef("apikey delete needs at least one API key id; run 'vigil apikey delete -h'")
	}
	client, prof, err := conn.submitClient(c)
	if err != nil {
		return err
	}
	owner, names, users, err := apiKeyOwner(ctx, client, *userID, ids)
	if err != nil {
		return err
	}
	p := &api.DeleteAPIKeysParams{UserID: owner, APIKeyIDs: ids}
	if err := p.Validate(); err != nil {
		return usagef("apikey delete: %v", err)
	}
	if err := refusePendingDeletion(ctx, client, users, owner, ids); err != nil {
		return err
	}
	if err := warnKeyDeletion(ctx, c, client, prof.Name, users, owner, ids); err != nil {
		return err
	}
	if err := confirm(ctx, c, *yes, "Delete these API keys", "user: "+api.SanitizeID(owner)+"\nkeys: "+strings.Join(names, ", ")+"\n"+envelopeDetails(client, prof, conn)); err != nil {
		return err
	}
	return submitVerb(ctx, c, conn, client, "delete_api_keys", p)
}

// apiKeyOwner finds the user holding every key in ids (or checks that userID
// does) and names the keys for the confirmation. The users are read exact and
// escaped here, once: a key name is quoted (api.Quote), so a control in it
// never looks like the same escape typed as text. It returns the users read,
// for warnKeyDeletion.
func apiKeyOwner(ctx context.Context, client *api.Client, userID string, ids []string) (string, []string, []api.User, error) {
	raw, err := client.QueryRaw(ctx, api.QueryListUsers, api.ListUsersRequest{OrganizationID: client.OrganizationID()})
	if err != nil {
		return "", nil, nil, fmt.Errorf("look up the keys' owner: %w", err)
	}
	var list api.ListUsersResponse
	if err := decodeLookup(api.QueryListUsers, raw, &list); err != nil {
		return "", nil, nil, fmt.Errorf("look up the keys' owner: %w", err)
	}
	owner, names := userID, make([]string, 0, len(ids))
	for _, id := range ids {
		found := false
		for _, u := range list.Users {
			for _, k := range u.APIKeys {
				if k.APIKeyID != id {
					continue
				}
				if owner != "" && owner != u.UserID {
					return "", nil, nil, fmt.Errorf("API key %s belongs to %s (%s), not to %s; delete one user's keys at a time",
						api.SanitizeID(id), api.NameText(u.UserName), api.SanitizeID(u.UserID), api.SanitizeID(owner))
				}
				owner, found = u.UserID, true
				names = append(names, fmt.Sprintf("%s %s of %s", givenIDShown(id), api.Quote(k.APIKeyName), api.NameText(u.UserName)))
			}
		}
		if !found {
			return "", nil, nil, fmt.Errorf("API key %s: no user of the organization has it; 'vigil user get USER_ID' lists a user's keys", api.SanitizeID(id))
		}
	}
	if owner == "" {
		return "", nil, nil, errors.New("no owner found")
	}
	return owner, names, list.Users, nil
}

// visited reports which flags of fs were given.
func visited(fs *flag.FlagSet) map[string]bool {
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	return set
}
