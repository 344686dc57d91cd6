package policy

import (
	"slices"
	"strings"
	"unicode"

	"github.com/vigil-console/vigil/api"
)

// TokenKind is what a piece of an expression is, for highlighting.
type TokenKind int

// Token kinds. Space and anything the scanner does not recognise are Plain.
const (
	TokenPlain    TokenKind = iota
	TokenKeyword            // a keyword of the language (activity, approvers, eth…), in, true, false, null
	TokenString             // a string literal, quotes included
	TokenNumber             // a number literal
	TokenIdent              // a field or function name, a macro variable
	TokenOperator           // && || == != < <= > >= ! + - * / % ? : ..
	TokenComment            // a `//` comment, to the end of its line
)

// Token is one piece of an expression: the pieces of Tokens concatenate to the
// source, unchanged.
type Token struct {
	Kind TokenKind
	Text string
}

var literalKeywords = []string{"in", "true", "false", "null"}

func isKeyword(word string) bool {
	return slices.Contains(conditionVars, word) || slices.Contains(consensusVars, word) ||
		slices.Contains(timeVars, word) || slices.Contains(literalKeywords, word)
}

// Tokens splits an expression into tokens for highlighting. It never fails:
// an unterminated string runs to the end, an unknown character is Plain.
func Tokens(src string) []Token {
	var out []Token
	rs := []rune(src)
	emit := func(kind TokenKind, from, to int) {
		if n := len(out); n > 0 && out[n-1].Kind == kind && kind == TokenPlain {
			out[n-1].Text += string(rs[from:to])
			return
		}
		out = append(out, Token{Kind: kind, Text: string(rs[from:to])})
	}
	for i := 0; i < len(rs); {
		r := rs[i]
		j := i + 1
		switch {
		case r == '\'' || r == '"':
			j = api.ExprStringEnd(rs, i, false)
			emit(TokenString, i, j)
		case unicode.IsDigit(r):
			for j < len(rs) && (unicode.IsDigit(rs[j]) || unicode.IsLetter(rs[j]) ||
				(rs[j] == '.' && j+1 < len(rs) && unicode.IsDigit(rs[j+1]))) {
				j++
			}
			emit(TokenNumber, i, j)
		case unicode.IsLetter(r) || r == '_':
			for j < len(rs) && (unicode.IsLetter(rs[j]) || unicode.IsDigit(rs[j]) || rs[j] == '_') {
				j++
			}
			word := string(rs[i:j])
			// r'…', b"…", br'…': a string with a prefix; in a raw one a
			// backslash is itself, so r'\' ends at its second quote.
			if j < len(rs) && (rs[j] == '\'' || rs[j] == '"') && slices.Contains(stringPrefixes, strings.ToLower(word)) {
				j = api.ExprStringEnd(rs, j, strings.ContainsAny(word, "rR"))
				emit(TokenString, i, j)
				break
			}
			// A keyword after a dot is a field (activity.params.eth), not the keyword.
			prevDot := i > 0 && rs[i-1] == '.'
			if isKeyword(word) && !prevDot {
				emit(TokenKeyword, i, j)
			} else {
				emit(TokenIdent, i, j)
			}
		case r == '/' && j < len(rs) && rs[j] == '/':
			for j < len(rs) && rs[j] != '\n' {
				j++
			}
			emit(TokenComment, i, j)
		case strings.ContainsRune("&|=!<>+-*/%?:", r):
			for j < len(rs) && strings.ContainsRune("&|=<>", rs[j]) && j-i < 2 {
				j++
			}
			emit(TokenOperator, i, j)
		case r == '.' && i+1 < len(rs) && rs[i+1] == '.':
			j = i + 2
			emit(TokenOperator, i, j)
		default:
			emit(TokenPlain, i, j)
		}
		i = j
	}
	return out
}

// stringPrefixes are the prefixes of a string literal (lowercase): raw,
// bytes, raw bytes.
var stringPrefixes = []string{"r", "b", "br"}
