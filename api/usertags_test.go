package api

import (
	"strings"
	"testing"
)

func TestResolveByIDOrName(t *testing.T) {
	known := map[string]string{"t-1": "auditors", "t-2": "oncall", "t-3": "oncall"}
	for _, tc := range []struct {
		value, want, err string
	}{
		{"t-1", "t-1", ""},
		{" auditors ", "t-1", ""},
		{"oncall", "", `"oncall" is the name of 2 user tags (ids t-2, t-3); give the id of the one you mean`},
		{"t-9", "", `"t-9" is neither the id nor the name of a user tag of this organization (known: "auditors" (id t-1), "oncall" (id t-2), "oncall" (id t-3))`},
		{"a\x1b[2Jb", "", `"a\u001b[2Jb" is neither`},
	} {
		got, err := ResolveByIDOrName("user tag", known, tc.value)
		if got != tc.want || (err == nil) != (tc.err == "") || (err != nil && !strings.Contains(err.Error(), tc.err)) {
			t.Errorf("%q: got %q, %v; want %q, %q", tc.value, got, err, tc.want, tc.err)
		}
	}
	if _, err := ResolveByIDOrName("user", nil, "bob"); err == nil || !strings.Contains(err.Error(), "no user is known to check it against") {
		t.Errorf("nothing known: %v", err)
	}
}
