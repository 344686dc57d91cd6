package cli

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/policy"
	"github.com/vigil-console/vigil/ui"
)

const policyUsage = `vigil policy — the organization's policies

Usage:
  vigil policy list [--json]
  vigil policy get [--json] ID
  vigil policy create --name N --effect allow|deny [--condition EXPR] [--consensus EXPR] [--notes T]
  vigil policy check --condition EXPR [--consensus EXPR]
  vigil policy simulate --activity ID --effect allow|deny [--condition EXPR] [--consensus EXPR] [--json]

list, get, create and simulate take --profile NAME and --config FILE (or $VIGIL_PROFILE,
$VIGIL_CONFIG); check needs neither a profile nor the network. -h on each shows
its flags and examples. The language: docs/policy-language.md.
`

func cmdPolicy(ctx context.Context, c proc, args []string) error {
	return runGroup(ctx, c, "policy", policyUsage, []subcommand{
		{"list", policyList},
		{"get", policyGet},
		{"create", policyCreate},
		{"check", func(_ context.Context, c proc, args []string) error { return policyCheck(c, args) }},
		{"simulate", policySimulate},
	}, args)
}

const policyListUsage = `Usage: vigil policy list [--json]

Lists the policies: id, name, effect, condition, consensus and time (when the
policy is active; — is always) on one line each.

Examples:
  vigil policy list
  vigil policy list --json | jq -r '.policies[] | select(.effect=="EFFECT_DENY") | .policyName'

Flags:
`

// oneLine shortens an expression for a table cell.
func oneLine(s string, max int) string {
	s = strings.Join(strings.Fields(s), " ")
	if utf8.RuneCountInString(s) > max {
		r := []rune(s)
		return string(r[:max-1]) + "…"
	}
	if s == "" {
		return "—"
	}
	return s
}

func policyList(ctx context.Context, c proc, args []string) error {
	return queryVerb{
		name: "policy list", usage: policyListUsage,
		// Read exact and escaped once, here: the client's sanitised copy
		// printed a real newline in a name and a typed \n alike.
		exact: true,
		raw: func(ctx context.Context, client *api.Client, _ string) (json.RawMessage, error) {
			return client.QueryRaw(ctx, api.QueryListPolicies, api.ListPoliciesRequest{OrganizationID: client.OrganizationID()})
		},
		show: func(ctx context.Context, c proc, client *api.Client, _ string) error {
			policies, err := client.ListPolicies(ctx)
			if err != nil {
				return err
			}
			rows := make([][]string, 0, len(policies))
			for _, p := range policies {
				rows = append(rows, []string{api.SanitizeID(p.PolicyID), api.NameText(p.PolicyName), api.EffectText(p.Effect),
					exprCell(p.Condition, 60), exprCell(p.Consensus, 40), exprCell(p.Time, 40), timeText(p.UpdatedAt)})
			}
			return table(c.stdout, []string{"ID", "NAME", "EFFECT", "CONDITION", "CONSENSUS", "TIME", "UPDATED"}, rows)
		},
	}.run(ctx, c, args)
}

const policyGetUsage = `Usage: vigil policy get [--json] ID

Shows one policy in full.

Examples:
  vigil policy get 0192a6c4-…

Flags:
`

func policyGet(ctx context.Context, c proc, args []string) error {
	return queryVerb{
		name: "policy get", usage: policyGetUsage, arg: "policy id",
		exact: true, // escaped once, below, the name as policy list shows it
		raw: func(ctx context.Context, client *api.Client, id string) (json.RawMessage, error) {
			return client.QueryRecordRaw(ctx, api.QueryGetPolicy, api.GetPolicyRequest{OrganizationID: client.OrganizationID(), PolicyID: id})
		},
		show: func(ctx context.Context, c proc, client *api.Client, id string) error {
			p, err := client.GetPolicy(ctx, id)
			if err != nil {
				return err
			}
			return fields(c.stdout, "id", api.SanitizeID(p.PolicyID), "name", api.NameText(p.PolicyName), "effect", api.EffectText(p.Effect),
				"condition", exprText(p.Condition), "consensus", exprText(p.Consensus), "time", exprText(p.Time), "notes", api.Sanitize(p.Notes),
				"created", timeText(p.CreatedAt), "updated", timeText(p.UpdatedAt))
		},
	}.run(ctx, c, args)
}

const policyCreateUsage = `Usage: vigil policy create --name N --effect allow|deny [--condition EXPR] [--consensus EXPR] [--time EXPR] [--notes T]

Submits create_policy (V3). The service's limits (a name of up to 256
characters, notes of up to 4096, each expression's length) are checked before
anything else, and then the expressions are compiled, exactly as the service
compiles them; a value over a limit (exit 2) or an expression that fails
(reported with its line and column) sends nothing. --time says when the policy is active (docs/policy-language.md,
"time"); without it the policy is always active. The activity usually waits for the root quorum: follow it with
'vigil activity wait ID'.

Examples:
  vigil policy create --name "Ops approve deletions" --effect allow \
    --condition "activity.action == 'DELETE'" \
    --consensus "approvers.any(user, user.tags.contains('TAG_ID'))"
  vigil policy create --name "No treasury deletes" --effect deny --condition "..." --json

Flags:
`

// timeFlag registers --time, the draft's time expression, as policy create,
// check and simulate all take it.
func timeFlag(fs *flag.FlagSet) *string {
	return fs.String("time", "", "when the policy is active: a time `EXPR`ession; empty is always")
}

// effectValue turns allow, deny or the wire value into the wire value.
func effectValue(s string) (string, error) {
	v := strings.ToUpper(strings.TrimSpace(s))
	if !strings.HasPrefix(v, "EFFECT_") {
		v = "EFFECT_" + v
	}
	if v != api.EffectAllow && v != api.EffectDeny {
		return "", usagef("--effect %q: use allow or deny (EFFECT_ALLOW or EFFECT_DENY)", s)
	}
	return v, nil
}

func policyCreate(ctx context.Context, c proc, args []string) error {
	fs, conn := newSubmitFlags("policy create", policyCreateUsage)
	name := fs.String("name", "", "policy `NAME` (required)")
	effect := fs.String("effect", "", "allow or deny (required)")
	condition := fs.String("condition", "", "when the policy applies: an `EXPR`ession; empty applies to every activity")
	consensus := fs.String("consensus", "", "who must approve: an `EXPR`ession; empty requires no approvals")
	notes := fs.String("notes", "", "free-text `NOTES`")
	timeExpr := timeFlag(fs)
	allowEmpty(fs, "condition", "consensus", "notes", "time")
	if err := parseFlagsOnly(c, fs, args); err != nil {
		return err
	}
	if strings.TrimSpace(*name) == "" {
		return usagef("policy create: --name is required")
	}
	eff, err := effectValue(*effect)
	if err != nil {
		return err
	}
	params := &api.CreatePolicyParams{PolicyName: *name, Effect: eff,
		Condition: *condition, Consensus: *consensus, Notes: *notes, Time: *timeExpr}
	// Limits first, as every submit verb checks them: before the profile,
	// the deny warning or anything sent.
	if err := validated("policy create", params); err != nil {
		return err
	}
	src := policy.Source{Condition: *condition, Consensus: *consensus, Time: *timeExpr}
	if err := checkSource(c, src); err != nil {
		return err
	}
	client, _, err := conn.submitClient(c)
	if err != nil {
		return err
	}
	if eff == api.EffectDeny {
		// Said before it is sent: such a deny cannot be undone. The threshold
		// tells whether it applies; unknown (0), the warning says so.
		threshold := 0
		if cfg, err := client.GetOrganizationConfigs(ctx); err == nil {
			threshold = cfg.Quorum.Threshold
		}
		if w, ok := policy.IrreversibleDeny(eff, src, threshold); ok {
			fmt.Fprintf(c.stderr, "warning: %s\n", ui.Clean(w.Message))
		}
	}
	warnUnknownIDs(ctx, c, client, *condition, *consensus, *timeExpr)
	return submitVerb(ctx, c, conn, client, "create_policy", params)
}

const policyCheckUsage = `Usage: vigil policy check --condition EXPR [--consensus EXPR] [--time EXPR] [--effect allow|deny]

Compiles a condition, a consensus and a time expression as the service would, offline (no profile,
no network). Exit status 0 when both compile; otherwise every problem is printed
with its line and column, marked under the expression, and the exit status is 1.

Examples:
  vigil policy check --condition "activity.type == 'ACTIVITY_TYPE_CREATE_POLICY_V3'"
  vigil policy check --condition true --consensus "approvers.count() >= 2"

Flags:
`

func policyCheck(c proc, args []string) error {
	fs := newFlagSet("policy check", policyCheckUsage)
	condition := fs.String("condition", "", "condition `EXPR`ession")
	consensus := fs.String("consensus", "", "consensus `EXPR`ession")
	timeExpr := timeFlag(fs)
	effect := fs.String("effect", "", "the policy's effect, allow or deny: a deny is checked for one that cannot be undone")
	allowEmpty(fs, "condition", "consensus", "time") // as policy create takes them
	if err := parseFlagsOnly(c, fs, args); err != nil {
		return err
	}
	given := visited(fs)
	delete(given, "effect")
	if len(given) == 0 {
		return usagef("policy check needs --condition EXPR, --consensus EXPR and/or --time EXPR")
	}
	src := policy.Source{Condition: *condition, Consensus: *consensus, Time: *timeExpr}
	if err := checkSource(c, src); err != nil {
		return err
	}
	if *effect != "" {
		eff, err := effectValue(*effect)
		if err != nil {
			return err
		}
		// Offline: the root quorum's threshold is not known, the warning says so.
		if w, ok := policy.IrreversibleDeny(eff, src, 0); ok {
			fmt.Fprintf(c.stderr, "warning: %s\n", ui.Clean(w.Message))
		}
	}
	_, err := fmt.Fprintf(c.stdout, "ok: %s\n", checkVerdict(given, map[string]string{
		"condition": *condition, "consensus": *consensus, "time": *timeExpr}))
	return err
}

// checkVerdict is policy check's line for the given fields: which of them
// compile, then what each one given empty means (so that a check of only
// empty ones still says what was accepted).
func checkVerdict(given map[string]bool, values map[string]string) string {
	emptyMeaning := []struct{ field, meaning string }{
		{"condition", "applies to every activity"},
		{"consensus", "requires no approvals"},
		{"time", "always active"},
	}
	var compiled, empty []string
	for _, f := range emptyMeaning {
		switch {
		case !given[f.field]:
		case values[f.field] != "":
			compiled = append(compiled, f.field)
		default:
			empty = append(empty, fmt.Sprintf("an empty %s (%s)", f.field, f.meaning))
		}
	}
	var parts []string
	if len(compiled) > 0 {
		verb := "compile"
		if len(compiled) == 1 {
			verb = "compiles"
		}
		parts = append(parts, fmt.Sprintf("the %s %s", strings.Join(compiled, " and the "), verb))
	}
	if len(empty) > 0 {
		parts = append(parts, strings.Join(empty, " and "))
	}
	return strings.Join(parts, "; ")
}

// checkExpressions compiles a condition and consensus with policy/, printing
// every problem marked under its expression on standard error.
func checkExpressions(c proc, condition, consensus string) error {
	return checkSource(c, policy.Source{Condition: condition, Consensus: consensus})
}

// checkSource is checkExpressions for a policy's three expressions.
func checkSource(c proc, s policy.Source) error {
	diags := policy.CheckSource(s)
	if len(diags) == 0 {
		if _, err := policy.CompileSource(s); err != nil {
			return fmt.Errorf("the expressions do not compile: %w", err)
		}
		// Accepted, but behaving differently on the real service: said, not refused.
		// Messages may quote a decoded string literal: escaped here too, as
		// the console escapes them.
		for _, w := range policy.Warnings(s) {
			fmt.Fprintf(c.stderr, "warning: %s\n", ui.Clean(w.String()))
		}
		return nil
	}
	for _, d := range diags {
		src := s.Condition
		switch d.Field {
		case policy.FieldConsensus:
			src = s.Consensus
		case policy.FieldTime:
			src = s.Time
		}
		fmt.Fprintf(c.stderr, "%s\n", ui.Clean(d.String()))
		if lines := strings.Split(src, "\n"); d.Line >= 1 && d.Line <= len(lines) {
			// The caret goes by display width: a tab or an invisible character
			// is printed as its escape, a wide character takes two cells.
			line := lines[d.Line-1]
			fmt.Fprintf(c.stderr, "  %s\n  %s^\n", api.Sanitize(line), strings.Repeat(" ", ui.CaretIndent(line, d.Column)))
		}
	}
	first := diags[0]
	return fmt.Errorf("%d problem(s); the first: %s at line %d, column %d", len(diags), first.Field, first.Line, first.Column)
}
