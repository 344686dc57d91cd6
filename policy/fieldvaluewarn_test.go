package policy

import (
	"strings"
	"testing"
)

// The values features/policies/language.mdx ("Struct") gives these
// transaction fields, written out here rather than taken from the code.
var docsFieldValues = map[string][]string{
	"eth.tx.type":                         {"LEGACY", "TYPE_1", "TYPE_2", "TYPE_3", "TYPE_4"},
	"tron.tx.contract[0].resource":        {"ENERGY", "BANDWIDTH"},
	"tron.tx.contract[0].owner.type":      {"Owner", "Witness", "Active"},
	"bitcoin.tx.locktime.type":            {"Seconds", "Blocks"},
	"tron.tx.contract[0].actives[1].type": {"Owner", "Witness", "Active"},
}

func TestDocumentedTransactionFieldValuesAreNotWarned(t *testing.T) {
	for read, values := range docsFieldValues {
		for _, v := range values {
			for _, cond := range []string{read + " == '" + v + "'", "'" + v + "' != " + read, read + " in ['" + v + "']"} {
				if _, err := Compile(cond, ""); err != nil {
					t.Fatalf("%s: %v", cond, err)
				}
				if ws := Warnings(Source{Condition: cond}); len(ws) != 0 {
					t.Errorf("%s: warned %v, yet the docs give %s", cond, ws, v)
				}
			}
		}
	}
}

func TestUndocumentedTransactionFieldValueIsWarned(t *testing.T) {
	for _, tc := range []struct {
		condition string
		column    int
		want      string
	}{
		{"eth.tx.type == 'TYPE2'", 16, `"TYPE2" is never an EthereumTransaction's type, so this comparison is never true (a deny written on it never denies): did you mean 'TYPE_2'?`},
		{"eth.tx.type == 'EIP1559'", 16, "the docs give 'LEGACY', 'TYPE_1', 'TYPE_2', 'TYPE_3', 'TYPE_4'"},
		{"tron.tx.contract.all(c, c.resource == 'energy')", 39, `"energy" is never a TronContract's resource: did you mean 'ENERGY'?`},
		{"tron.tx.contract[0].owner.type == 'OWNER'", 35, "did you mean 'Owner'?"},
		{"bitcoin.tx.locktime.type in ['Blocks', 'Height']", 40, `"Height" is never a BitcoinTxLocktime's type, so this value never matches; the others in the list still can`},
	} {
		if _, err := Compile(tc.condition, ""); err != nil {
			t.Fatalf("%s must still compile: %v", tc.condition, err)
		}
		ws := Warnings(Source{Condition: tc.condition})
		if len(ws) != 1 {
			t.Errorf("%s: warnings %v, want one", tc.condition, ws)
			continue
		}
		if w := ws[0]; w.Field != FieldCondition || w.Column != tc.column || !strings.Contains(w.Message, tc.want) {
			t.Errorf("%s: warning %+v, want column %d saying %q", tc.condition, w, tc.column, tc.want)
		}
	}
}
