package cli

import (
	"os"
	"regexp"
	"testing"
)

// Help text sends the reader only to documents the repository has: 'vigil
// serve -h' and 'vigil login oauth -h' named SPEC.md, which it does not.
func TestHelpNamesNoMissingFile(t *testing.T) {
	doc := regexp.MustCompile(`[\w./-]+\.md`)
	for name, text := range map[string]string{"": topUsage, "serve": serveUsage, "login": loginUsage, "login oauth": loginOAuthUsage, "console": consoleUsage, "demo": demoUsage} {
		for _, file := range doc.FindAllString(text, -1) {
			if _, err := os.Stat("../" + file); err != nil {
				t.Errorf("vigil %s -h names %s, which is not in the repository", name, file)
			}
		}
	}
}
