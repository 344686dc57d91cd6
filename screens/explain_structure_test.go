package screens

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"
)

// Explaining an evaluation re-runs the policies: it belongs in a command,
// never in Update or a render. This reads the screens' source: every call
// of explainEvaluation is inside a function literal (a command's body), and
// policy.ExplainWith and policy.Decide for an evaluation are called by
// explainEvaluation alone. (The end-to-end tests check the same at run
// time, for the paths they drive.)
func TestEvaluationsAreExplainedInCommandsOnly(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	calls := 0
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, decl := range f.Decls {
			fn, ok := decl.(*ast.FuncDecl)
			if !ok || fn.Body == nil {
				continue
			}
			var stack []ast.Node
			ast.Inspect(fn.Body, func(n ast.Node) bool {
				if n == nil {
					stack = stack[:len(stack)-1]
					return true
				}
				stack = append(stack, n)
				call, ok := n.(*ast.CallExpr)
				if !ok {
					return true
				}
				switch calledName(call) {
				case "explainEvaluation":
					calls++
					if !insideFuncLit(stack) {
						t.Errorf("%s: %s explains an evaluation outside a command", fset.Position(call.Pos()), fn.Name.Name)
					}
				case "policy.ExplainWith":
					if fn.Name.Name != "explainEvaluation" {
						t.Errorf("%s: %s calls policy.ExplainWith: explain through explainEvaluation, in a command", fset.Position(call.Pos()), fn.Name.Name)
					}
				}
				return true
			})
		}
	}
	if calls == 0 {
		t.Fatal("explainEvaluation is called nowhere: the check reads nothing")
	}
}

func insideFuncLit(stack []ast.Node) bool {
	for _, n := range stack {
		if _, ok := n.(*ast.FuncLit); ok {
			return true
		}
	}
	return false
}

// calledName is what call calls: "f" or "pkg.F" ("" for anything else).
func calledName(call *ast.CallExpr) string {
	if id, ok := call.Fun.(*ast.Ident); ok {
		return id.Name
	}
	return callName(call)
}
