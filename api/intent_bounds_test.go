package api

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

func decodeIntent(t *testing.T, raw string) Intent {
	t.Helper()
	var in Intent
	if err := json.Unmarshal([]byte(raw), &in); err != nil {
		t.Fatal(err)
	}
	return in
}

func shownBytes(lines []string) int {
	n := 0
	for _, l := range lines {
		n += len(l)
	}
	return n
}

// Two operations in one intent: each is shown under its own key after a
// warning, the lines are not the intent whole, and no caller of Params is
// handed one of the two as if it were all.
func TestIntentWithTwoOperationsShowsEachAfterAWarning(t *testing.T) {
	in := decodeIntent(t, `{"createUserTagIntent":{"userTagName":"harmless","userIds":[]},"deleteApiKeysIntent":{"userId":"u-alice","apiKeyIds":["k-root"]},"deleteUsersIntent":{"userIds":["u-bob"]}}`)
	shown := ShowIntent(in, nil)
	all := strings.Join(shown.Lines, "\n")
	for _, want := range []string{"createUserTagIntent:", "harmless", "deleteApiKeysIntent:", "k-root", "deleteUsersIntent:", "u-bob"} {
		if !strings.Contains(all, want) {
			t.Errorf("the lines lack %q:\n%s", want, all)
		}
	}
	if len(shown.Lines) == 0 || !strings.Contains(shown.Lines[0], "3 operations") {
		t.Errorf("the lines do not start with a warning about the operations:\n%s", all)
	}
	if len(shown.Doubts) == 0 {
		t.Errorf("an intent of three operations counts as shown whole")
	}
	if typ, params := in.Params(); params != nil {
		t.Errorf("Params hands out one of three operations: %s %+v", typ, params)
	}
	if got := in.Keys(); len(got) != 3 {
		t.Errorf("Keys: %v", got)
	}
}

// An 18 kB intent nested 9,000 deep is shown to a bounded depth, says so,
// and is not the whole intent; its text stays in proportion to its size.
func TestIntentLinesOfADeeplyNestedIntentAreBounded(t *testing.T) {
	depth := 9000
	raw := `{"unknownOp":` + strings.Repeat("[", depth) + strings.Repeat("]", depth) + `}`
	shown := ShowIntent(decodeIntent(t, raw), nil)
	if n := shownBytes(shown.Lines); n > 100*len(raw) {
		t.Errorf("%d bytes of text for a %d-byte intent", n, len(raw))
	}
	if len(shown.Lines) > 2*maxShownDepth+4 {
		t.Errorf("%d lines for an intent nested deeper than %d levels", len(shown.Lines), maxShownDepth)
	}
	if !strings.Contains(strings.Join(shown.Lines, "\n"), "nested deeper than") || len(shown.Doubts) == 0 {
		t.Errorf("the cut is not said: doubts %v, last line %q", shown.Doubts, shown.Lines[len(shown.Lines)-1])
	}
}

// One very long key among many short ones: the siblings are not padded to
// its width, and the key is shortened visibly.
func TestIntentLinesOfALongKeyAreBounded(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"unknownOp":{"` + strings.Repeat("k", 20000) + `":0`)
	for i := range 2000 {
		b.WriteString(`,"a` + string(rune('a'+i%26)) + strings.Repeat("b", i/26) + `":0`)
	}
	b.WriteString(`}}`)
	raw := b.String()
	shown := ShowIntent(decodeIntent(t, raw), nil)
	if n := shownBytes(shown.Lines); n > 2*len(raw) {
		t.Errorf("%d bytes of text for a %d-byte intent", n, len(raw))
	}
	if len(shown.Doubts) == 0 || !slices.ContainsFunc(shown.Lines, func(l string) bool { return strings.Contains(l, "(20000 characters)") }) {
		t.Errorf("the shortened key is not said: doubts %v", shown.Doubts)
	}
}

// An intent of more lines than are shown ends with a line saying the rest
// is cut, and is not the whole intent.
func TestIntentLinesOfAHugeIntentAreCutVisibly(t *testing.T) {
	ids := make([]string, 3*maxShownLines)
	for i := range ids {
		ids[i] = `"k` + strings.Repeat("x", i%7) + `"`
	}
	shown := ShowIntent(decodeIntent(t, `{"deleteApiKeysIntent":{"userId":"u1","apiKeyIds":[`+strings.Join(ids, ",")+`]}}`), nil)
	if len(shown.Lines) > maxShownLines {
		t.Errorf("%d lines shown", len(shown.Lines))
	}
	if last := shown.Lines[len(shown.Lines)-1]; !strings.Contains(last, "cut") || len(shown.Doubts) == 0 {
		t.Errorf("the cut is not said: doubts %v, last line %q", shown.Doubts, last)
	}
}

// A decisive value longer than a line may be is cut with a mark, never
// silently, and the intent is then not shown whole.
func TestIntentLinesCutALongLineVisibly(t *testing.T) {
	long := strings.Repeat("a", 2*maxLineBytes)
	shown := ShowIntent(decodeIntent(t, `{"unknownOp":{"address":"`+long+`"}}`), nil)
	line := strings.Join(shown.Lines, "\n")
	if len(line) > maxLineBytes+200 || !strings.Contains(line, "cut") || len(shown.Doubts) == 0 {
		t.Errorf("a %d-byte value: %d bytes shown, doubts %v", len(long), len(line), shown.Doubts)
	}
}
