package policy

import (
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
)

// solanaSign is a Solana signing request whose one instruction names its
// authority account, the parsed data giving the named accounts under key.
func solanaSign(key, authority string) Input {
	return Input{
		Activity: ActivityFor("ACTIVITY_TYPE_SIGN_TRANSACTION_V2", map[string]any{"type": "TRANSACTION_TYPE_SOLANA"}),
		Payloads: map[string]map[string]any{PayloadSolanaTx: {"instructions": []any{map[string]any{
			"program_key": "Stake11111111111111111111111111111111111111",
			"parsed_instruction_data": map[string]any{
				"instruction_name": "withdraw",
				key:                map[string]any{"authority": authority},
			},
		}}}},
		Approvers: []Approver{alice},
	}
}

// The real service's docs spell the field named_accounts (language.mdx
// prose, smart-contract-interfaces.mdx) and named_account (language.mdx
// table). A policy in either spelling must be accepted and decide the same
// activity the same way, whichever spelling the parsed transaction uses: a
// deny that silently missed in one spelling would let the activity through.
func TestNamedAccountsEitherSpellingDecidesAlike(t *testing.T) {
	for _, spelling := range []string{"named_account", "named_accounts"} {
		cond := "solana.tx.instructions.any(i, has(i.parsed_instruction_data) && i.parsed_instruction_data." + spelling + "['authority'] == 'A')"
		allow := mustPolicy(t, "allow-"+spelling, api.EffectAllow, cond, "")
		deny := mustPolicy(t, "deny-"+spelling, api.EffectDeny, cond, "")
		allowAll := mustPolicy(t, "allow-all", api.EffectAllow, "true", "")
		for _, key := range []string{"named_account", "named_accounts"} {
			for authority, matches := range map[string]bool{"A": true, "B": false} {
				in := solanaSign(key, authority)
				wantAllow, wantDeny := api.OutcomeDenyImplicit, api.OutcomeAllow
				if matches {
					wantAllow, wantDeny = api.OutcomeAllow, api.OutcomeDenyExplicit
				}
				if d := Decide([]Policy{allow}, in, quorum, false); d.Outcome != wantAllow {
					t.Errorf("allow on %s, payload %s, authority %s: outcome %s (%s), want %s", spelling, key, authority, d.Outcome, d.Reason, wantAllow)
				}
				if d := Decide([]Policy{allowAll, deny}, in, quorum, false); d.Outcome != wantDeny {
					t.Errorf("deny on %s, payload %s, authority %s: outcome %s (%s), want %s", spelling, key, authority, d.Outcome, d.Reason, wantDeny)
				}
			}
		}
	}
}

// A parsed instruction giving both spellings with different maps is refused
// rather than letting a policy's spelling pick which one it reads.
func TestNamedAccountsConflictingPayloadRefused(t *testing.T) {
	in := solanaSign("named_account", "A")
	parsed := in.Payloads[PayloadSolanaTx]["instructions"].([]any)[0].(map[string]any)["parsed_instruction_data"].(map[string]any)
	parsed["named_accounts"] = map[string]any{"authority": "B"}
	allow := mustPolicy(t, "allow", api.EffectAllow, "solana.tx.instructions.all(i, i.parsed_instruction_data.named_account['authority'] == 'A')", "")
	d := Decide([]Policy{allow}, in, quorum, false)
	if d.Outcome != api.OutcomeError || !strings.Contains(d.Reason, "named_accounts") {
		t.Errorf("conflicting spellings: outcome %s (%s), want %s naming the field", d.Outcome, d.Reason, api.OutcomeError)
	}
}

// Either spelling is accepted with a warning naming the other, at its
// position; a condition that does not read the field gets none.
func TestNamedAccountsSpellingWarned(t *testing.T) {
	for spelling, other := range map[string]string{"named_account": "named_accounts", "named_accounts": "named_account"} {
		cond := "solana.tx.instructions.any(i, i.parsed_instruction_data." + spelling + "['authority'] == 'A')"
		if diags := Check(cond, ""); len(diags) > 0 {
			t.Errorf("%s refused: %v", spelling, diags)
		}
		var found []Diagnostic
		for _, w := range Warnings(Source{Condition: cond}) {
			if strings.HasPrefix(w.Message, spelling+":") {
				found = append(found, w)
			}
		}
		if len(found) != 1 {
			t.Fatalf("%s: warnings %v, want one about the spelling", spelling, Warnings(Source{Condition: cond}))
		}
		if w := found[0]; !strings.Contains(w.Message, "may accept only "+other) || w.Line != 1 || w.Column < strings.Index(cond, "."+spelling) {
			t.Errorf("%s: warning %+v, want one at the field saying the service may accept only %s", spelling, w, other)
		}
	}
	if ws := namedAccountsWarnings("solana.tx.instructions.any(i, i.parsed_instruction_data.instruction_name == 'withdraw')"); len(ws) > 0 {
		t.Errorf("no named accounts read, warnings %v", ws)
	}
}
