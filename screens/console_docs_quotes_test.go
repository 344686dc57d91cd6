package screens

import (
	"os"
	"regexp"
	"testing"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/policy"
)

// The docs quote a policy's name as the console prints it (api.Quote, double
// quotes): someone searching the screen, or the evaluations view's / filter,
// for the documented text finds it.
func TestConsoleDocsQuotePolicyNamesAsPrinted(t *testing.T) {
	if got := policyLabel(policy.PolicyLine{Name: "X", ID: "pol-1"}); got != `"X" (pol-1)` || api.Quote("X") != `"X"` {
		t.Fatalf("the console no longer quotes a policy's name with double quotes: %s", got)
	}
	single := regexp.MustCompile(`policy '[^'\n]*'`)
	for _, path := range []string{"../docs/console.md", "../docs/policy-language.md"} {
		doc, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range single.FindAll(doc, -1) {
			t.Errorf("%s writes %s; the console prints the name in double quotes", path, m)
		}
	}
}
