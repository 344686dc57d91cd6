package policy

import "cel.dev/cel-go/common/ast"

// walkedCondition is a condition as a warning walks it: rewritten, parsed
// (or compiled, when the warning needs types), with what it takes to place a
// node of it in the condition as written.
type walkedCondition struct {
	native    *ast.AST
	rw        rewritten
	condition string
}

// walkCondition parses condition (compiles it, with typed) for a warning's
// walk; ok is false when it does not: the compile errors say what is wrong
// then, not the warnings.
func walkCondition(condition string, typed bool) (w walkedCondition, ok bool) {
	e, err := loadEnvs()
	if err != nil {
		return w, false
	}
	rw, rerrs := rewrite(condition)
	if len(rerrs) > 0 {
		return w, false
	}
	parse := e.condition.Parse
	if typed {
		parse = e.condition.Compile
	}
	parsed, iss := parse(rw.text)
	if iss != nil && iss.Err() != nil {
		return w, false
	}
	return walkedCondition{native: parsed.NativeRep(), rw: rw, condition: condition}, true
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
