package screens

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"
)

// nameFields hold names from the service: a user, a key, an authenticator or
// a policy may be called anything, including the name it imitates.
var nameFields = map[string]bool{"UserName": true, "UserNames": true, "UserEmail": true, "APIKeyName": true,
	"AuthenticatorName": true, "MfaPolicyName": true, "PolicyName": true, "ProviderName": true, "UserTagName": true}

// Every name shown must go through api.NameText or api.Quote, which mark
// look-alikes (docs/console.md); ui.Clean alone, or a %q, shows "\u0430lice"
// as alice. This reads the screens' source: a new view that forgets it fails
// here, not in a review.
func TestNamesAreShownThroughNameTextOrQuote(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if bin, ok := n.(*ast.BinaryExpr); ok && bin.Op == token.ADD {
				// A name joined to the console's words: "x" + u.UserName.
				for _, e := range []ast.Expr{bin.X, bin.Y} {
					if field := nameOperand(e); field != "" {
						t.Errorf("%s: + joins %s without api.NameText or api.Quote", fset.Position(e.Pos()), field)
					}
				}
				return true
			}
			if kv, ok := n.(*ast.KeyValueExpr); ok {
				k, _ := kv.Key.(*ast.Ident)
				// A name handed to a view's struct (ui.Status{User: org.UserName}):
				// the view only cleans it. Copying it into another name field
				// (api.User{UserName: ...}) is data, not display.
				if field := nameOperand(kv.Value); field != "" && (k == nil || !nameFields[k.Name]) {
					t.Errorf("%s: a struct field is given %s without api.NameText or api.Quote", fset.Position(kv.Value.Pos()), field)
				}
				// A table row's cells.
				if k != nil && k.Name == "Cells" {
					if lit, ok := kv.Value.(*ast.CompositeLit); ok {
						for _, e := range lit.Elts {
							if field := nameOperand(e); field != "" {
								t.Errorf("%s: a cell shows %s without api.NameText or api.Quote", fset.Position(e.Pos()), field)
							}
						}
					}
				}
				return true
			}
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			if sel, ok := call.Fun.(*ast.SelectorExpr); ok && (sel.Sel.Name == "Field" || sel.Sel.Name == "Line" || sel.Sel.Name == "Styled") {
				// The detail builder's lines.
				for _, arg := range call.Args {
					if field := nameOperand(arg); field != "" {
						t.Errorf("%s: %s shows %s without api.NameText or api.Quote", fset.Position(arg.Pos()), sel.Sel.Name, field)
					}
				}
				return true
			}
			switch callName(call) {
			case "ui.Clean", "ui.CleanBlock":
			case "fmt.Sprintf", "fmt.Errorf":
				if len(call.Args) == 0 || !strings.Contains(stringLit(call.Args[0]), "%q") {
					return true
				}
			default:
				return true
			}
			for _, arg := range call.Args {
				if field := bareName(arg); field != "" {
					t.Errorf("%s: %s shows %s without api.NameText or api.Quote", fset.Position(call.Pos()), callName(call), field)
				}
			}
			return true
		})
	}
}

func callName(call *ast.CallExpr) string {
	if sel, ok := call.Fun.(*ast.SelectorExpr); ok {
		if pkg, ok := sel.X.(*ast.Ident); ok {
			return pkg.Name + "." + sel.Sel.Name
		}
	}
	return ""
}

func stringLit(e ast.Expr) string {
	if lit, ok := e.(*ast.BasicLit); ok && lit.Kind == token.STRING {
		return lit.Value
	}
	return ""
}

// bareName finds a name field in e that reaches the text without passing
// through api.NameText, api.Quote or api.NameWithID.
func bareName(e ast.Expr) string {
	found := ""
	ast.Inspect(e, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.CallExpr:
			switch callName(n) {
			case "api.NameText", "api.Quote", "api.NameWithID":
				return false
			}
		case *ast.SelectorExpr:
			if nameFields[n.Sel.Name] && found == "" {
				found = n.Sel.Name
			}
		}
		return true
	})
	return found
}

// nameOperand is the name field e is, directly (u.UserName, or
// c.Org.UserNames[id]); "" when e is anything else.
func nameOperand(e ast.Expr) string {
	if ix, ok := e.(*ast.IndexExpr); ok {
		e = ix.X
	}
	if sel, ok := e.(*ast.SelectorExpr); ok && nameFields[sel.Sel.Name] {
		return sel.Sel.Name
	}
	return ""
}
