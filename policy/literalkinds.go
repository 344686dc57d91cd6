package policy

import (
	"fmt"

	"cel.dev/cel-go/common/ast"
	"cel.dev/cel-go/common/overloads"
	celtypes "cel.dev/cel-go/common/types"
)

// The real service's language types a list as list<T> and `in` as
// (T, list<T>): a list literal mixing kinds (`['DELETE', 1]`) is a type
// error there. CEL's checker calls it list(dyn) and lets it through, and
// membership in it would depend on what the list holds. A submitted policy
// writes every element of a list literal, and every key of a map literal,
// with one kind (numbers of any width count as one, null goes with
// anything); listHas refuses a mixed list at evaluation for what was stored.

// mixedLiterals reports, at the element, each list literal element and map
// literal key whose kind differs from the first one's, as the checker sees
// them (a value read from the activity, dyn, is not judged here).
func mixedLiterals(checked *ast.AST, report func(id int64, msg string)) {
	kind := func(e ast.Expr) (string, string) {
		t := checked.GetType(e.ID())
		if t == nil {
			return "", ""
		}
		switch t.Kind() {
		case celtypes.IntKind, celtypes.UintKind, celtypes.DoubleKind:
			return "number", t.String()
		case celtypes.DynKind, celtypes.AnyKind, celtypes.TypeParamKind, celtypes.NullTypeKind,
			celtypes.ErrorKind, celtypes.UnknownKind, celtypes.UnspecifiedKind:
			return "", ""
		case celtypes.ListKind:
			return "list", "list"
		case celtypes.MapKind:
			return "map", "map"
		}
		return t.String(), t.String()
	}
	check := func(what, whole string, items []ast.Expr) {
		first, firstShown := "", ""
		for _, it := range items {
			k, shown := kind(it)
			switch {
			case k == "":
			case first == "":
				first, firstShown = k, shown
			case k != first:
				report(it.ID(), fmt.Sprintf("this %s is %s, but the %s's first %s is %s: the policy language is strongly typed, "+
					"so the %ss of a %s are of one type (the real service refuses the policy); write every %s as %s",
					what, kindArticle(friendlyType(shown)), whole, what, kindArticle(friendlyType(firstShown)),
					what, whole, what, kindArticle(friendlyType(firstShown))))
				return // one report a literal
			}
		}
	}
	ast.PostOrderVisit(checked.Expr(), ast.NewExprVisitor(func(e ast.Expr) {
		switch e.Kind() {
		case ast.ListKind:
			check("element", "list", e.AsList().Elements())
		case ast.MapKind:
			var keys []ast.Expr
			for _, en := range e.AsMap().Entries() {
				keys = append(keys, en.AsMapEntry().Key())
			}
			check("key", "map", keys)
		}
	}))
}

// dynamicPatterns reports each matches() whose pattern is not a string
// literal: matching costs the string's length times the pattern's, and a
// pattern read from the activity is as long as whoever submits it likes
// (matches.go). The real service has no matches() at all.
func dynamicPatterns(checked *ast.AST, report func(id int64, msg string)) {
	ast.PostOrderVisit(checked.Expr(), ast.NewExprVisitor(func(e ast.Expr) {
		if e.Kind() != ast.CallKind || e.AsCall().FunctionName() != overloads.Matches {
			return
		}
		args := e.AsCall().Args()
		if len(args) == 0 {
			return
		}
		p := args[len(args)-1] // s.matches(p) or matches(s, p)
		if p.Kind() == ast.LiteralKind {
			if _, ok := p.AsLiteral().(celtypes.String); ok {
				return
			}
		}
		report(leftmost(checked, p), "the pattern of matches() must be a string literal ('^ops-[0-9]+$'): matching costs the string's "+
			"length times the pattern's, so a pattern read from the activity or computed could cost the service "+
			"without bound; compare with ==, startsWith() or contains() instead (the real service has no matches())")
	}))
}

// leftmost is the node of e's subtree that starts first in the source: where
// a reader sees e begin (a select's own position is its dot).
func leftmost(checked *ast.AST, e ast.Expr) int64 {
	info := checked.SourceInfo()
	start := func(id int64) int32 {
		if r, ok := info.GetOffsetRange(id); ok {
			return r.Start
		}
		return -1
	}
	best, bestOffset := e.ID(), start(e.ID())
	ast.PostOrderVisit(e, ast.NewExprVisitor(func(n ast.Expr) {
		if off := start(n.ID()); off >= 0 && (bestOffset < 0 || off < bestOffset) {
			best, bestOffset = n.ID(), off
		}
	}))
	return best
}
