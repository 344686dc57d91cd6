package policy

import (
	"strings"
	"testing"
)

// A policy's text can be printable ASCII and still decode, through a string
// literal's escapes, to control characters: every message that quotes such a
// literal must show it escaped, or printing the message (policy check, the
// console's editor) would put a real escape sequence on the user's terminal.
func TestMessagesQuotingLiteralsHoldNoControlCharacters(t *testing.T) {
	const osc = `\x1b]0;pwned\x07`
	long := strings.Repeat("a", 5000)
	for _, src := range []Source{
		{Condition: `activity.params['X` + osc + `'] == 1`},
		{Condition: `activity.params['` + osc + `'] == 1`},
		{Time: `time.now > Timestamp('` + osc + `')`},
		{Time: `time.now > Timestamp('2025-01-01T00:00:00+01:00` + osc + `')`},
		{Time: `CronSpan('` + osc + `', '8h', 'UTC')`},
		{Time: `CronSpan('0` + osc + ` 9 * * 1-5', '8h', 'UTC')`},
		{Time: `CronSpan('0 9 * * 1-5', '8h` + osc + `', 'UTC')`},
		{Time: `CronSpan('0 9 * * 1-5', '8h', 'Europe/` + osc + `')`},
		{Time: `time.now > Timestamp('` + long + `')`},
	} {
		var msgs []string
		for _, d := range CheckSource(src) {
			msgs = append(msgs, d.String())
		}
		for _, w := range Warnings(src) {
			msgs = append(msgs, w.String())
		}
		if len(msgs) == 0 {
			t.Errorf("%+v: no message at all; the test no longer reaches the message it checks", src)
		}
		for _, m := range msgs {
			if strings.ContainsFunc(m, func(r rune) bool { return r < 0x20 || r == 0x7f }) {
				t.Errorf("%+v: the message holds a raw control character: %q", src, m)
			}
			if len(m) > 1000 {
				t.Errorf("%+v: the message quotes the literal whole (%d bytes)", src, len(m))
			}
		}
	}
}
