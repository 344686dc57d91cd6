package api

import (
	"strings"
	"unicode/utf8"
)

// exprFields are the wire names of the fields that hold a policy expression:
// a policy's condition, consensus and time, an MFA policy's condition.
var exprFields = map[string]bool{"condition": true, "consensus": true, "time": true}

// addText adds the line of a string field, lead being its label, padding and
// a space: text(name, s) is the value shown. A policy expression holding a
// line break is shown a line for each of its lines, each quoted, the later
// ones under the first. Joined on one line with a \n, a `// comment` would
// seem to swallow the code after it (`|| true` on the next line), which the
// engine runs: CEL ends a comment only at a line break.
func (l *intentLister) addText(lead, name, s string, text func(name, s string) string) {
	if !exprFields[name] || !strings.Contains(s, "\n") {
		l.add(lead + text(name, s))
		return
	}
	under := strings.Repeat(" ", utf8.RuneCountInString(lead))
	for i, line := range ExprSourceLines(s) {
		if l.full {
			return
		}
		if i == 0 {
			l.add(lead + Quote(line))
		} else {
			l.add(under + Quote(line))
		}
	}
}
