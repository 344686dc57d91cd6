package cli

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// proof verify checks app proofs against the key a boot proof attests, so it
// refuses --app-proofs without one (--boot-proof or --attestation). A doc
// command that leaves both out fails with exit 2 when a reader runs it. Inline
// code may wrap across lines of the markdown, which TestDocsCommandLinesParse
// does not join, so the text is read here with its line breaks as spaces.
func TestDocsProofVerifyLinesNameTheBootProof(t *testing.T) {
	proofVerify := regexp.MustCompile("vigil proof verify[^`\n]*")
	files, _ := filepath.Glob("../docs/*.md")
	files = append(files, "../README.md")
	for _, f := range files {
		text, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var joined []string
		for _, block := range strings.Split(string(text), "```") {
			joined = append(joined, strings.Join(strings.Fields(block), " "))
		}
		for _, line := range proofVerify.FindAllString(strings.Join(joined, "\n"), -1) {
			if strings.Contains(line, "--app-proofs") && !strings.Contains(line, "--boot-proof") && !strings.Contains(line, "--attestation") {
				t.Errorf("%s: %q gives --app-proofs without --boot-proof or --attestation, which proof verify requires", filepath.Base(f), line)
			}
		}
	}
}
