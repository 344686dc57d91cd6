package screens

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// The defaults docs/console.md's key table gives each rebindable action are
// the keys the action really has, and every action the table names exists
// (cli's TestConsoleDocListsEveryKeyAction only checks each is listed).
func TestConsoleDocsKeyTableMatchesDefaults(t *testing.T) {
	doc, err := os.ReadFile("../docs/console.md")
	if err != nil {
		t.Fatal(err)
	}
	row := regexp.MustCompile("(?m)^\\| `([a-z_]+(?:\\.[a-z_]+)?)` \\| (.*) \\|$")
	documented := map[string]string{}
	for _, m := range row.FindAllStringSubmatch(string(doc), -1) {
		documented[m[1]] = m[2]
	}
	r := NewRoot(Options{})
	global, perScreen := r.keyActions()
	all := append([]KeyAction{}, global...)
	for _, acts := range perScreen {
		all = append(all, acts...)
	}
	seen := map[string]bool{}
	compared := 0
	for _, a := range all {
		seen[a.Name] = true
		want, ok := documented[a.Name]
		if !ok {
			continue
		}
		compared++
		var got []string
		for _, k := range a.Binding.Keys() {
			switch k {
			case "up":
				k = "↑"
			case "down":
				k = "↓"
			}
			got = append(got, "`"+k+"`")
		}
		if strings.Join(got, ", ") != want {
			t.Errorf("%s: docs say %s, binding is %s", a.Name, want, strings.Join(got, ", "))
		}
	}
	if compared == 0 {
		t.Fatal("no row of docs/console.md's key table was read; has its format changed?")
	}
	for name := range documented {
		if strings.Contains(name, ".") && !seen[name] {
			t.Errorf("docs/console.md lists %s, which is no key action", name)
		}
	}
}
