package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
)

// An input the user gave that is too large to be what the verb wants is a
// usage mistake, exit 2 ("fix the command", docs/cli.md's Exit status), the
// same for every verb, and the message says which input and that it is too
// large; nothing is sent.
func TestInputTooLargeIsAUsageErrorForEveryVerb(t *testing.T) {
	e := newVerbEnv(t)
	dir := t.TempDir()
	write := func(name string, size int) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(`"`+strings.Repeat("a", size)+`"`), 0o600); err != nil {
			t.Fatal(err)
		}
		return path
	}
	small := filepath.Join(dir, "small")
	if err := os.WriteFile(small, []byte("{}"), 0o600); err != nil {
		t.Fatal(err)
	}
	bigContract := write("contract.json", api.MaxSmartContractInterfaceBytes)
	bigHeaders := write("headers", maxHeadersFile)
	bigDelivery := write("delivery", maxDeliveryBody)
	bigProof := write("proof.json", maxProofFile)
	bigKey := write("key", maxImportLen)
	bigStamp := write("stamp-body", maxStampBody)
	bigRequest := write("request-body", api.MaxRequestBodyBytes)
	bigToken := write("token", maxProviderToken)
	target := filepath.Join(dir, "target")
	if code, out, errOut := e.run("", "login", "oauth-nonce", "--target-key", target); code != 0 {
		t.Fatalf("set-up: login oauth-nonce: exit %d\n%s%s", code, out, errOut)
	}
	types := []string{api.TypeCreateSmartContractInterface, api.TypeCreateUserTag, api.TypeOauth, api.TypeUpdateOauth2Credential}
	count := func() (n int) {
		for _, typ := range types {
			n += e.countActivities(t, typ)
		}
		return n
	}
	before := count()

	for _, tc := range []struct {
		name, stdin string
		args        []string
		want        string
	}{
		{"contract create --file", "", []string{"contract", "create", "--address", "0xabc", "--type", "ethereum", "--label", "L", "--file", bigContract}, "is over the limit"},
		{"webhook verify --headers", "", []string{"webhook", "verify", "--body", small, "--headers", bigHeaders}, "is larger than"},
		{"webhook verify --body", "", []string{"webhook", "verify", "--body", bigDelivery, "--header", "X-A: b"}, "no delivery is that large"},
		{"proof verify --boot-proof", "", []string{"proof", "verify", "--boot-proof", bigProof}, "that is not a proof file"},
		{"keys import --file", "", []string{"keys", "import", "--scheme", "p256", "--dir", t.TempDir(), "--file", bigKey, "k"}, "is larger than a key"},
		{"stamp --body-file", "", []string{"stamp", "--key", "alice", "--body-file", bigStamp}, "is over"},
		{"request --body-file", "", []string{"request", "--path", "/public/v1/submit/create_user_tag", "--body-file", bigRequest}, "the service's limit"},
		{"login oauth --provider-token", "", []string{"login", "oauth", "--provider-token", bigToken, "--target-key", target}, "an OIDC token is much smaller"},
		{"oauth2-credential update, secret on standard input", strings.Repeat("s", maxSecret+1),
			[]string{"oauth2-credential", "update", "--id", "c1", "--provider", "x", "--client-id", "C"}, "is over"},
	} {
		code, out, errOut := e.run(tc.stdin, tc.args...)
		if code != exitUsage {
			t.Errorf("%s: exit %d, want %d (a usage mistake)\nstdout: %s\nstderr: %.300s", tc.name, code, exitUsage, out, errOut)
			continue
		}
		if !strings.Contains(errOut, tc.want) {
			t.Errorf("%s: stderr %.300q, want it to say %q", tc.name, errOut, tc.want)
		}
	}
	if after := count(); after != before {
		t.Errorf("a too-large input was sent: %d activities before, %d after", before, after)
	}
}
