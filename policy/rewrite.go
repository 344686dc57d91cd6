package policy

import (
	"fmt"
	"math/big"
	"strings"
)

// The service's language has a few constructs CEL's parser does not know:
// slices (`x[0..10]`), indexing of strings (`'abc'[0]`), integers beyond 64
// bits (int is i128 and uint u256 there), `list.count` without parentheses
// (used by the documentation's own examples), and CronSpan, which reads the
// evaluation's clock. rewrite turns them into calls of hidden functions
// before CEL parses the text, and keeps, for every character of the result,
// the position of the character it came from, so that every error still
// points into the text the user wrote.
//
//	x[i]          → x._vindex(i)       (lists, strings and maps alike)
//	x[a..b]       → x._vslice(a, b)
//	x.count       → x._vcount()        (not followed by '(')
//	2^127         → _vnum('170141183460469231731687303715884105728')
//	CronSpan(…)   → CronSpan(_vnow, …)
const (
	fnIndex    = "_vindex"
	fnSlice    = "_vslice"
	fnCount    = "_vcount"
	fnNumber   = "_vnum"
	varNow     = "_vnow"
	fnCronSpan = "CronSpan"
	fnTimestmp = "Timestamp"
)

// maxUint256 is the largest integer literal the language accepts.
var maxUint256 = new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 256), big.NewInt(1))

type tokenKind int

const (
	tokOther tokenKind = iota
	tokIdent
	tokNumber
	tokString
	tokRange // ..
)

type token struct {
	kind       tokenKind
	start, end int // rune offsets in the source, end exclusive
	text       string
}

// rewritten is the text CEL parses, with the original position of each rune.
type rewritten struct {
	text   string
	origin []int // origin[i] is the rune offset in the source of rune i of text
}

// rewriteError is a problem found while rewriting, at a rune offset of the source.
type rewriteError struct {
	offset  int
	message string
}

// tokenize splits src into tokens, skipping blanks and comments. It never
// fails: an unterminated string runs to the end, and CEL reports it.
func tokenize(rs []rune) []token {
	var out []token
	isIdentStart := func(r rune) bool { return r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' }
	isDigit := func(r rune) bool { return r >= '0' && r <= '9' }
	isHex := func(r rune) bool { return isDigit(r) || r >= 'a' && r <= 'f' || r >= 'A' && r <= 'F' }
	for i := 0; i < len(rs); {
		r := rs[i]
		switch {
		case r == ' ' || r == '\t' || r == '\n' || r == '\r' || r == '\f' || r == '\v':
			i++
		case r == '/' && i+1 < len(rs) && rs[i+1] == '/':
			for i < len(rs) && rs[i] != '\n' {
				i++
			}
		case isIdentStart(r):
			j := i
			for j < len(rs) && (isIdentStart(rs[j]) || isDigit(rs[j])) {
				j++
			}
			// A string prefix: r'…', b'…', rb'…', br'…'.
			if j < len(rs) && (rs[j] == '\'' || rs[j] == '"') && j-i <= 2 && strings.Trim(strings.ToLower(string(rs[i:j])), "rb") == "" {
				end := skipString(rs, j, strings.ContainsAny(string(rs[i:j]), "rR"))
				out = append(out, token{tokString, i, end, string(rs[i:end])})
				i = end
				continue
			}
			out = append(out, token{tokIdent, i, j, string(rs[i:j])})
			i = j
		case isDigit(r) || r == '.' && i+1 < len(rs) && isDigit(rs[i+1]) && (i == 0 || rs[i-1] != '.'):
			j := i
			if r == '0' && i+1 < len(rs) && (rs[i+1] == 'x' || rs[i+1] == 'X') {
				j += 2
				for j < len(rs) && isHex(rs[j]) {
					j++
				}
			} else {
				for j < len(rs) && isDigit(rs[j]) {
					j++
				}
				if j+1 < len(rs) && rs[j] == '.' && isDigit(rs[j+1]) {
					j++
					for j < len(rs) && isDigit(rs[j]) {
						j++
					}
				}
				if j < len(rs) && (rs[j] == 'e' || rs[j] == 'E') {
					k := j + 1
					if k < len(rs) && (rs[k] == '+' || rs[k] == '-') {
						k++
					}
					if k < len(rs) && isDigit(rs[k]) {
						for j = k; j < len(rs) && isDigit(rs[j]); j++ {
						}
					}
				}
			}
			if j < len(rs) && (rs[j] == 'u' || rs[j] == 'U') {
				j++
			}
			out = append(out, token{tokNumber, i, j, string(rs[i:j])})
			i = j
		case r == '\'' || r == '"':
			end := skipString(rs, i, false)
			out = append(out, token{tokString, i, end, string(rs[i:end])})
			i = end
		case r == '.' && i+1 < len(rs) && rs[i+1] == '.':
			out = append(out, token{tokRange, i, i + 2, ".."})
			i += 2
		default:
			out = append(out, token{tokOther, i, i + 1, string(r)})
			i++
		}
	}
	return out
}

// skipString returns the offset just past the string literal starting at the
// quote rs[i] (single, double or triple quoted).
func skipString(rs []rune, i int, raw bool) int {
	q := rs[i]
	triple := i+2 < len(rs) && rs[i+1] == q && rs[i+2] == q
	if triple {
		i += 3
	} else {
		i++
	}
	for i < len(rs) {
		switch {
		case rs[i] == '\\' && !raw:
			i += 2
		case !triple && rs[i] == '\n':
			return i
		case rs[i] == q && !triple:
			return i + 1
		case rs[i] == q && triple && i+2 < len(rs) && rs[i+1] == q && rs[i+2] == q:
			return i + 3
		default:
			i++
		}
	}
	return len(rs)
}

// postfixAfter reports whether a '[' after tok indexes the value tok ends
// (rather than opening a list literal).
func postfixAfter(tok token) bool {
	switch tok.kind {
	case tokIdent:
		return tok.text != "in"
	case tokNumber, tokString:
		return true
	case tokOther:
		return tok.text == ")" || tok.text == "]" || tok.text == "}"
	}
	return false
}

// rewrite translates src into the CEL text of the package's dialect.
func rewrite(src string) (rewritten, []rewriteError) {
	rs := []rune(src)
	toks := tokenize(rs)
	var errs []rewriteError

	// Match brackets; remember, for each postfix '[', its ']' and its '..'.
	type frame struct {
		open    int // token index
		postfix bool
		rng     int // token index of '..', or -1
	}
	closeOf := map[int]int{} // '[' token → ']' token
	rangeOf := map[int]int{} // '[' token → '..' token
	slicing := map[int]bool{}
	var stack []frame
	for i, t := range toks {
		switch {
		case t.kind == tokOther && (t.text == "(" || t.text == "[" || t.text == "{"):
			stack = append(stack, frame{open: i, postfix: t.text == "[" && i > 0 && postfixAfter(toks[i-1]), rng: -1})
		case t.kind == tokOther && (t.text == ")" || t.text == "]" || t.text == "}"):
			if len(stack) == 0 {
				continue // CEL reports it
			}
			f := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if toks[f.open].text == "[" && t.text == "]" && f.postfix {
				closeOf[f.open] = i
				if f.rng >= 0 {
					rangeOf[f.open] = f.rng
					slicing[f.rng] = true
					if f.rng == f.open+1 || f.rng == i-1 {
						errs = append(errs, rewriteError{toks[f.rng].start, "a slice needs a start and an end: x[start..end]"})
					}
				}
			}
		case t.kind == tokRange:
			if len(stack) > 0 && stack[len(stack)-1].postfix && stack[len(stack)-1].rng < 0 {
				stack[len(stack)-1].rng = i
			}
		}
	}

	var b strings.Builder
	out := rewritten{origin: make([]int, 0, len(rs)+16)}
	emit := func(s string, at int) {
		b.WriteString(s)
		for range []rune(s) {
			out.origin = append(out.origin, at)
		}
	}
	copyRunes := func(from, to int) {
		for k := from; k < to; k++ {
			b.WriteRune(rs[k])
			out.origin = append(out.origin, k)
		}
	}
	closing := map[int]bool{}
	for _, c := range closeOf {
		closing[c] = true
	}
	pos := 0
	for i, t := range toks {
		copyRunes(pos, t.start) // blanks and comments
		pos = t.end
		switch {
		case t.kind == tokOther && t.text == "[":
			if _, ok := closeOf[i]; !ok {
				copyRunes(t.start, t.end)
				break
			}
			fn := fnIndex
			if _, ok := rangeOf[i]; ok {
				fn = fnSlice
			}
			emit("."+fn+"(", t.start)
		case closing[i]:
			emit(")", t.start)
		case t.kind == tokRange:
			if !slicing[i] {
				errs = append(errs, rewriteError{t.start, "'..' only appears in a slice: x[start..end]"})
				copyRunes(t.start, t.end)
				break
			}
			emit(", ", t.start)
		case t.kind == tokIdent && t.text == "count" && i > 0 && toks[i-1].text == "." &&
			(i+1 == len(toks) || toks[i+1].text != "("):
			emit(fnCount+"()", t.start)
		case t.kind == tokIdent && t.text == fnCronSpan && i+1 < len(toks) && toks[i+1].text == "(" &&
			(i == 0 || toks[i-1].text != "."):
			copyRunes(t.start, t.end)
			copyRunes(toks[i+1].start, toks[i+1].end)
			sep := ", "
			if i+2 < len(toks) && toks[i+2].text == ")" {
				sep = ""
			}
			emit(varNow+sep, toks[i+1].start)
			pos = toks[i+1].end
			toks[i+1].kind = tokOther
			toks[i+1].text = "" // consumed
			toks[i+1].start, toks[i+1].end = pos, pos
		case t.kind == tokNumber:
			lit, msg := bigLiteral(t.text)
			switch {
			case msg != "":
				errs = append(errs, rewriteError{t.start, msg})
				copyRunes(t.start, t.end)
			case lit != "":
				emit(fnNumber+"('"+lit+"')", t.start)
			default:
				copyRunes(t.start, t.end)
			}
		default:
			copyRunes(t.start, t.end)
		}
	}
	copyRunes(pos, len(rs))
	out.text = b.String()
	return out, errs
}

// bigLiteral returns the decimal digits of an integer literal too large for
// a 64-bit int (which CEL's parser refuses), or a message when it is larger
// than the language's largest number (u256). Other literals give "".
func bigLiteral(text string) (digits, msg string) {
	t := strings.TrimRight(text, "uU")
	base := 10
	if strings.HasPrefix(t, "0x") || strings.HasPrefix(t, "0X") {
		t, base = t[2:], 16
	}
	n, ok := new(big.Int).SetString(t, base)
	if !ok {
		return "", "" // a double, or malformed: CEL judges it
	}
	if n.IsInt64() {
		return "", ""
	}
	if n.Cmp(maxUint256) > 0 {
		return "", fmt.Sprintf("the number %s is larger than the largest number of the language (2^256 - 1)", abbreviate(text))
	}
	return n.String(), ""
}

func abbreviate(s string) string {
	if len(s) > 24 {
		return s[:10] + "…" + s[len(s)-10:]
	}
	return s
}

// position converts a rune offset of the source to a 1-based line and column.
func sourcePosition(src string, offset int) (line, col int) {
	line, col = 1, 1
	i := 0
	for _, r := range src {
		if i >= offset {
			break
		}
		if r == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
		i++
	}
	return line, col
}

// originalPosition maps a 1-based line and column of the rewritten text to
// the line and column of the source.
func (w rewritten) originalPosition(src string, line, col int) (int, int) {
	offset, l, c := 0, 1, 1
	for _, r := range w.text {
		if l == line && c == col || l > line {
			break
		}
		if r == '\n' {
			l, c = l+1, 1
		} else {
			c++
		}
		offset++
	}
	if offset < len(w.origin) {
		return sourcePosition(src, w.origin[offset])
	}
	return sourcePosition(src, len([]rune(src)))
}
