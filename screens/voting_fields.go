package screens

import (
	"strings"

	"github.com/vigil-console/vigil/api"
)

// policyIntentLines are the dialog's lines of create_policy. The ids the
// expressions hold are named under them: they decide who may approve from
// then on. An expression of only white space is none to the engine, so it
// is said to be (api.ExprAbsentText), and drawn as a warning, as is an
// ALLOW policy without consensus: it allows with no approval at all. A
// line standing for several warnings is weighed in weight, when not nil
// (conditionWarningLines).
func policyIntentLines(c *Common, p *api.CreatePolicyParams, weight map[int]int) ([]string, map[int]bool) {
	warn := map[int]bool{}
	lines := []string{field("effect", api.EffectText(p.Effect)), field("policy", api.Quote(p.PolicyName))}
	expr := func(name, src string, warnAbsent bool) {
		if text, absent := api.ExprAbsentText(name, src); absent {
			if src != "" || warnAbsent {
				warn[len(lines)] = true
			}
			lines = append(lines, field(name, text))
			return
		}
		lines = exprFieldLines(lines, warn, name, src)
		lines = exprNameLines(lines, warn, exprNames(c, src))
		// What the author was warned of, the approver is told too: a
		// warning never stopped the submit.
		lines = exprWarningLines(lines, warn, weight, name, src)
	}
	expr("condition", p.Condition, false)
	expr("consensus", p.Consensus, p.Effect == api.EffectAllow)
	if p.Time != "" {
		// Without it the policy is always active; with it, only then.
		expr("time", p.Time, false)
	}
	return append(lines, field("notes", api.Quote(p.Notes))), warn
}

// contractInterfaceLines are the dialog's lines of
// create_smart_contract_interface: the interface (ABI) the service stores
// is shown whole, last, so that reading to the end (before y counts) reads it.
func contractInterfaceLines(p *api.CreateSmartContractInterfaceParams) []string {
	return []string{field("interface", api.Quote(p.Label)), field("address", api.Quote(p.SmartContractAddress)),
		field("kind", strings.TrimPrefix(p.Type, "SMART_CONTRACT_INTERFACE_TYPE_")),
		field("notes", api.Quote(p.Notes)),
		field("ABI", api.Quote(p.SmartContractInterface))}
}
