package policy

import (
	"strings"
	"testing"
)

// A field read through a loop variable that exists on another struct but
// not on the one iterated was "fixed" by suggesting the very name written
// (`undefined field 'user_id' (did you mean 'user_id'?)`), telling the user
// to write what they wrote. The hint now says whose field it is, and of
// which struct it is not when that can be known.
func TestFieldHintNeverSuggestsTheNameWritten(t *testing.T) {
	for _, tc := range []struct {
		src  Source
		name string
		want []string
	}{
		// Credential has user_id, User (approvers) does not.
		{Source{Consensus: "approvers.any(u, u.user_id == 'u-1')"}, "user_id",
			[]string{"'user_id' is a field of Credential", "not of User"}},
		// EthereumTransaction has value, TempoCall does not.
		{Source{Condition: "tempo.tx.calls.all(c, c.value <= 1000)"}, "value",
			[]string{"'value' is a field of", "EthereumTransaction", "not of TempoCall"}},
		// Through an index rather than a loop.
		{Source{Condition: "tempo.tx.calls[0].value <= 1000"}, "value",
			[]string{"not of TempoCall"}},
		// The range is computed: its type is not worked out, so the hint
		// names the owner only.
		{Source{Consensus: "approvers.filter(x, true).any(u, u.user_id == 'u-1')"}, "user_id",
			[]string{"'user_id' is a field of Credential, not of this value"}},
	} {
		_, err := CompileSource(tc.src)
		if err == nil {
			t.Fatalf("%+v compiled", tc.src)
		}
		msg := err.Error()
		if strings.Contains(msg, "did you mean '"+tc.name+"'?") {
			t.Errorf("the hint suggests the name written: %v", msg)
		}
		for _, w := range tc.want {
			if !strings.Contains(msg, w) {
				t.Errorf("%+v: %q does not say %q", tc.src, msg, w)
			}
		}
	}
}
