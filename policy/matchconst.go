package policy

import (
	"regexp"
	"regexp/syntax"
	"strings"
	"unicode/utf8"
)

// constMatch is a constant matches() pattern, compiled once, with what it
// takes to charge a match by its work (BenchmarkMatches measures it).
type constMatch struct {
	re *regexp.Regexp
	// literal: the pattern is a plain string (regexp's LiteralPrefix is
	// complete), matched by a substring search as contains() does (prefix:
	// anchored at the start, by a prefix test). Not by re: Go's regexp runs
	// its NFA whenever a thread is live, and a literal that overlaps itself
	// (a{95}b on a string of a's) keeps ~95 of them live on every byte.
	literal, prefix bool
	text            string
	// n is the pattern's length, insts its compiled program's size.
	n, insts int
	// reach is how many bytes of the string a match can read at most, or -1
	// for all of them: a pattern anchored at the start of the text (^, \A)
	// whose matches have a bounded length stops once no match can continue
	// (^[a-z0-9-]{1,64}$ reads at most 65 characters of a 1 MiB string).
	reach int
}

func newConstMatch(p string) (*constMatch, error) {
	re, insts, err := compilePattern(p)
	if err != nil {
		return nil, err
	}
	c := &constMatch{re: re, n: len(p), insts: insts, reach: -1}
	parsed, err := syntax.Parse(p, syntax.Perl)
	if err != nil {
		return nil, err
	}
	parsed = parsed.Simplify()
	prog, err := syntax.Compile(parsed)
	if err != nil {
		return nil, err
	}
	anchored := prog.StartCond()&syntax.EmptyBeginText != 0
	// A literal holding U+FFFD is left to re, which also reads a byte that
	// is not UTF-8 as U+FFFD: a substring search would not.
	if text, complete := re.LiteralPrefix(); complete && !strings.ContainsRune(text, utf8.RuneError) {
		c.literal, c.prefix, c.text = true, anchored, text
	}
	if runes, ok := maxRunes(parsed); ok && anchored {
		// The matcher steps a character (up to 4 bytes) at a time, and
		// looks at one past the longest match.
		c.reach = 4 * (runes + 1)
	}
	return c, nil
}

// match is whether s matches the pattern, as regexp's MatchString says.
func (c *constMatch) match(s string) bool {
	switch {
	case c.literal && c.prefix:
		return strings.HasPrefix(s, c.text)
	case c.literal:
		return strings.Contains(s, c.text)
	}
	return c.re.MatchString(s)
}

// cost is what matching a string of s bytes costs: a literal is a scan (a
// tenth of a unit per byte, as contains()); another pattern is charged by
// the bytes it can read times its program's size (RE2's NFA can keep a
// thread live for each instruction on every byte: \pL{90}! is 8
// characters and 93 instructions), and at least CEL's length cost.
func (c *constMatch) cost(s int) uint64 {
	if c.literal {
		return scanCost(s + c.n)
	}
	if c.reach >= 0 {
		s = min(s, c.reach)
	}
	return max(matchLengthCost(s, c.n), matchCost(s, c.insts))
}

// maxRunes is the most characters a match of re (simplified: no OpRepeat)
// can span; ok is false when that is unbounded (* or +).
func maxRunes(re *syntax.Regexp) (n int, ok bool) {
	const huge = 1 << 40 // beyond any string: the bound is then useless, not wrong
	switch re.Op {
	case syntax.OpLiteral:
		return len(re.Rune), true
	case syntax.OpCharClass, syntax.OpAnyChar, syntax.OpAnyCharNotNL:
		return 1, true
	case syntax.OpStar, syntax.OpPlus, syntax.OpRepeat:
		return 0, false
	case syntax.OpCapture, syntax.OpQuest:
		return maxRunes(re.Sub[0])
	case syntax.OpConcat, syntax.OpAlternate:
		for _, sub := range re.Sub {
			m, ok := maxRunes(sub)
			if !ok {
				return 0, false
			}
			if re.Op == syntax.OpConcat {
				n = min(n+m, huge)
			} else {
				n = max(n, m)
			}
		}
		return n, true
	case syntax.OpNoMatch, syntax.OpEmptyMatch, syntax.OpBeginLine, syntax.OpEndLine,
		syntax.OpBeginText, syntax.OpEndText, syntax.OpWordBoundary, syntax.OpNoWordBoundary:
		return 0, true
	}
	return 0, false // an operator not known here: no bound claimed
}
