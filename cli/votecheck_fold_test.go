package cli

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
)

// A service sends a field of the activity twice, "intent" (what jq and
// every JSON reader but Go read: a tag renamed "admins") and then "Intent"
// (what the requester signed, which Go's case-folding decoder keeps, being
// last); or likewise "votes" and "Votes". 'activity get --json' prints the
// reply as sent: it must refuse it rather than print checks of what Go read
// beside what a reader reads.
func TestJSONVoteChecksRefuseACaseFoldedField(t *testing.T) {
	e := newVerbEnv(t)
	id := openTag(t, e, "signed-intent")
	for _, field := range []string{"intent", "votes"} {
		proxy := e.demo.Rewriting(func(op string, request, reply []byte) []byte {
			if op != "query/"+api.QueryGetActivity {
				return reply
			}
			var top map[string]json.RawMessage
			if json.Unmarshal(reply, &top) != nil {
				return reply
			}
			var act map[string]json.RawMessage
			if json.Unmarshal(top["activity"], &act) != nil {
				return reply
			}
			honest := act[field]
			fake := bytes.ReplaceAll(honest, []byte(`"userTagName":"signed-intent"`), []byte(`"userTagName":"admins"`))
			if field == "votes" {
				fake = []byte(`[]`)
			}
			delete(act, field)
			b, _ := json.Marshal(act)
			b = append(b[:len(b)-1], `,"`+field+`":`...)
			b = append(b, fake...)
			b = append(b, `,"`+strings.ToUpper(field[:1])+field[1:]+`":`...)
			b = append(b, honest...)
			b = append(b, '}')
			return []byte(`{"activity":` + string(b) + `}`)
		})
		cfg := e.configVia(proxy, filepath.Join(t.TempDir(), "proxy.toml"))
		code, out, errOut := runVigil(t, map[string]string{"VIGIL_CONFIG": cfg}, "", "activity", "get", "--json", id)
		if code == exitOK || strings.Contains(strings.ToLower(out), "votechecks") || !strings.Contains(errOut, "two ways") {
			t.Errorf("%q sent twice in two cases: exit %d, want a refusal saying the reply reads two ways and no voteChecks:\n%.600s\nstderr: %s", field, code, out, errOut)
		}
	}
}

// An honest tag whose name holds a zero-width space and a line separator
// (characters a sanitising client escapes): 'activity get' checks its votes
// on the activity as sent, so every vote line says verified, the
// requester's that the intent shown is the one signed.
func TestActivityGetTextVerifiesAnHonestTagWithEscapedCharacters(t *testing.T) {
	e := newVerbEnv(t)
	id := openTag(t, e, "a\u200bb\u2028c")
	code, out, errOut := e.run("", "activity", "get", id)
	wantExit(t, "activity get", code, exitOK, out, errOut)
	if strings.Contains(out, "[FAILED") || strings.Contains(out, "[not checked") || !strings.Contains(out, "[verified: "+api.SubmissionSigned) {
		t.Errorf("activity get of an honest activity: want every vote verified, the requester's intent as signed:\n%s", out)
	}
}
