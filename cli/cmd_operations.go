package cli

import (
	"cmp"
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"slices"
	"strings"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/keys"
)

// The remaining operations, one small verb group each:
//   invitation create, tag create, contract create, wallet-account delete,
//   oauth2-credential update, tvc-deployment delete, session create-read-only,
//   onramp status.

const operationsUsage = `Usage:
  vigil invitation create --name N --email E --access web|api|all [--tag ID]… [--sender USER_ID] [--per-invitee 'EMAIL: SETTINGS']…
  vigil tag create --name N USER_ID…
  vigil contract create --address A --type ethereum|solana --label L --file F [--notes T]
  vigil wallet-account delete [--without-export] [--yes] WALLET_ACCOUNT_ID…
  vigil oauth2-credential update --id ID --provider x|discord --client-id C
  vigil tvc-deployment delete [--yes] DEPLOYMENT_ID
  vigil session create-read-only
  vigil onramp status [--refresh] TRANSACTION_ID

Every verb takes --profile NAME, --config FILE (or $VIGIL_PROFILE, $VIGIL_CONFIG),
--json, and -h for its flags and examples; the submits also take --app-proofs.
With --json a submit prints the service's reply with vigil's vote and intent
checks (voteChecks, intentCheck), as 'vigil activity get --json' does.
`

func cmdOperation(ctx context.Context, c proc, group string, args []string) error {
	verbs := map[string]subcommand{
		"invitation":        {"create", invitationCreate},
		"tag":               {"create", tagCreate},
		"contract":          {"create", contractCreate},
		"wallet-account":    {"delete", walletAccountDelete},
		"oauth2-credential": {"update", oauth2CredentialUpdate},
		"tvc-deployment":    {"delete", tvcDeploymentDelete},
		"session":           {"create-read-only", sessionCreateReadOnly},
		"onramp":            {"status", onrampStatus},
	}
	return runGroup(ctx, c, group, operationsUsage, []subcommand{verbs[group]}, args)
}

// submitVerb submits one operation with the profile's key and prints the
// activity: the tail every submit verb shares.
func submitVerb(ctx context.Context, c proc, conn *connFlags, client *api.Client, path string, params api.Params) error {
	a, raw, err := submitShown(ctx, client, path, params, conn.submitOptions()...)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return submitted(ctx, c, client, a, raw, conn.json)
}

// validated returns a usage error for parameters api/ refuses, a private
// key pasted into a name or notes among them, before any profile is loaded
// or anything is sent.
func validated(cmd string, p api.Params) error {
	if err := p.Validate(); err != nil {
		return usagef("%s: %v", cmd, err)
	}
	if err := api.SecretInFreeText(p); err != nil {
		return usagef("%s: %v", cmd, err)
	}
	return nil
}

const invitationCreateUsage = `Usage: vigil invitation create --name N --email E [--name N --email E]… --access web|api|all [--tag ID|NAME]… [--sender USER_ID|NAME] [--per-invitee 'EMAIL: SETTINGS']…

Submits create_invitations: one activity (one quorum round) for every invitee
given, each as a --name and its --email next to each other (up to 100). The
access type, tags and sender apply to every invitee, except where a
--per-invitee 'EMAIL: access=…, tags=…, sender=…' gives that invitee its own
(a setting left out keeps the shared one; tags= gives none; --access may be
left out when every invitee has access=). The sender defaults to the
profile's own user. Before sending, every sender is checked against the
organization's users and each tag against its tags (a tag or a user may be
given by its name when exactly one has it; it is sent by id).

Examples:
  vigil invitation create --name dave --email dave@example.com --access api
  vigil invitation create --name erin --email erin@example.com --access web --tag 0192…
  vigil invitation create --access api --name dave --email dave@example.com --name erin --email erin@example.com
  vigil invitation create --access web --name dave --email dave@example.com --name erin --email erin@example.com \
    --per-invitee 'erin@example.com: access=api, tags=auditors, on call, sender=bob'

Flags:
`

// enumValue accepts an enum value in full or by its last part
// ("web" for ACCESS_TYPE_WEB).
func enumValue(flagName, s, prefix string, allowed []string) (string, error) {
	v := strings.ToUpper(strings.TrimSpace(s))
	if !strings.HasPrefix(v, prefix) {
		v = prefix + v
	}
	short := make([]string, 0, len(allowed))
	for _, a := range allowed {
		if a == v {
			return v, nil
		}
		short = append(short, strings.ToLower(strings.TrimPrefix(a, prefix)))
	}
	return "", usagef("--%s %q: use one of %s", flagName, s, strings.Join(short, ", "))
}

func invitationCreate(ctx context.Context, c proc, args []string) error {
	fs, conn := newSubmitFlags("invitation create", invitationCreateUsage)
	var invitees inviteeFlags
	fs.Var(invitees.field("--name"), "name", "an invitee's `NAME` (required; repeatable, each followed or preceded by its --email)")
	fs.Var(invitees.field("--email"), "email", "an invitee's e-mail `ADDRESS` (required; repeatable, next to its --name)")
	access := fs.String("access", "", "access type: web, api or all (required)")
	var tags listFlag
	fs.Var(&tags, "tag", "user tag `ID` or name to give every invitee (repeatable)")
	sender := fs.String("sender", "", "the sending `USER_ID` or user name (default: the profile's user)")
	var perInvitee listFlag
	fs.Var(&perInvitee, "per-invitee", "`'EMAIL: access=…, tags=…, sender=…'`: that invitee's own settings, in place of --access, --tag, --sender (repeatable)")
	if err := parseFlagsOnly(c, fs, args); err != nil {
		return err
	}
	pairs, err := invitees.pairs()
	if err != nil {
		return usagef("invitation create: %v; run 'vigil invitation create -h'", err)
	}
	accessType := ""
	if *access != "" || len(perInvitee) == 0 {
		if accessType, err = enumValue("access", *access, "ACCESS_TYPE_", api.AccessTypes()); err != nil {
			return err
		}
	}
	params := &api.CreateInvitationsParams{}
	for _, p := range pairs {
		params.Invitations = append(params.Invitations, api.Invitation{
			ReceiverUserName:  p.name,
			ReceiverUserEmail: p.email,
			ReceiverUserTags:  tags,
			AccessType:        accessType,
			SenderUserID:      cmp.Or(*sender, "(looked up)"), // checked below once known
		})
	}
	entries, err := readPerInvitee(perInvitee, params.Invitations)
	if err != nil {
		return err
	}
	// Applied as written for the checks; again below, resolved.
	api.ApplyInviteeEntries(params.Invitations, entries)
	if err := accessForEach(params.Invitations); err != nil {
		return err
	}
	if err := validated("invitation create", params); err != nil {
		return err
	}
	client, _, err := conn.submitClient(c)
	if err != nil {
		return err
	}
	var senderID string
	if *sender == "" {
		me, err := client.Whoami(ctx)
		if err != nil {
			return fmt.Errorf("invitation create: find the sender (pass --sender USER_ID): %w", err)
		}
		senderID = me.UserID
	} else if senderID, err = resolveSender(ctx, client, *sender); err != nil {
		return err
	}
	tagIDs, err := resolveTags(ctx, c, client, tags)
	if err != nil {
		return err
	}
	if err := resolvePerInvitee(ctx, c, client, entries); err != nil {
		return err
	}
	for i := range params.Invitations {
		params.Invitations[i].SenderUserID = senderID
		params.Invitations[i].ReceiverUserTags = tagIDs
	}
	api.ApplyInviteeEntries(params.Invitations, entries) // every e-mail known: readPerInvitee checked
	return submitVerb(ctx, c, conn, client, "create_invitations", params)
}

// resolveSender checks --sender against list_users before sending: the
// service takes any id and fails the invitation only once the quorum has
// voted.
func resolveSender(ctx context.Context, client *api.Client, sender string) (string, error) {
	ids, err := resolveUsers(ctx, client, "invitation create", "--sender", []string{sender})
	if err != nil {
		return "", err
	}
	return ids[0], nil
}

// resolveUsers turns each of values, given to cmd as what, into a user id
// checked against list_users. A user's name is accepted for the id when
// exactly one user has it, compared with the names as the service holds them
// (not as the client escapes them for display). Anything else is a usage
// error naming the known users.
func resolveUsers(ctx context.Context, client *api.Client, cmd, what string, values []string) ([]string, error) {
	users, err := exactUsers(ctx, client)
	if err != nil {
		return nil, fmt.Errorf("%s: check %s against the users: %w", cmd, what, err)
	}
	return resolveUsersAmong(users, cmd, what, values)
}

// resolveUsersAmong is resolveUsers against users already listed, for a
// command that reads more of them than their names.
func resolveUsersAmong(users []api.User, cmd, what string, values []string) ([]string, error) {
	known := userNameMap(users)
	ids := make([]string, 0, len(values))
	for _, v := range values {
		id, err := api.ResolveByIDOrName("user", known, v)
		if err != nil {
			return nil, usagef("%s: %s %v; see 'vigil user list'", cmd, what, err)
		}
		// Checked here, on what the words mean: "bob" and bob's id differ
		// as typed but are one user, which the service would take once.
		if j := slices.Index(ids, id); j >= 0 {
			return nil, usagef("%s: %s %s and %s are the same user (%s); list each user once",
				cmd, what, api.Quote(values[j]), api.Quote(v), api.NameWithID(known[id], id))
		}
		ids = append(ids, id)
	}
	return ids, nil
}

// resolveTags turns each --tag into a tag id: an id of a tag, or the name of
// exactly one, read (exact, as resolveSender's names) from the organization's
// completed create_user_tag activities (the service has no query for tags,
// and takes any id).
func resolveTags(ctx context.Context, c proc, client *api.Client, tags []string) ([]string, error) {
	ids := []string{} // sent as [], not null
	if len(tags) == 0 {
		return ids, nil
	}
	names, err := api.UserTagNames(ctx, exactLister{client})
	complete := err == nil
	if err != nil && !errors.Is(err, api.ErrWalkCutShort) {
		return nil, fmt.Errorf("invitation create: check --tag against the organization's tags: %w", err)
	}
	for _, t := range tags {
		id, warning, err := api.ResolveUserTag(names, complete, t)
		if err != nil {
			return nil, usagef("invitation create: --tag %v; tags are known from completed create_user_tag activities ('vigil activity list --type create_user_tag')", err)
		}
		if warning != "" {
			fmt.Fprintf(c.stderr, "vigil: %s\n", warning)
		}
		ids = append(ids, id)
	}
	return ids, nil
}

const tagCreateUsage = `Usage: vigil tag create --name N [USER_ID|NAME…]

Submits create_user_tag: creates the tag and gives it to the users. Without
users the tag is created on its own (userIds: []), to be given later. Before
sending, each user is checked against the organization's users (the service
takes any id and fails the activity only once the quorum has voted); a user
may be given by name when exactly one user has it.

Examples:
  vigil tag create --name auditors 0192a6c4-… 0192a6c5-…
  vigil tag create --name on-call bob carol
  vigil tag create --name on-call

Flags:
`

func tagCreate(ctx context.Context, c proc, args []string) error {
	fs, conn := newSubmitFlags("tag create", tagCreateUsage)
	name := fs.String("name", "", "the tag's `NAME` (required)")
	users, err := parseFlags(c, fs, args)
	if err != nil {
		return err
	}
	for _, u := range users {
		if strings.HasPrefix(u, "-") {
			// Only after -- does a flag reach here; no user id starts with -.
			return usagef("tag create: %s looks like a flag, not a user: put flags before the users and leave out --", api.Quote(u))
		}
	}
	params := &api.CreateUserTagParams{UserTagName: *name, UserIDs: users}
	if err := validated("tag create", params); err != nil {
		return err
	}
	client, _, err := conn.submitClient(c)
	if err != nil {
		return err
	}
	if len(users) > 0 {
		if params.UserIDs, err = resolveUsers(ctx, client, "tag create", "user", users); err != nil {
			return err
		}
	}
	warnSameNameTag(ctx, c, client, params.UserTagName)
	return submitVerb(ctx, c, conn, client, "create_user_tag", params)
}

const contractCreateUsage = `Usage: vigil contract create --address A --type ethereum|solana --label L --file F [--notes T]

Submits create_smart_contract_interface with the ABI (Ethereum) or IDL (Solana)
read from F ("-" for standard input). Its size is shown against the service's
limit of 400 kB; a larger or non-JSON file is refused before sending.

Examples:
  vigil contract create --address 0x6B17…1d0F --type ethereum --label DAI --file dai.abi.json
  anchor idl fetch PROGRAM | vigil contract create --address PROGRAM --type solana --label prog --file -

Flags:
`

func contractCreate(ctx context.Context, c proc, args []string) error {
	fs, conn := newSubmitFlags("contract create", contractCreateUsage)
	var p api.CreateSmartContractInterfaceParams
	fs.StringVar(&p.SmartContractAddress, "address", "", "contract `ADDRESS` or program id (required)")
	typ := fs.String("type", "", "ethereum or solana (required)")
	fs.StringVar(&p.Label, "label", "", "a human-readable `LABEL` (required)")
	fs.StringVar(&p.Notes, "notes", "", "free-text `NOTES`")
	file := fs.String("file", "", "the ABI or IDL JSON `FILE` (\"-\" for standard input; required)")
	allowEmpty(fs, "notes")
	if err := parseFlagsOnly(c, fs, args); err != nil {
		return err
	}
	var err error
	if p.Type, err = enumValue("type", *typ, "SMART_CONTRACT_INTERFACE_TYPE_", api.SmartContractInterfaceTypes()); err != nil {
		return err
	}
	if *file == "" {
		return usagef("contract create: --file F is required: the ABI or IDL as JSON (\"-\" for standard input)")
	}
	data, from, err := readInput(ctx, c, *file, "the contract interface", api.MaxSmartContractInterfaceBytes)
	if errors.Is(err, errNoInput) {
		return usagef("contract create: --file -: there is no standard input")
	}
	if err != nil {
		return fmt.Errorf("contract create: %w", err)
	}
	limit := api.MaxSmartContractInterfaceBytes
	if len(data) > limit {
		return usagef("contract create: %s is over the limit: more than %d bytes of %d allowed (400 kB); trim the ABI/IDL to the functions you need", from, limit, limit)
	}
	fmt.Fprintf(c.stderr, "interface: %d bytes of %d allowed (%.1f%%) from %s\n", len(data), limit, 100*float64(len(data))/float64(limit), from)
	p.SmartContractInterface = string(data)
	if err := validated("contract create", &p); err != nil {
		return err
	}
	client, _, err := conn.submitClient(c)
	if err != nil {
		return err
	}
	return submitVerb(ctx, c, conn, client, "create_smart_contract_interface", &p)
}

const walletAccountDeleteUsage = `Usage: vigil wallet-account delete [--without-export] [--yes] WALLET_ACCOUNT_ID…

Submits delete_wallet_accounts. --without-export deletes accounts that were
never exported (deleteWithoutExport). On a terminal it asks first; a script
passes --yes.

Examples:
  vigil wallet-account delete 0192a6c4-…
  vigil wallet-account delete --yes --without-export 0192a6c4-…

Flags:
`

func walletAccountDelete(ctx context.Context, c proc, args []string) error {
	fs, conn := newSubmitFlags("wallet-account delete", walletAccountDeleteUsage)
	withoutExport := fs.Bool("without-export", false, "delete even if the accounts were never exported")
	yes := fs.Bool("yes", false, "delete without asking (for scripts)")
	ids, err := parseFlags(c, fs, args)
	if err != nil {
		return err
	}
	// The service takes an empty list (SPEC.md requires only the key) and
	// deletes nothing; a command that deletes nothing is a mistake here.
	if len(ids) == 0 {
		return usagef("wallet-account delete needs at least one wallet account id; run 'vigil wallet-account delete -h'")
	}
	for _, id := range ids {
		if strings.HasPrefix(id, "-") {
			// Only after -- does a flag reach here (--yes, --without-export
			// taken for an id); no wallet account id starts with -.
			return usagef("wallet-account delete: %s looks like a flag, not a wallet account id: put flags before the ids and leave out --", api.Quote(id))
		}
	}
	params := &api.DeleteWalletAccountsParams{WalletAccountIDs: ids}
	if *withoutExport {
		params.DeleteWithoutExport = withoutExport
	}
	if err := validated("wallet-account delete", params); err != nil {
		return err
	}
	client, prof, err := conn.submitClient(c)
	if err != nil {
		return err
	}
	// Typed or pasted, an id may carry controls that would redraw the
	// prompt, or a ", " that would split it in two: shown escaped and quoted.
	details := "wallet accounts: " + givenIDsShown(ids)
	if *withoutExport {
		details += "\nwithout export: the keys of accounts never exported are lost for good"
	}
	details += "\n" + envelopeDetails(client, prof, conn)
	if err := confirm(ctx, c, *yes, "Delete these wallet accounts", details); err != nil {
		return err
	}
	return submitVerb(ctx, c, conn, client, "delete_wallet_accounts", params)
}

const oauth2CredentialUpdateUsage = `Usage: vigil oauth2-credential update --id ID --provider x|discord --client-id C

Submits update_oauth2_credential. The client secret is never an argument: it is
typed at a prompt with echo off on a terminal, or read from standard input. It
is encrypted on this machine to the TLS fetcher's key (the profile's
tls_fetcher_public_key, else the real service's published key) and only the
ciphertext is sent; vigil prints or logs neither.

Examples:
  vigil oauth2-credential update --id 0192… --provider discord --client-id 1234
  pass show discord/secret | vigil oauth2-credential update --id 0192… --provider x --client-id abc

Flags:
`

func oauth2CredentialUpdate(ctx context.Context, c proc, args []string) error {
	fs, conn := newSubmitFlags("oauth2-credential update", oauth2CredentialUpdateUsage)
	var p api.UpdateOauth2CredentialParams
	fs.StringVar(&p.Oauth2CredentialID, "id", "", "the OAuth2 credential `ID` (required)")
	provider := fs.String("provider", "", "x or discord (required)")
	fs.StringVar(&p.ClientID, "client-id", "", "the client `ID` the provider issued (required)")
	if err := parseFlagsOnly(c, fs, args); err != nil {
		return err
	}
	var err error
	if p.Provider, err = enumValue("provider", *provider, "OAUTH2_PROVIDER_", api.Oauth2Providers()); err != nil {
		return err
	}
	p.EncryptedClientSecret = "(set below)"
	if err := validated("oauth2-credential update", &p); err != nil {
		return err
	}
	client, profile, err := conn.submitClient(c)
	if err != nil {
		return err
	}
	targetHex := profile.TLSFetcherPublicKey
	if targetHex == "" {
		targetHex = api.ProductionTLSFetcherPublicKey
	}
	target, err := hex.DecodeString(targetHex)
	if err != nil {
		return fmt.Errorf("oauth2-credential update: TLS fetcher key: %w", err)
	}
	secret, err := readSecret(ctx, c, "client secret")
	if err != nil {
		return err
	}
	p.EncryptedClientSecret, err = keys.EnvelopeEncrypt(target, secret)
	clear(secret)
	if err != nil {
		return fmt.Errorf("oauth2-credential update: encrypt the client secret: %w", err)
	}
	return submitVerb(ctx, c, conn, client, "update_oauth2_credential", &p)
}

const tvcDeploymentDeleteUsage = `Usage: vigil tvc-deployment delete [--yes] DEPLOYMENT_ID

Submits delete_tvc_deployment. On a terminal it asks first; a script passes --yes.

Examples:
  vigil tvc-deployment delete 0192a6c4-…

Flags:
`

func tvcDeploymentDelete(ctx context.Context, c proc, args []string) error {
	fs, conn := newSubmitFlags("tvc-deployment delete", tvcDeploymentDeleteUsage)
	yes := fs.Bool("yes", false, "delete without asking (for scripts)")
	pos, err := parseFlags(c, fs, args)
	if err != nil {
		return err
	}
	id, err := oneFreeArg("tvc-deployment delete", "deployment id", pos) // SPEC.md: any string
	if err != nil {
		return err
	}
	if strings.HasPrefix(id, "-") {
		// Only after -- does a flag reach here; no deployment id starts with -.
		return usagef("tvc-deployment delete: %s looks like a flag, not a deployment id: put flags before the id and leave out --", api.Quote(id))
	}
	params := &api.DeleteTvcDeploymentParams{DeploymentID: id}
	// Before the profile and the confirm, as every verb: a mistake is exit 2.
	if err := validated("tvc-deployment delete", params); err != nil {
		return err
	}
	client, prof, err := conn.submitClient(c)
	if err != nil {
		return err
	}
	if err := confirm(ctx, c, *yes, "Delete this TVC deployment", "deployment: "+givenIDShown(id)+"\n"+envelopeDetails(client, prof, conn)); err != nil {
		return err
	}
	return submitVerb(ctx, c, conn, client, "delete_tvc_deployment", params)
}

const sessionCreateReadOnlyUsage = `Usage: vigil session create-read-only

Submits create_read_only_session: a one-hour read-only session for the
profile's user. The result holds the session token: treat the output as a
credential.

Examples:
  vigil session create-read-only --json | jq -r .activity.result.createReadOnlySessionResult.session

Flags:
`

func sessionCreateReadOnly(ctx context.Context, c proc, args []string) error {
	fs, conn := newSubmitFlags("session create-read-only", sessionCreateReadOnlyUsage)
	if err := parseFlagsOnly(c, fs, args); err != nil {
		return err
	}
	client, _, err := conn.submitClient(c)
	if err != nil {
		return err
	}
	return submitVerb(ctx, c, conn, client, "create_read_only_session", &api.CreateReadOnlySessionParams{})
}

const onrampStatusUsage = `Usage: vigil onramp status [--refresh] TRANSACTION_ID

Shows a fiat on-ramp transaction's status (get_onramp_transaction_status);
--refresh asks the service to fetch it from the provider first.

Examples:
  vigil onramp status 0192a6c4-…
  vigil onramp status --refresh --json 0192a6c4-…

Flags:
`

func onrampStatus(ctx context.Context, c proc, args []string) error {
	var refresh bool
	return queryVerb{
		name: "onramp status", usage: onrampStatusUsage, arg: "transaction id", freeForm: true,
		flags: func(fs *flag.FlagSet) {
			fs.BoolVar(&refresh, "refresh", false, "fetch the status from the provider first")
		},
		raw: func(ctx context.Context, client *api.Client, id string) (json.RawMessage, error) {
			req := api.GetOnrampTransactionStatusRequest{OrganizationID: client.OrganizationID(), TransactionID: id}
			if refresh {
				req.Refresh = &refresh
			}
			return client.QueryRaw(ctx, api.QueryGetOnrampTransactionStatus, req)
		},
		show: func(ctx context.Context, c proc, client *api.Client, id string) error {
			status, err := client.GetOnrampTransactionStatus(ctx, id, refresh)
			if err != nil {
				return err
			}
			_, err = fmt.Fprintln(c.stdout, status)
			return err
		},
	}.run(ctx, c, args)
}
