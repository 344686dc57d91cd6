package server

import (
	"os"
	"regexp"
	"testing"

	"github.com/vigil-console/vigil/api"
)

// A typo in 'vigil request --path' meets UNKNOWN_OPERATION: the message must
// send the user to a document that exists in the repository.
func TestUnknownOperationNamesAnExistingDoc(t *testing.T) {
	e := newEnv(t)
	doc := regexp.MustCompile(`[\w./-]+\.md`)
	for _, path := range []string{e.submitPath("create_wallet"), api.QueryPrefix + "list_wallets"} {
		r := e.post(path, whoamiBody(e.org.ID), e.keys["alice"])
		wantError(t, r, 400, api.CodeInvalidArgument, "UNKNOWN_OPERATION")
		name := doc.FindString(r.err.Message)
		if name == "" {
			t.Fatalf("%s: %q names no document listing the operations", path, r.err.Message)
		}
		if _, err := os.Stat("../" + name); err != nil {
			t.Errorf("%s: %q sends the user to %s, which is not in the repository", path, r.err.Message, name)
		}
	}
}
