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

// TestResolveUserTagWhenNotEveryTagWasRead: with every tag read, a tag is
// its id or the name of exactly one; with only the newest read, an unknown
// id-shaped value is sent as given and a name found is taken, each with a
// warning, and an unknown name is refused, asking for the id.
func TestResolveUserTagWhenNotEveryTagWasRead(t *testing.T) {
	const ops, older = "01a20a2b-0000-7000-8000-000000000001", "01a20a2b-0000-7000-8000-000000000099"
	names := map[string]string{ops: "ops"}
	for _, tc := range []struct {
		value    string
		complete bool
		id       string
		warning  string // a part of it; "" for none
		err      string // a part of it; "" for none
	}{
		{"ops", true, ops, "", ""},
		{" " + ops + " ", true, ops, "", ""},
		{older, true, "", "", "is neither the id nor the name of a user tag"},
		{"ops", false, ops, `user tag "ops" resolved among the 1 newest tags read (` + ops + `); an older tag of the same name was not looked for`, ""},
		{ops, false, ops, "", ""},
		{older, false, older, "user tag " + older + " is not among the 1 newest tags read; it is sent as the id given", ""},
		{"auditors", false, "", "", `"auditors" is not among the 1 newest user tags read (the organization has more than are read); give the tag's id`},
		{"01a20a2b-0000-7000-8000-00000000009", false, "", "", "give the tag's id"}, // one digit short: not an id
	} {
		id, warning, err := ResolveUserTag(names, tc.complete, tc.value)
		if id != tc.id || !strings.Contains(warning, tc.warning) || (tc.warning == "") != (warning == "") {
			t.Errorf("%q (complete %v): id %q warning %q, want %q and %q", tc.value, tc.complete, id, warning, tc.id, tc.warning)
		}
		if (err == nil) != (tc.err == "") || err != nil && !strings.Contains(err.Error(), tc.err) {
			t.Errorf("%q (complete %v): error %v, want %q", tc.value, tc.complete, err, tc.err)
		}
	}
}
