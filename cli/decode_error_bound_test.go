package cli

import (
	"regexp"
	"strings"
	"testing"
)

// A hostile service can answer a 2xx with a field that does not decode: a
// time that is a 4 MiB string, a number literal 4 MiB long. The error must
// say which operation failed and quote only a short, marked prefix of the
// value, then what was wrong with it: one `vigil:` line, not megabytes.
func TestDecodeErrorQuotesOnlyAPrefixOfTheReply(t *testing.T) {
	e := newVerbEnv(t)
	code, out, errOut := e.run("", "policy", "create", "--name", "p", "--effect", "allow", "--condition", "activity.action == 'NOPE'")
	wantExit(t, "policy create", code, 0, out, errOut)
	code, out, errOut = e.run("", "policy", "list", "--json")
	wantExit(t, "policy list", code, 0, out, errOut)
	policyID := regexp.MustCompile(`"policyId":\s*"([^"]+)"`).FindStringSubmatch(out)
	if policyID == nil {
		t.Fatalf("no policy id in:\n%s", out)
	}
	big := strings.Repeat("7", 4<<20)
	createdAt := regexp.MustCompile(`"createdAt":\{[^}]*\}`)
	threshold := regexp.MustCompile(`"threshold":\d+`)
	hostile := e.via(func(op string, _, reply []byte) []byte {
		switch op {
		case "query/get_policy", "query/list_policies":
			return createdAt.ReplaceAll(reply, []byte(`"createdAt":"A`+big+`"`))
		case "query/get_organization_configs":
			return threshold.ReplaceAll(reply, []byte(`"threshold":`+big))
		}
		return reply
	})
	for _, c := range []struct {
		args   []string
		op     string // the operation the error names
		prefix string // the start of the value it quotes
		what   string // what the decoder said after it: kept
	}{
		{[]string{"policy", "get", policyID[1]}, "get_policy", `"A777`, "is neither a time object nor epoch milliseconds"},
		{[]string{"policy", "list"}, "list_policies", `"A777`, "is neither a time object nor epoch milliseconds"},
		{[]string{"feature", "list"}, "get_organization_configs", "number 777", "quorum.threshold of type int"},
	} {
		code, out, errOut := hostile.run("", c.args...)
		if code == 0 || len(out) > 4<<10 || len(errOut) > 4<<10 {
			t.Errorf("%v: exit %d, %d bytes on stdout, %d on stderr (%.200q…); want a short error", c.args, code, len(out), len(errOut), errOut)
			continue
		}
		if n := strings.Count(strings.TrimSuffix(errOut, "\n"), "\n"); n != 0 || !strings.HasPrefix(errOut, "vigil: ") ||
			!strings.Contains(errOut, c.op) || !strings.Contains(errOut, "not the expected JSON") ||
			!strings.Contains(errOut, c.prefix) || !strings.Contains(errOut, "…") || !strings.Contains(errOut, c.what) {
			t.Errorf("%v: want one line naming %s, quoting the start of the value marked as cut, and saying %q:\n%s", c.args, c.op, c.what, errOut)
		}
	}
}
