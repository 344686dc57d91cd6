package cli

import (
	"os"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/screens"
)

// docs/console.md lists every key action a user can rebind.
func TestConsoleDocListsEveryKeyAction(t *testing.T) {
	doc, err := os.ReadFile("../docs/console.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range screens.KeyActionNames() {
		if !strings.Contains(string(doc), "| `"+name+"` |") {
			t.Errorf("docs/console.md does not list the key action %s", name)
		}
	}
}
