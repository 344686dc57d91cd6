package policy

import (
	"regexp"
	"regexp/syntax"
)

// constMatch is a constant matches() pattern, compiled once, with what it
// takes to charge a match by its work (BenchmarkMatches measures it).
type constMatch struct {
	re *regexp.Regexp
	// literal: the pattern is a plain string (regexp's LiteralPrefix is
	// complete), found by a substring search as contains() finds one.
	literal bool
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
	_, c.literal = re.LiteralPrefix()
	parsed, err := syntax.Parse(p, syntax.Perl)
	if err != nil {
		return nil, err
	}
	parsed = parsed.Simplify()
	prog, err := syntax.Compile(parsed)
	if err != nil {
		return nil, err
	}
	if runes, ok := maxRunes(parsed); ok && prog.StartCond()&syntax.EmptyBeginText != 0 {
		// The matcher steps a character (up to 4 bytes) at a time, and
		// looks at one past the longest match.
		c.reach = 4 * (runes + 1)
	}
	return c, nil
}

// cost is what matching a string of s bytes costs: a literal is a scan (a
// tenth of a unit per byte, as contains()); another pattern CEL's length
// cost and, when its program is large, its program's size too, over the
// bytes it can read.
func (c *constMatch) cost(s int) uint64 {
	if c.literal {
		return scanCost(s + c.n)
	}
	if c.reach >= 0 {
		s = min(s, c.reach)
	}
	cost := matchLengthCost(s, c.n)
	if c.insts > largeProgram {
		cost = max(cost, matchCost(s, c.insts))
	}
	return cost
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
