package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"strconv"
	"strings"

	"github.com/vigil-console/vigil/api"
)

const mfaUsage = `vigil mfa — MFA policies: which extra authentication a user's activities need

Usage:
  vigil mfa list [--user ID] [--json]
  vigil mfa get [--user ID] [--json] MFA_POLICY_ID
  vigil mfa create --user ID --name N --condition EXPR --step METHODS… [--order N] [--notes T]

Every subcommand takes --profile NAME and --config FILE (or $VIGIL_PROFILE,
$VIGIL_CONFIG) and -h for its flags and examples.
`

func cmdMfa(ctx context.Context, c cli, args []string) error {
	return runGroup(ctx, c, "mfa", mfaUsage, []subcommand{
		{"list", mfaList},
		{"get", mfaGet},
		{"create", mfaCreate},
	}, args)
}

const mfaListUsage = `Usage: vigil mfa list [--user ID] [--json]

Lists the MFA policies of the organization, or of one user, in evaluation order.

Examples:
  vigil mfa list
  vigil mfa list --user 0192a6c4-… --json

Flags:
`

func mfaList(ctx context.Context, c cli, args []string) error {
	var user string
	return queryVerb{
		name: "mfa list", usage: mfaListUsage,
		flags: func(fs *flag.FlagSet) { fs.StringVar(&user, "user", "", "only the MFA policies of user `ID`") },
		raw: func(ctx context.Context, client *api.Client, _ string) (json.RawMessage, error) {
			return client.QueryRaw(ctx, api.QueryListMfaPolicies, api.ListMfaPoliciesRequest{OrganizationID: client.OrganizationID(), UserID: user})
		},
		show: func(ctx context.Context, c cli, client *api.Client, _ string) error {
			list, err := client.ListMfaPolicies(ctx, user)
			if err != nil {
				return err
			}
			rows := make([][]string, 0, len(list))
			for _, m := range list {
				rows = append(rows, []string{m.MfaPolicyID, m.UserID, m.MfaPolicyName, strconv.Itoa(m.Order),
					oneLine(m.Condition, 40), stepsText(m.RequiredAuthenticationMethods)})
			}
			return table(c.stdout, []string{"ID", "USER", "NAME", "ORDER", "CONDITION", "STEPS"}, rows)
		},
	}.run(ctx, c, args)
}

// stepsText writes MFA steps as "PASSKEY, then EMAIL_OTP or SMS_OTP".
func stepsText(steps []api.AuthenticationStep) string {
	parts := make([]string, 0, len(steps))
	for _, s := range steps {
		alts := make([]string, 0, len(s.Any))
		for _, m := range s.Any {
			t := strings.TrimPrefix(m.Type, "AUTHENTICATION_TYPE_")
			if m.ID != "" {
				t += ":" + m.ID
			}
			alts = append(alts, t)
		}
		parts = append(parts, strings.Join(alts, " or "))
	}
	return strings.Join(parts, ", then ")
}

const mfaGetUsage = `Usage: vigil mfa get [--user ID] [--json] MFA_POLICY_ID

Shows one MFA policy. (The local service has no get_mfa_policy query yet, so
the policy is found in list_mfa_policies; --user narrows that list.)

Examples:
  vigil mfa get 0192a6c4-…

Flags:
`

func mfaGet(ctx context.Context, c cli, args []string) error {
	var user string
	errNoPolicy := errors.New("no such MFA policy; 'vigil mfa list' shows them")
	return queryVerb{
		name: "mfa get", usage: mfaGetUsage, arg: "MFA policy id",
		flags: func(fs *flag.FlagSet) { fs.StringVar(&user, "user", "", "the user `ID` the policy belongs to") },
		raw: func(ctx context.Context, client *api.Client, id string) (json.RawMessage, error) {
			raw, err := client.QueryRaw(ctx, api.QueryListMfaPolicies, api.ListMfaPoliciesRequest{OrganizationID: client.OrganizationID(), UserID: user})
			if err != nil {
				return nil, err
			}
			var reply struct{ MfaPolicies []json.RawMessage }
			if err := json.Unmarshal(raw, &reply); err != nil {
				return nil, fmt.Errorf("the reply is not the expected JSON: %w", err)
			}
			for _, m := range reply.MfaPolicies {
				var key struct{ MfaPolicyID string }
				if json.Unmarshal(m, &key) == nil && key.MfaPolicyID == id {
					return json.Marshal(map[string]json.RawMessage{"mfaPolicy": m})
				}
			}
			return nil, errNoPolicy
		},
		show: func(ctx context.Context, c cli, client *api.Client, id string) error {
			list, err := client.ListMfaPolicies(ctx, user)
			if err != nil {
				return err
			}
			for _, m := range list {
				if m.MfaPolicyID == id {
					return fields(c.stdout, "id", m.MfaPolicyID, "user", m.UserID, "name", m.MfaPolicyName,
						"order", strconv.Itoa(m.Order), "condition", m.Condition,
						"steps", stepsText(m.RequiredAuthenticationMethods), "notes", m.Notes,
						"created", timeText(m.CreatedAt), "updated", timeText(m.UpdatedAt))
				}
			}
			return errNoPolicy
		},
	}.run(ctx, c, args)
}

const mfaCreateUsage = `Usage: vigil mfa create --user ID --name N --condition EXPR --step METHODS… [--order N] [--notes T]

Submits create_mfa_policy. Each --step is one step the user must pass, in
order; METHODS lists the methods that satisfy it, separated by commas, each a
type (passkey, email_otp, sms_otp, api_key, oauth, session, or the full
AUTHENTICATION_TYPE_… value) optionally followed by :ID for one authenticator.

Examples:
  vigil mfa create --user 0192… --name "Passkey for deletions" \
    --condition "activity.action == 'DELETE'" --step passkey
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

func mfaCreate(ctx context.Context, c cli, args []string) error {
	fs := newFlagSet("mfa create", mfaCreateUsage)
	var conn connFlags
	conn.register(fs, true)
	p := api.CreateMfaPolicyParams{}
	fs.StringVar(&p.UserID, "user", "", "the user `ID` the policy is for (required)")
	fs.StringVar(&p.MfaPolicyName, "name", "", "policy `NAME` (required)")
	fs.StringVar(&p.Condition, "condition", "", "when the policy applies: an `EXPR`ession such as true (required)")
	fs.IntVar(&p.Order, "order", 0, "evaluation order `N` among the user's MFA policies, from 0")
	fs.StringVar(&p.Notes, "notes", "", "free-text `NOTES`")
	var steps listFlag
	fs.Var(&steps, "step", "one step: `METHODS` separated by commas (repeatable, in order)")
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
	if err := p.Validate(); err != nil {
		return usagef("mfa create: %v", err)
	}
	client, _, err := conn.submitClient(c)
	if err != nil {
		return err
	}
	a, raw, err := client.SubmitRaw(ctx, "create_mfa_policy", &p)
	if err != nil {
		return fmt.Errorf("create MFA policy %q: %w", p.MfaPolicyName, err)
	}
	return printSubmitted(c.stdout, a, raw, conn.json)
}
