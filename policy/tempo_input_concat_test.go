package policy

import (
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
)

// A transfer's recipient is input[34..74]; putting its 0x prefix back
// ('0x' + input[34..74]) to compare it with an address is the natural way
// to write it. The concatenation holds part of input, so it compares
// case-insensitively too: otherwise a DENY of a checksum-case recipient
// never denies.
func TestTempoInputConcatenationComparesCaseInsensitively(t *testing.T) {
	const (
		recipient = "AbCdEf0123456789aBcDeF0123456789ABCDEF01" // checksum-style case
		other     = "1111111111111111111111111111111111111111"
	)
	calldata := "0xa9059cbb000000000000000000000000" + strings.ToLower(recipient) +
		"0000000000000000000000000000000000000000000000000000000000000001"
	input := func(data, to string) Input {
		return Input{
			Activity:      ActivityFor("ACTIVITY_TYPE_SIGN_TRANSACTION_V2", map[string]any{"type": "TRANSACTION_TYPE_TEMPO"}),
			WalletAccount: map[string]any{"address": "0x" + recipient},
			Payloads:      map[string]map[string]any{PayloadTempoTx: {"calls": []any{map[string]any{"to": to, "input": data}}}},
			Approvers:     []Approver{alice},
		}
	}
	holds := []string{
		"'0x' + tempo.tx.calls[0].input[34..74] == '0x" + recipient + "'",
		"'0x' + tempo.tx.calls[0].input[34..74] == wallet_account.address",
		"wallet_account.address == '0x' + tempo.tx.calls[0].input[34..74]",
		"tempo.tx.calls.exists(c, '0x' + c.input[34..74] == wallet_account.address)",
		"'0X' + tempo.tx.calls[0].input[34..74] == '0x" + recipient + "'", // the other operand of + folds too
		"tempo.tx.calls[0].input[34..74] + '' == '" + recipient + "'",
		"'0x' + tempo.tx.calls[0].input[34..74] in ['0x" + other + "', '0x" + recipient + "']",
		"('0x' + tempo.tx.calls[0].input[34..74]).startsWith('0xAbCd')",
		// Planned without short-circuits (_vand, _vcond): folding follows.
		"tempo.tx.calls.size() > 0 && '0x' + tempo.tx.calls[0].input[34..74] == '0x" + recipient + "'",
		"(tempo.tx.calls.size() > 0 ? '0x' + tempo.tx.calls[0].input[34..74] : '') == '0x" + recipient + "'",
	}
	fails := []string{
		"'0x' + tempo.tx.calls[0].input[34..74] == '0x" + other + "'",
		"'0y' + tempo.tx.calls[0].input[34..74] == '0x" + recipient + "'",
		// A concatenation without input stays case-sensitive.
		"'0x' + wallet_account.address[2..42] == '0x" + strings.ToLower(recipient) + "'",
	}
	for _, data := range []string{calldata, "0x" + strings.ToUpper(calldata[2:])} {
		for _, cond := range holds {
			if r, err := evalCondition(t, cond, input(data, "0x1")); err != nil || !r.Condition {
				t.Errorf("%s on %.12s…: condition %v, err %v; want true, as input compares case-insensitively", cond, data, r.Condition, err)
			}
		}
		for _, cond := range fails {
			if r, err := evalCondition(t, cond, input(data, "0x1")); err != nil || r.Condition {
				t.Errorf("%s on %.12s…: condition %v, err %v; want false", cond, data, r.Condition, err)
			}
		}
	}

	deny := mustPolicy(t, "deny-recipient", api.EffectDeny,
		"tempo.tx.calls.exists(c, '0x' + c.input[34..74] == '0x"+recipient+"')", "")
	allow := mustPolicy(t, "allow", api.EffectAllow, "true", "")
	if d := Decide([]Policy{allow, deny}, input(calldata, "0x1"), quorum, false); d.Outcome != api.OutcomeDenyExplicit {
		t.Errorf("transfer to the denied recipient: outcome %s, want %s", d.Outcome, api.OutcomeDenyExplicit)
	}
	elsewhere := strings.Replace(calldata, strings.ToLower(recipient), other, 1)
	if d := Decide([]Policy{allow, deny}, input(elsewhere, "0x1"), quorum, false); d.Outcome != api.OutcomeAllow {
		t.Errorf("transfer to another recipient: outcome %s, want %s", d.Outcome, api.OutcomeAllow)
	}
}
