package policy

import (
	"sync/atomic"

	"cel.dev/cel-go/cel"
	"cel.dev/cel-go/common/ast"
)

// walkedCondition is a condition as a warning walks it: rewritten, parsed
// (or compiled, when the warning needs types), with what it takes to place a
// node of it in the condition as written.
type walkedCondition struct {
	native    *ast.AST
	rw        rewritten
	condition string
}

// conditionParse is a condition parsed once, and type-checked at most once,
// for every warning's walk of it: each walk parsing it again cost a parse a
// warning (and, on a text that does not parse, ANTLR's error recovery each
// time).
type conditionParse struct {
	condition string
	env       *cel.Env
	rw        rewritten
	parsed    *cel.Ast // nil when it does not parse
	// checked is the type-checked parse, once a typed walk asked for it.
	checked     *cel.Ast
	checkedDone bool
}

// conditionParses counts parseCondition's calls (tests: one per Warnings).
var conditionParses atomic.Int64

// parseCondition parses condition for the warnings' walks.
func parseCondition(condition string) *conditionParse {
	conditionParses.Add(1)
	c := &conditionParse{condition: condition}
	e, err := loadEnvs()
	if err != nil {
		return c
	}
	rw, rerrs := rewrite(condition)
	if len(rerrs) > 0 {
		return c
	}
	// Only whether it parses is needed: iss.Err() would format every
	// error with its source line, quadratic in the error's column.
	parsed, iss := e.condition.Parse(rw.text)
	if iss != nil && len(iss.Errors()) > 0 {
		return c
	}
	c.env, c.rw, c.parsed = e.condition, rw, parsed
	return c
}

// walk is the condition for a warning's walk (type-checked, with typed); ok
// is false when it does not parse (or check): the compile errors say what is
// wrong then, not the warnings.
func (c *conditionParse) walk(typed bool) (w walkedCondition, ok bool) {
	if c.parsed == nil {
		return w, false
	}
	a := c.parsed
	if typed {
		if !c.checkedDone {
			c.checkedDone = true
			if checked, iss := c.env.Check(c.parsed); iss == nil || len(iss.Errors()) == 0 {
				c.checked = checked
			}
		}
		if c.checked == nil {
			return w, false
		}
		a = c.checked
	}
	return walkedCondition{native: a.NativeRep(), rw: c.rw, condition: c.condition}, true
}

// at is a warning, message, at node id, placed in the condition as written.
func (w walkedCondition) at(id int64, message string) Diagnostic {
	line, col := nodePosition(w.native.SourceInfo(), id)
	line, col = w.rw.originalPosition(w.condition, line, col)
	return Diagnostic{Field: FieldCondition, Line: line, Column: col, Message: message}
}

// nodePosition is node id's 1-based line and column in the rewritten text,
// 1:1 when the parser recorded none.
func nodePosition(info *ast.SourceInfo, id int64) (line, col int) {
	loc := info.GetStartLocation(id)
	line, col = loc.Line(), loc.Column()+1
	if line < 1 {
		line, col = 1, 1
	}
	return line, col
}
