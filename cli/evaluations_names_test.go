package cli

import (
	"bytes"
	"strings"
	"testing"
)

// 'activity evaluations' names each policy as policy list does (api.NameText):
// a real control and the same escape typed as text must not print alike, a
// look-alike letter must be marked, and a policy named like the root quorum's
// marker must not read as it.
func TestEvaluationsQuotePolicyNames(t *testing.T) {
	e := newVerbEnv(t)
	code, out, errOut := e.run("", "session", "create-read-only", "--profile", "operator")
	wantExit(t, "session", code, 0, out, errOut)
	id := activityIDFrom(t, out)

	rename := func(name string) *verbEnv {
		return e.via(func(op string, _, reply []byte) []byte {
			return bytes.ReplaceAll(reply, []byte(`"policyName":"Anyone may open a read-only session"`), []byte(`"policyName":"`+name+`"`))
		})
	}
	row := func(env *verbEnv) string {
		t.Helper()
		code, out, errOut := env.run("", "activity", "evaluations", id)
		wantExit(t, "evaluations", code, 0, out, errOut)
		for _, l := range strings.Split(out, "\n") {
			if strings.Contains(l, "ALLOW") {
				return l
			}
		}
		t.Fatalf("no ALLOW row:\n%s", out)
		return ""
	}
	real, typed := row(rename(`ops\u001b[2J`)), row(rename(`ops\\u001b[2J`))
	if real == typed {
		t.Errorf("a policy name with a real ESC and one with the escape typed as text print alike:\n%s", real)
	}
	if strings.ContainsRune(real, 0x1b) {
		t.Errorf("a raw ESC reached the terminal:\n%q", real)
	}
	lookalike := row(rename(`Anyone may open a read-only s\u0435ssion`)) // Cyrillic е
	if !strings.Contains(lookalike, `\u0435`) {
		t.Errorf("a look-alike policy name is not marked (policy list quotes it):\n%s", lookalike)
	}
	imitation := row(rename(rootQuorumRow))
	if strings.Contains(imitation, " "+rootQuorumRow) {
		t.Errorf("a policy named like the root quorum's marker reads as it:\n%s", imitation)
	}
}

// The users named in a no-policy row's "why", and feature values, are
// escaped once: escaping what the client had already escaped printed a real
// control and the same escape typed as text alike.
func TestNoPolicyWhyAndFeatureValuesEscapedOnce(t *testing.T) {
	e := newVerbEnv(t)
	code, out, errOut := e.run("", "tag", "create", "--name", "quorum-made", e.userID("operator"))
	wantExit(t, "tag create", code, 0, out, errOut)
	id := activityIDFrom(t, out)
	code, out, errOut = e.run("", "activity", "approve", "--yes", "--profile", "bob", id)
	wantExit(t, "approve", code, 0, out, errOut)

	renameBob := func(name string) string {
		env := e.via(func(op string, _, reply []byte) []byte {
			return bytes.ReplaceAll(reply, []byte(`"userName":"bob"`), []byte(`"userName":"`+name+`"`))
		})
		code, out, errOut := env.run("", "activity", "evaluations", id)
		wantExit(t, "evaluations", code, 0, out, errOut)
		for _, l := range strings.Split(out, "\n") {
			if strings.Contains(l, "(no policy ran)") {
				return l
			}
		}
		t.Fatalf("no row in which no policy ran:\n%s", out)
		return ""
	}
	real, typed := renameBob(`bob\u001b`), renameBob(`bob\\u001b`)
	if real == typed {
		t.Errorf("a user name with a real ESC and one with the escape typed as text read alike in why:\n%s", real)
	}
	if strings.ContainsRune(real, 0x1b) {
		t.Errorf("a raw ESC reached the terminal:\n%q", real)
	}

	feature := func(value string) string {
		env := e.via(func(op string, _, reply []byte) []byte {
			if !strings.HasSuffix(op, "get_organization_configs") {
				return reply
			}
			return bytes.Replace(reply, []byte(`"features":[`), []byte(`"features":[{"name":"FEATURE_NAME_WEBHOOK","value":"`+value+`"},`), 1)
		})
		code, out, errOut := env.run("", "feature", "list")
		wantExit(t, "feature list", code, 0, out, errOut)
		for _, l := range strings.Split(out, "\n") {
			if strings.Contains(l, "FEATURE_NAME_WEBHOOK") {
				return l
			}
		}
		t.Fatalf("no webhook feature row:\n%s", out)
		return ""
	}
	realValue, typedValue := feature(`https://x.example/\u001b[2J`), feature(`https://x.example/\\u001b[2J`)
	if realValue == typedValue {
		t.Errorf("a feature value with a real ESC and one with the escape typed as text print alike:\n%s", realValue)
	}
	if strings.ContainsRune(realValue, 0x1b) {
		t.Errorf("a raw ESC reached the terminal:\n%q", realValue)
	}
}
