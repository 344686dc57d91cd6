package policy

import (
	"strings"
	"testing"
)

// tkhq/docs features/policies/examples/tempo.mdx (c8289df2), "Raw calldata
// inspection": "The `input` field is case-insensitive, so hex comparisons
// work regardless of casing." The docs compare input[34..74] with a
// recipient address, often written in checksum (mixed) case.
func TestTempoInputComparesCaseInsensitively(t *testing.T) {
	const (
		recipient = "AbCdEf0123456789aBcDeF0123456789ABCDEF01" // checksum-style case
		other     = "1111111111111111111111111111111111111111"
	)
	calldata := "0xa9059cbb000000000000000000000000" + strings.ToLower(recipient) +
		"0000000000000000000000000000000000000000000000000000000000000001"
	input := func(data string) Input {
		return Input{
			Activity:      ActivityFor("ACTIVITY_TYPE_SIGN_TRANSACTION_V2", map[string]any{"type": "TRANSACTION_TYPE_TEMPO"}),
			WalletAccount: map[string]any{"address": "0x" + recipient},
			Payloads:      map[string]map[string]any{PayloadTempoTx: {"calls": []any{map[string]any{"to": "0x1", "input": data}}}},
		}
	}
	holds := []string{
		"tempo.tx.calls[0].input[34..74] == '" + recipient + "'",
		"tempo.tx.calls[0].input[34..74] != '" + other + "'",
		"'" + strings.ToUpper(recipient) + "' == tempo.tx.calls[0].input[34..74]",
		"tempo.tx.calls.all(c, c.input[34..74] in ['" + other + "', '" + recipient + "'])",
		"tempo.tx.calls.all(c, ['" + recipient + "'].contains(c.input[34..74]))",
		"tempo.tx.calls.any(c, c.input.startsWith('0xA9059CBB'))",
		"tempo.tx.calls.any(c, c.input.contains('" + recipient + "'))",
		"tempo.tx.calls.any(c, c.input.endsWith('0000000000000000000000000000000000000000000000000000000000000001'))",
		"tempo.tx.calls[0].input[2] == 'A'",
		// The other side read at evaluation, not written in the policy.
		"tempo.tx.calls[0].input[34..74] == wallet_account.address[2..42]",
		"['" + other + "', '" + recipient + "'].exists(a, tempo.tx.calls[0].input[34..74] == a)",
		// Planned without short-circuits (strict.go), which rewrites the
		// expression: the folding must follow the rewritten plan.
		"tempo.tx.calls.size() > 0 && tempo.tx.calls[0].input[34..74] == '" + recipient + "'",
		"(tempo.tx.calls.size() > 0 ? tempo.tx.calls[0].input[34..74] : '') == '" + recipient + "'",
	}
	fails := []string{
		"tempo.tx.calls[0].input[34..74] == '" + other + "'",
		"tempo.tx.calls[0].input[34..74] in ['" + other + "']",
		"tempo.tx.calls.any(c, c.input.startsWith('0x095EA7B3'))",
	}
	// The calldata as given in lower case, and in upper case.
	for _, data := range []string{calldata, "0x" + strings.ToUpper(calldata[2:])} {
		for _, cond := range holds {
			if r, err := evalCondition(t, cond, input(data)); err != nil || !r.Condition {
				t.Errorf("%s on %.12s…: condition %v, err %v; want true, as input compares case-insensitively", cond, data, r.Condition, err)
			}
		}
		for _, cond := range fails {
			if r, err := evalCondition(t, cond, input(data)); err != nil || r.Condition {
				t.Errorf("%s on %.12s…: condition %v, err %v; want false", cond, data, r.Condition, err)
			}
		}
	}
}
