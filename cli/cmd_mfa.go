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
	"sync"
	"time"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/ui"
)

const mfaUsage = `vigil mfa — MFA policies: which extra authentication a user's activities need

Usage:
  vigil mfa list [--user ID] [--json]
  vigil mfa get [--user ID] [--json] MFA_POLICY_ID
  vigil mfa create --user ID --name N --condition EXPR --step METHODS… --order N [--notes T]
  vigil mfa status [--user ID] [--json] ACTIVITY_ID

Every subcommand takes --profile NAME and --config FILE (or $VIGIL_PROFILE,
$VIGIL_CONFIG) and -h for its flags and examples.
`

func cmdMfa(ctx context.Context, c proc, args []string) error {
	return runGroup(ctx, c, "mfa", mfaUsage, []subcommand{
		{"list", mfaList},
		{"get", mfaGet},
		{"create", mfaCreate},
		{"status", mfaStatus},
	}, args)
}

const mfaListUsage = `Usage: vigil mfa list [--user ID] [--json]

Lists one user's MFA policies in evaluation order (get_mfa_policies), or, without
--user, every user's, one user after another. --json prints the service's reply,
so it needs --user: the service answers for one user at a time.

Examples:
  vigil mfa list
  vigil mfa list --user 0192a6c4-… --json

Flags:
`

func mfaList(ctx context.Context, c proc, args []string) error {
	var user string
	return queryVerb{
		name: "mfa list", usage: mfaListUsage,
		// Read exact and escaped once, here, as policy list.
		exact: true,
		flags: func(fs *flag.FlagSet) { fs.StringVar(&user, "user", "", "only the MFA policies of user `ID`") },
		raw: func(ctx context.Context, client *api.Client, _ string) (json.RawMessage, error) {
			if user == "" {
				return nil, usagef("--json needs --user ID: the service lists one user's MFA policies per request (get_mfa_policies); 'vigil user list' shows the ids")
			}
			return client.QueryRaw(ctx, api.QueryGetMfaPolicies, api.GetMfaPoliciesRequest{OrganizationID: client.OrganizationID(), UserID: user})
		},
		show: func(ctx context.Context, c proc, client *api.Client, _ string) error {
			var list []api.MfaPolicy
			var users map[string]string
			var proves map[string]pinCreds // by user
			if user == "" {
				// One list_users gives every user's policies, the names of
				// their owners and the credentials their pins name.
				all, err := client.ListUsers(ctx)
				if err != nil {
					return err
				}
				if list, err = everyUsersMfaPolicies(ctx, client, all); err != nil {
					return err
				}
				users, proves = userNameMap(all), credentialsByUser(all, client.ServiceNow())
			} else {
				var err error
				if list, err = userMfaPolicies(ctx, client, user); err != nil {
					return err
				}
				users, proves = listUsersAndCredentials(ctx, c, client)
			}
			rows := make([][]string, 0, len(list))
			for _, m := range list {
				rows = append(rows, []string{api.SanitizeID(m.MfaPolicyID), namedIDs(users, []string{m.UserID}, "", false), api.NameText(m.MfaPolicyName), strconv.Itoa(m.Order),
					exprCell(m.Condition, 40), stepsText(m.RequiredAuthenticationMethods, proves[m.UserID])})
			}
			return table(c.stdout, []string{"ID", "USER", "NAME", "ORDER", "CONDITION", "STEPS"}, rows)
		},
	}.run(ctx, c, args)
}

// mfaPoliciesOf lists user's MFA policies, or every user's when user is "".
// Every user's come with list_users (the service's user record carries its
// mfaPolicies); a record without them is asked for with get_mfa_policies,
// a few users at a time.
func mfaPoliciesOf(ctx context.Context, client *api.Client, user string) ([]api.MfaPolicy, error) {
	if user != "" {
		return userMfaPolicies(ctx, client, user)
	}
	all, err := client.ListUsers(ctx)
	if err != nil {
		return nil, err
	}
	return everyUsersMfaPolicies(ctx, client, all)
}

// everyUsersMfaPolicies is the MFA policies of all, the organization's users
// as list_users gave them.
func everyUsersMfaPolicies(ctx context.Context, client *api.Client, all []api.User) ([]api.MfaPolicy, error) {
	perUser := make([][]api.MfaPolicy, len(all))
	var missing []int // users whose record leaves out mfaPolicies
	for i, u := range all {
		if u.MfaPolicies == nil {
			missing = append(missing, i)
			continue
		}
		perUser[i] = withOwner(api.MfaPoliciesInOrder(u.MfaPolicies), u.UserID)
	}
	if err := fetchMfaPolicies(ctx, client, all, missing, perUser); err != nil {
		return nil, err
	}
	var out []api.MfaPolicy
	for _, ps := range perUser {
		out = append(out, ps...)
	}
	return out, nil
}

// mfaFetches is how many get_mfa_policies run at once.
const mfaFetches = 4

// fetchMfaPolicies asks for the MFA policies of the users at the indexes
// missing, mfaFetches at a time, into perUser. The first failure stops the
// rest and names its user.
func fetchMfaPolicies(ctx context.Context, client *api.Client, users []api.User, missing []int, perUser [][]api.MfaPolicy) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	errs := make([]error, len(missing))
	sem := make(chan struct{}, mfaFetches)
	var wg sync.WaitGroup
	for j, i := range missing {
		sem <- struct{}{}
		wg.Add(1)
		go func() {
			defer func() { <-sem; wg.Done() }()
			perUser[i], errs[j] = userMfaPolicies(ctx, client, users[i].UserID)
			if errs[j] != nil {
				cancel()
			}
		}()
	}
	wg.Wait()
	// The first failure in user order, not a cancellation it caused.
	for _, err := range errs {
		if err != nil && !errors.Is(err, context.Canceled) {
			return err
		}
	}
	return errors.Join(errs...)
}

// userMfaPolicies is one user's MFA policies, each naming its user.
func userMfaPolicies(ctx context.Context, client *api.Client, userID string) ([]api.MfaPolicy, error) {
	ps, err := client.GetMfaPolicies(ctx, userID)
	if err != nil {
		return nil, fmt.Errorf("MFA policies of user %s: %w", api.SanitizeID(userID), err)
	}
	return withOwner(ps, userID), nil
}

// withOwner fills in the user of policies whose record does not repeat it.
func withOwner(ps []api.MfaPolicy, userID string) []api.MfaPolicy {
	for i := range ps {
		if ps[i].UserID == "" {
			ps[i].UserID = userID
		}
	}
	return ps
}

// listUsersAndCredentials is listUserNames, with the MFA method type each
// user's credential proves and their expired keys (credentialsByUser); both
// nil, said on stderr, when the users cannot be listed.
func listUsersAndCredentials(ctx context.Context, c proc, client *api.Client) (names map[string]string, proves map[string]pinCreds) {
	users, err := exactUsers(ctx, client)
	if err != nil {
		fmt.Fprintf(c.stderr, "vigil: user names and credentials unknown, ids shown (%v)\n", err)
		return nil, nil
	}
	return userNameMap(users), credentialsByUser(users, client.ServiceNow())
}

// stepsText writes MFA steps as "PASSKEY, then EMAIL_OTP or SMS_OTP". A
// method pinned to a credential the policy's user does not have, to one
// whose votes prove another type, or to an API key of theirs that has
// expired (creds: the user's; zero when unknown, and then not judged), is
// flagged: no vote can meet it. A type vigil does not know is quoted and
// marked unknown (api.AuthTypeText), never shown as a known one.
func stepsText(steps []api.AuthenticationStep, creds pinCreds) string {
	proves := creds.proves
	parts := make([]string, 0, len(steps))
	for _, s := range steps {
		alts := make([]string, 0, len(s.Any))
		for _, m := range s.Any {
			// Sanitize and SanitizeID are idempotent: steps read exact or
			// sanitised show alike.
			t := api.AuthTypeText(m.Type)
			if m.ID != "" {
				t += ":" + api.SanitizeID(m.ID)
				if p, known := proves[m.ID]; known && p != m.Type {
					t += fmt.Sprintf(" (can never be met: pinned to a %s credential)", strings.TrimPrefix(p, "AUTHENTICATION_TYPE_"))
				} else if at := creds.expired[m.ID]; known && !at.IsZero() {
					t += fmt.Sprintf(" (can never be met: the API key expired at %s)", at.UTC().Format(time.RFC3339))
				} else if !known && proves != nil {
					t += " (can never be met: not a credential of this user)"
				}
			}
			alts = append(alts, t)
		}
		parts = append(parts, strings.Join(alts, " or "))
	}
	return strings.Join(parts, ", then ")
}

const mfaGetUsage = `Usage: vigil mfa get [--user ID] [--json] MFA_POLICY_ID

Shows one MFA policy (get_mfa_policy). The service finds a policy by its user
and its id; without --user, vigil looks through every user's policies.

Examples:
  vigil mfa get --user 0192… 0192a6c4-…
  vigil mfa get 0192a6c4-…

Flags:
`

func mfaGet(ctx context.Context, c proc, args []string) error {
	var user string
	// owner is the user whose policy id is: --user, or found among every user's.
	owner := func(ctx context.Context, client *api.Client, id string) (string, error) {
		if user != "" {
			return user, nil
		}
		all, err := mfaPoliciesOf(ctx, client, "")
		if err != nil {
			return "", err
		}
		for _, m := range all {
			if m.MfaPolicyID == id {
				return m.UserID, nil
			}
		}
		return "", errors.New("no such MFA policy; 'vigil mfa list' shows them")
	}
	return queryVerb{
		name: "mfa get", usage: mfaGetUsage, arg: "MFA policy id",
		exact: true, // escaped once, below, as mfa list
		flags: func(fs *flag.FlagSet) { fs.StringVar(&user, "user", "", "the user `ID` the policy belongs to") },
		raw: func(ctx context.Context, client *api.Client, id string) (json.RawMessage, error) {
			uid, err := owner(ctx, client, id)
			if err != nil {
				return nil, err
			}
			return client.QueryRecordRaw(ctx, api.QueryGetMfaPolicy, api.GetMfaPolicyRequest{OrganizationID: client.OrganizationID(), UserID: uid, MfaPolicyID: id})
		},
		show: func(ctx context.Context, c proc, client *api.Client, id string) error {
			uid, err := owner(ctx, client, id)
			if err != nil {
				return err
			}
			m, err := client.GetMfaPolicy(ctx, uid, id)
			if err != nil {
				return err
			}
			if m.UserID == "" {
				m.UserID = uid
			}
			_, byUser := listUsersAndCredentials(ctx, c, client)
			proves := byUser[m.UserID]
			return fields(c.stdout, "id", api.SanitizeID(m.MfaPolicyID), "user", api.SanitizeID(m.UserID), "name", api.NameText(m.MfaPolicyName),
				"order", strconv.Itoa(m.Order), "condition", exprText(m.Condition),
				"steps", stepsText(m.RequiredAuthenticationMethods, proves), "notes", api.Sanitize(m.Notes),
				"created", timeText(m.CreatedAt), "updated", timeText(m.UpdatedAt))
		},
	}.run(ctx, c, args)
}

const mfaCreateUsage = `Usage: vigil mfa create --user ID|NAME --name N --condition EXPR --step METHODS… --order N [--notes T]

Submits create_mfa_policy. The condition is compiled first, as the service
compiles it; one that fails is reported with its line and column and nothing is
sent. --user is checked against list_users before sending (the service fails
an unknown user only after the root quorum has voted); a user's name is taken
when exactly one user has it. Each --step is one step the user must pass, in
order; METHODS lists the methods that satisfy it, separated by commas, each a
type (passkey, email_otp, sms_otp, api_key, oauth, session, or the full
AUTHENTICATION_TYPE_… value) optionally followed by :ID for one authenticator.
--order is the policy's place among the user's MFA policies ('vigil mfa list
--user ID' shows theirs): 0 is evaluated first, and the first whose condition
holds applies; it has no default.

Examples:
  vigil mfa create --user 0192… --name "Passkey for deletions" \
    --condition "activity.action == 'DELETE'" --step passkey --order 0
  vigil mfa create --user 0192… --name Fallback --condition true \
    --step email_otp,sms_otp --step api_key --order 1

Flags:
`

// authMethods parses one --step value.
func authMethods(s string) (api.AuthenticationStep, error) {
	var step api.AuthenticationStep
	for _, part := range strings.Split(s, ",") {
		typ, id, _ := strings.Cut(strings.TrimSpace(part), ":")
		v := strings.ToUpper(strings.TrimSpace(typ))
		if !strings.HasPrefix(v, "AUTHENTICATION_TYPE_") {
			v = "AUTHENTICATION_TYPE_" + v
		}
		ok := false
		for _, t := range api.AuthenticationTypes() {
			ok = ok || t == v
		}
		if !ok {
			return step, usagef("--step %q: %q is not an authentication type; use passkey, email_otp, sms_otp, api_key, oauth or session", s, typ)
		}
		step.Any = append(step.Any, api.AuthenticationMethod{Type: v, ID: strings.TrimSpace(id)})
	}
	return step, nil
}

func mfaCreate(ctx context.Context, c proc, args []string) error {
	fs := newFlagSet("mfa create", mfaCreateUsage)
	var conn connFlags
	conn.register(fs, true)
	p := api.CreateMfaPolicyParams{}
	fs.StringVar(&p.UserID, "user", "", "the user `ID` or user name the policy is for (required)")
	fs.StringVar(&p.MfaPolicyName, "name", "", "policy `NAME` (required)")
	fs.StringVar(&p.Condition, "condition", "", "when the policy applies: an `EXPR`ession such as true (required)")
	decimalVar(fs, &p.Order, "order", "evaluation order `N` among the user's MFA policies, from 0 (required)")
	fs.StringVar(&p.Notes, "notes", "", "free-text `NOTES`")
	var steps listFlag
	fs.Var(&steps, "step", "one step: `METHODS` separated by commas (repeatable, in order)")
	allowEmpty(fs, "notes")
	if err := parseFlagsOnly(c, fs, args); err != nil {
		return err
	}
	for _, s := range steps {
		step, err := authMethods(s)
		if err != nil {
			return err
		}
		p.RequiredAuthenticationMethods = append(p.RequiredAuthenticationMethods, step)
	}
	if err := validated("mfa create", &p); err != nil {
		return err
	}
	if err := checkExpressions(c, p.Condition, ""); err != nil {
		return usagef("mfa create: --condition: %v; nothing was sent", err)
	}
	// SPEC.md requires order, and 0 (evaluated before the user's other
	// policies) is no neutral default: it must be chosen, as the console's
	// editor shows it before anything is sent.
	if !visited(fs)["order"] {
		return usagef("mfa create: --order N is required: the policy's place among the user's MFA policies (0 is evaluated first; a tie goes by creation); 'vigil mfa list --user USER' shows the orders of theirs, and the console's editor proposes the one after the last, or %d (the largest) when the last is at it", api.MaxMfaPolicyOrder)
	}
	client, _, err := conn.submitClient(c)
	if err != nil {
		return err
	}
	// The service takes any user id, and any pinned credential id, and a
	// typo in either gives a policy that fails or can never be met only
	// after the root quorum has voted: both are caught here instead, from
	// one list_users.
	users, err := exactUsers(ctx, client)
	if err != nil {
		return fmt.Errorf("mfa create: check --user and --step against the users: %w", err)
	}
	ids, err := resolveUsersAmong(users, "mfa create", "--user", []string{p.UserID})
	if err != nil {
		return err
	}
	p.UserID = ids[0]
	i := slices.IndexFunc(users, func(u api.User) bool { return u.UserID == p.UserID })
	// Keys expire by the service's clock.
	if err := checkPins(users[i], steps, p.RequiredAuthenticationMethods, client.ServiceNow()); err != nil {
		return err
	}
	warnUnknownIDs(ctx, c, client, p.Condition)
	a, raw, err := submitShown(ctx, client, "create_mfa_policy", &p)
	if err != nil {
		return fmt.Errorf("create MFA policy %q: %w", p.MfaPolicyName, err)
	}
	return submitted(ctx, c, client, a, raw, conn.json)
}

const mfaStatusUsage = `Usage: vigil mfa status [--user ID] [--json] ACTIVITY_ID

Shows, for each voter of an activity (or the one --user names), the MFA policy
that applies to them and whether the credential they voted with satisfies its
steps (get_mfa_status). A voter no MFA policy applies to is not listed. With
--user, a member who has not voted yet is told so, with the MFA policy that
would apply to their vote.

Examples:
  vigil mfa status 0192a6c4-…
  vigil mfa status --user 0192… --json 0192a6c4-…

Flags:
`

func mfaStatus(ctx context.Context, c proc, args []string) error {
	var user string
	return queryVerb{
		name: "mfa status", usage: mfaStatusUsage, arg: "activity id",
		flags: func(fs *flag.FlagSet) { fs.StringVar(&user, "user", "", "only the voter with user `ID`") },
		raw: func(ctx context.Context, client *api.Client, id string) (json.RawMessage, error) {
			return client.QueryRaw(ctx, api.QueryGetMfaStatus, api.GetMfaStatusRequest{OrganizationID: client.OrganizationID(), ActivityID: id, UserID: user})
		},
		show: func(ctx context.Context, c proc, client *api.Client, id string) error {
			statuses, err := client.GetMfaStatus(ctx, id, user)
			if err != nil {
				return err
			}
			if len(statuses) == 0 {
				if user == "" {
					fmt.Fprintln(c.stderr, "no voter of this activity has an MFA policy that applies to it (members who have not voted are not listed: ask for one with --user ID)")
					return nil
				}
				why, err := mfaOfOneVoter(ctx, client, id, user)
				if err != nil {
					return err
				}
				fmt.Fprintln(c.stderr, ui.CleanBlock(why))
				return nil
			}
			rows := make([][]string, 0, len(statuses))
			for _, st := range statuses {
				done := make([]string, 0, len(st.SatisfiedMethods))
				for _, m := range st.SatisfiedMethods {
					done = append(done, strings.TrimPrefix(m.Type, "AUTHENTICATION_TYPE_"))
				}
				rows = append(rows, []string{st.UserID, st.MfaPolicyID, strconv.FormatBool(st.Satisfied),
					stepsText(st.RequiredMethods, pinCreds{}), strings.Join(done, ", ")})
			}
			return table(c.stdout, []string{"USER", "MFA POLICY", "SATISFIED", "REQUIRED", "SATISFIED BY"}, rows)
		},
	}.run(ctx, c, args)
}
