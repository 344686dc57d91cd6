package api

import (
	"strings"
	"testing"
)

// A field sent twice inside an operation vigil shows field by field (two
// "amount"s) is one field with two values: the service acts on one of them,
// the voter may read the other. It is marked, and is a doubt, so approving
// needs --yes (the console's y), as a key sent twice at the top is refused.
func TestGenericIntentLinesDoubtAFieldSentTwice(t *testing.T) {
	in := unknownIntent(t, `{"signTransactionIntentV2":{"signWith":"0xabc","amount":"1","to":"0x1111111111111111111111111111111111111111","amount":"1000000000000000000000"}}`)
	shown := ShowIntent(in, nil)
	text := strings.Join(shown.Lines, "\n")
	if len(shown.Doubts) == 0 || !strings.Contains(text, "WARNING: amount (above) is sent twice") {
		t.Errorf("a field sent twice is not marked (doubts %v):\n%s", shown.Doubts, text)
	}
	once := ShowIntent(unknownIntent(t, `{"signTransactionIntentV2":{"amount":"1","inner":{"amount":"2"}}}`), nil)
	if len(once.Doubts) != 0 || strings.Contains(strings.Join(once.Lines, "\n"), "twice") {
		t.Errorf("the same name in two objects is taken for a field sent twice: %v\n%s", once.Doubts, strings.Join(once.Lines, "\n"))
	}
}
