package api

import (
	"errors"
	"strings"
	"testing"
	"unicode/utf8"
)

// Whatever a decoder says about a reply (its text may quote the reply), the
// error of an unreadable 2xx is as short as other error excerpts, cut on a
// character, and says it was shortened.
func TestUnreadableReplyErrorIsShortAndSaysSo(t *testing.T) {
	err := unexpectedJSON("query/list_policies", errors.New("json: "+strings.Repeat("é\n", 1<<20)))
	text := err.Error()
	if len(text) > 4*errorExcerptRunes+200 || !utf8.ValidString(text) ||
		!strings.Contains(text, "query/list_policies") || !strings.Contains(text, "(shortened)") || strings.Contains(text, "\n") {
		t.Errorf("%d bytes: want the operation, a short escaped excerpt marked shortened: %.300q", len(text), text)
	}
}
