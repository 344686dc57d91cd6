package policy

import (
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
)

// A list literal (or a map literal's keys) mixing kinds is a type error on
// the real service, whose `in` is (T, list<T>): a submission is refused at
// the first element of another kind, naming both kinds. Numbers of any
// width are one kind, and null goes with anything.
func TestMixedListLiteralRefused(t *testing.T) {
	for cond, at := range map[string]string{
		"activity.action in ['DELETE', 1]":     "1]",
		"activity.action in [1, 'DELETE']":     "'DELETE'",
		"activity.action in {'a': 1, 2: 2}":    "2: 2",
		"wallets.any(w, w.id in ['w1', true])": "true",
	} {
		_, err := Compile(cond, "")
		var e *ExprError
		if !asExprError(err, &e) || !strings.Contains(e.Message, "strongly typed") {
			t.Errorf("%s: %v; want it refused as a type error", cond, err)
			continue
		}
		if want := strings.Index(cond, at) + 1; e.Column != want {
			t.Errorf("%s: refused at column %d, want %d (the odd element): %s", cond, e.Column, want, e.Message)
		}
	}
	for _, cond := range []string{"activity.action in ['DELETE', null]", "1 in [1, 2u, 3.5]", "activity.action in [activity.params.user_id, 'x']"} {
		if _, err := Compile(cond, ""); err != nil {
			t.Errorf("%s: %v; want it accepted", cond, err)
		}
	}
}

// A mixed list stored before submissions refused one is an evaluation error
// whichever order its elements are in: `in` compares every element, not
// only those before a match.
func TestMixedStoredListIsAnErrorInEveryOrder(t *testing.T) {
	in := Input{Activity: ActivityFor(api.TypeDeleteAPIKeys, map[string]any{"userId": "u1", "apiKeyIds": []any{"k1"}})}
	for _, cond := range []string{"activity.action in ['DELETE', 1]", "activity.action in [1, 'DELETE']",
		"[activity.action, 1].contains('DELETE')"} {
		c, err := CompileStored(Source{Condition: cond})
		if err != nil {
			t.Fatal(err)
		}
		if r, err := c.Run(in); err == nil {
			t.Errorf("%s: %v with no error; want the evaluation error of comparing a string with an int", cond, r.Condition)
		}
	}
}
