package policy

import (
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
)

// A user's name where the id is compared: with == the comparison never
// matches, with != it is always true (the consensus admits anyone), and
// under a `!` the warning does not claim either (audit 214, M2).
func TestNameWarningFollowsTheComparison(t *testing.T) {
	const aliceID = "01a22af5-0000-7000-8000-0000000000aa"
	users := map[string]string{aliceID: "alice"}
	for _, tc := range []struct {
		consensus    string
		want, refuse []string
		metByAlice   bool // alice (by id) alone approving meets it
	}{
		{"approvers.any(u, u.id == 'alice')", []string{"so it never matches", "write '" + aliceID + "'"}, []string{"always"}, false},
		{"approvers.all(u, u.id != 'alice')", []string{"always true", "excludes no one", "write '" + aliceID + "'"}, []string{"never"}, true},
		{"approvers.any(u, u.id == 'bob') || approvers.all(u, 'alice' != u.id)", []string{"always true"}, []string{"never"}, true},
		{"!approvers.any(u, u.id == 'alice')", []string{"a user's id is compared here, not a name", "write '" + aliceID + "'"}, []string{"never", "always"}, true},
		{"approvers.all(u, !(u.id in ['alice']))", []string{"not a name"}, []string{"never", "always"}, true},
	} {
		c, err := Compile("true", tc.consensus)
		if err != nil {
			t.Fatal(err)
		}
		_, met, err := c.Evaluate(Input{Activity: ActivityFor(api.TypeDeleteAPIKeys, nil), Approvers: []Approver{{ID: aliceID, Name: "alice"}}})
		if err != nil || met != tc.metByAlice {
			t.Fatalf("%s: met by alice alone %v (%v), the test expects %v", tc.consensus, met, err, tc.metByAlice)
		}
		refs := IDRefs(tc.consensus, nil, users)
		if len(refs) != 1 || !refs[0].Warns() {
			t.Errorf("%s: refs %v, want one warning", tc.consensus, refs)
			continue
		}
		s := refs[0].String()
		for _, w := range tc.want {
			if !strings.Contains(s, w) {
				t.Errorf("%s: %q lacks %q", tc.consensus, s, w)
			}
		}
		for _, w := range tc.refuse {
			if strings.Contains(s, w) {
				t.Errorf("%s: %q claims %q", tc.consensus, s, w)
			}
		}
	}
}

// A name two tags share: the warning names both and says the name is
// ambiguous, rather than advising one of the ids; past a few, it counts
// (audit 214, L2).
func TestNameWarningNamesEveryTagWithTheName(t *testing.T) {
	tags := map[string]string{
		"01a22af5-0000-7000-8000-000000000001": "ops",
		"01a22af5-0000-7000-8000-000000000002": "ops",
		"01a22af5-0000-7000-8000-000000000003": "dev",
	}
	refs := IDRefs("approvers.any(u, u.tags.contains('ops'))", tags, nil)
	if len(refs) != 1 {
		t.Fatalf("refs: %v", refs)
	}
	s := refs[0].String()
	for _, w := range []string{"2 tags (the name is ambiguous)", "000000000001", "000000000002", "write the id of the one meant"} {
		if !strings.Contains(s, w) {
			t.Errorf("%q lacks %q", s, w)
		}
	}
	if strings.Contains(s, "write '") || strings.Contains(s, "000000000003") {
		t.Errorf("%q advises one id, or names another tag", s)
	}
	for i := 4; i <= 6; i++ {
		tags["01a22af5-0000-7000-8000-00000000000"+string(rune('0'+i))] = "ops"
	}
	s = IDRefs("approvers.any(u, u.tags.contains('ops'))", tags, nil)[0].String()
	if !strings.Contains(s, "5 tags") || !strings.Contains(s, "and 2 more") || strings.Contains(s, "000000000006") {
		t.Errorf("five tags named ops: %q, want three ids and a count", s)
	}
}
