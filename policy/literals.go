package policy

import (
	"cel.dev/cel-go/cel"
	"cel.dev/cel-go/common/ast"
	"cel.dev/cel-go/common/operators"
	"cel.dev/cel-go/common/types"
)

// checkLiterals refuses, at compile time and at their position, constant
// arguments of Timestamp and CronSpan that could never evaluate: a time with
// a non-zero offset, a malformed schedule or duration, an unknown time zone;
// and a documented parameter compared with, or looked up in or with, a
// literal of another type (paramtypes.go), a list or map literal mixing
// kinds, and a matches() pattern that is not a string literal
// (literalkinds.go), these last ones only for what a user submits
// (checkSubmitted).
func checkLiterals(field, src string, rw rewritten, checked *cel.Ast, mode checkMode) []Diagnostic {
	if checked == nil {
		return nil
	}
	native := checked.NativeRep()
	info := native.SourceInfo()
	var out []Diagnostic
	reported := map[int64]bool{}
	report := func(id int64, msg string) {
		if reported[id] {
			return // one problem a place: the first found says most
		}
		reported[id] = true
		line, col := nodePosition(info, id)
		line, col = rw.originalPosition(src, line, col)
		out = append(out, Diagnostic{Field: field, Line: line, Column: col, Message: msg})
	}
	constString := func(e ast.Expr) (string, bool) {
		if e.Kind() != ast.LiteralKind {
			return "", false
		}
		s, ok := e.AsLiteral().(types.String)
		return string(s), ok
	}
	visitor := ast.NewExprVisitor(func(e ast.Expr) {
		if e.Kind() != ast.CallKind {
			return
		}
		call := e.AsCall()
		args := call.Args()
		switch {
		case call.FunctionName() == fnTimestmp && len(args) == 1:
			if s, ok := constString(args[0]); ok {
				if _, err := parseTimestamp(s); err != nil {
					report(args[0].ID(), err.Error())
				}
			}
		case mode == checkStored && (call.FunctionName() == operators.Equals || call.FunctionName() == operators.NotEquals ||
			call.FunctionName() == operators.In || call.FunctionName() == "contains"):
			// Lint only: evaluation refuses such a comparison itself.
		case (call.FunctionName() == operators.Equals || call.FunctionName() == operators.NotEquals) && len(args) == 2:
			for i, a := range args {
				if name, ok := paramRead(a); ok {
					if msg := paramLiteralMismatch(name, args[1-i]); msg != "" {
						report(args[1-i].ID(), msg)
					}
				}
			}
		case call.FunctionName() == operators.In && len(args) == 2:
			if at, msg := paramMembershipMismatch(args[0], args[1]); msg != "" {
				report(at.ID(), msg)
			}
		case call.FunctionName() == "contains" && call.IsMemberFunction() && len(args) == 1:
			if at, msg := paramContainsMismatch(call.Target(), args[0]); msg != "" {
				report(at.ID(), msg)
			}
		case call.FunctionName() == fnCronSpan && len(args) == 4:
			sched, ok1 := constString(args[1])
			dur, ok2 := constString(args[2])
			tz, ok3 := constString(args[3])
			if ok1 {
				if _, err := parseCron(sched); err != nil {
					report(args[1].ID(), err.Error())
				}
			}
			if ok2 {
				if _, err := parseSpanDuration(dur); err != nil {
					report(args[2].ID(), err.Error())
				}
			}
			if ok3 {
				if _, err := parseCronSpan("* * * * *", "1m", tz); err != nil {
					report(args[3].ID(), err.Error())
				}
			}
		}
	})
	ast.PostOrderVisit(native.Expr(), visitor)
	if mode == checkSubmitted {
		for _, p := range paramFields(native.Expr()) {
			report(p.id, p.msg)
		}
		mixedLiterals(native, report)
		dynamicPatterns(native, report)
	}
	return out
}
