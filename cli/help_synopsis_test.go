package cli

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// The synopses of 'vigil demo' in 'vigil -h' and in README name the flags
// that 'vigil demo -h' names: --read-only was left out of both, so a
// reader of either did not learn that the demo can be opened read-only.
func TestDemoSynopsesNameItsFlags(t *testing.T) {
	flagRE := regexp.MustCompile(`--[a-z-]+`)
	demoFlags := flagRE.FindAllString(firstLine(demoUsage), -1)
	if len(demoFlags) == 0 {
		t.Fatalf("set-up: 'vigil demo -h' names no flag in %q", firstLine(demoUsage))
	}
	top := synopsisOf(t, "vigil -h", topUsage, "  vigil demo ")
	for _, f := range demoFlags {
		if !strings.Contains(top, f+"]") && !strings.Contains(top, f+" ") {
			t.Errorf("'vigil -h' shows 'vigil demo' without %s, which 'vigil demo -h' names: %q", f, top)
		}
	}
	// README shows fewer flags than -h (no --log-file on either line); what
	// it shows for the console, the demo also takes, it shows for the demo.
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	console := synopsisOf(t, "README", string(readme), "vigil [console] ")
	demo := synopsisOf(t, "README", string(readme), "vigil demo ")
	for _, f := range flagRE.FindAllString(console, -1) {
		if strings.Contains(firstLine(demoUsage), f) && !strings.Contains(demo, f) {
			t.Errorf("README shows %s for the console but not for 'vigil demo', which takes it: %q", f, demo)
		}
	}
}

// synopsisOf is the line of text that starts with prefix.
func synopsisOf(t *testing.T, where, text, prefix string) string {
	t.Helper()
	for line := range strings.SplitSeq(text, "\n") {
		if strings.HasPrefix(line, prefix) {
			return line
		}
	}
	t.Fatalf("%s has no line starting %q", where, prefix)
	return ""
}
