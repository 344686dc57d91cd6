package api

import (
	"encoding/json"
	"slices"
	"testing"
)

// A tampered map key is quoted for display, and the quoted form is a clean
// string a hostile sender can also send as a key: neither key, nor its value,
// may be lost, whatever the map's order.
func TestSanitizedMapKeysDoNotCollide(t *testing.T) {
	for range 20 { // map order is random: try several
		m := map[string]string{
			"a\u202eb":   "tampered",
			`"a\u202eb"`: "clean",
		}
		SanitizeValue(&m)
		var vals []string
		for _, v := range m {
			vals = append(vals, v)
		}
		slices.Sort(vals)
		if !slices.Equal(vals, []string{"clean", "tampered"}) {
			t.Fatalf("two keys in, values out %q", m)
		}
		if m[`"a\u202eb"`] != "clean" {
			t.Fatalf("the clean key should keep its value: %q", m)
		}
	}

	var in Intent
	if err := json.Unmarshal([]byte(`{"fooIntent":{"x":1},"\"foo\\u202eIntent\"":{"y":2},"foo\u202eIntent":{"z":3}}`), &in); err != nil {
		t.Fatal(err)
	}
	before := len(in.Keys())
	SanitizeValue(&in)
	if after := len(in.Keys()); after != before {
		t.Errorf("intent: %d operations before sanitizing, %d after: %q", before, after, in.Keys())
	}
}
