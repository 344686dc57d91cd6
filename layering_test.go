package main

import (
	"go/build"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

const module = "github.com/vigil-console/vigil"

// forbidden says, per package of the module (its path in the module), which
// packages it must never reach, directly or through another: DESIGN.md §1's
// "no package reaches up". Only what ships counts; tests may wire the real
// local service into a screen test, as DESIGN.md §7 asks.
var forbidden = map[string][]string{
	"keys":    {"api", "policy", "proof", "webhook", "profile", "server", "ui", "screens", "cli"},
	"api":     {"policy", "proof", "webhook", "server", "ui", "screens", "cli"},
	"policy":  {"proof", "webhook", "server", "ui", "screens", "cli"},
	"proof":   {"policy", "webhook", "server", "ui", "screens", "cli"},
	"webhook": {"policy", "proof", "server", "ui", "screens", "cli"},
	"profile": {"api", "policy", "proof", "webhook", "server", "ui", "screens", "cli"},
	"server":  {"ui", "screens", "cli"},
	"ui":      {"server", "screens", "cli"},
	"screens": {"server", "cli"},
}

// TestNoPackageReachesUp reads the imports of every package of the module
// (not its tests) and checks the layering of DESIGN.md §1 on their
// transitive closure, and that only main imports cli.
func TestNoPackageReachesUp(t *testing.T) {
	imports := moduleImports(t)
	for pkg, bad := range forbidden {
		if _, ok := imports[pkg]; !ok {
			t.Errorf("package %s not found: the layering table is out of date", pkg)
			continue
		}
		for dep, via := range reach(imports, pkg) {
			if slices.Contains(bad, dep) {
				t.Errorf("%s reaches %s (through %s): DESIGN.md §1 says it must not", pkg, dep, strings.Join(via, " → "))
			}
		}
	}
	for pkg, deps := range imports {
		if pkg != "." && slices.Contains(deps, "cli") {
			t.Errorf("%s imports cli: only main.go may", pkg)
		}
	}
}

// moduleImports maps each package directory of the module ("." for the
// root) to the module packages its non-test files import.
func moduleImports(t *testing.T) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			return nil
		}
		if name := d.Name(); path != "." && (name == "testdata" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
			return filepath.SkipDir
		}
		p, err := build.ImportDir(path, 0)
		if err != nil {
			if _, none := err.(*build.NoGoError); none {
				return nil
			}
			return err
		}
		var deps []string
		for _, imp := range p.Imports {
			if imp == module {
				deps = append(deps, ".")
			} else if rest, ok := strings.CutPrefix(imp, module+"/"); ok {
				deps = append(deps, rest)
			}
		}
		out[filepath.ToSlash(path)] = deps
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// reach is every package from reaches, each with the import path that
// gets there first (breadth first, so the shortest).
func reach(imports map[string][]string, from string) map[string][]string {
	via := map[string][]string{}
	queue := []string{from}
	path := map[string][]string{from: {from}}
	for len(queue) > 0 {
		cur := queue[0]
		queue = queue[1:]
		for _, dep := range imports[cur] {
			if _, seen := path[dep]; seen {
				continue
			}
			path[dep] = append(slices.Clone(path[cur]), dep)
			via[dep] = path[dep]
			queue = append(queue, dep)
		}
	}
	return via
}
