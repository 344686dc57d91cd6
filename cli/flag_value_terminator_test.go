package cli

import (
	"encoding/json"
	"flag"
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
)

// A flag whose value is "--" (--name --) takes it as its value; only a "--"
// where a flag would go ends the flags, so the flags after a "--" value are
// still flags.
func TestParseArgsTakesDashDashAsAFlagsValue(t *testing.T) {
	for _, tc := range []struct {
		args       []string
		name, json string // the flags' values after parsing
		positional []string
	}{
		{[]string{"--name", "--", "u1", "--json"}, "--", "true", []string{"u1"}},
		{[]string{"--name", "--", "--json", "u1"}, "--", "true", []string{"u1"}},
		{[]string{"u1", "--name", "--", "--json"}, "--", "true", []string{"u1"}},
		{[]string{"-name", "--", "--json"}, "--", "true", nil},
		{[]string{"--name=--", "--", "--json"}, "--", "false", []string{"--json"}},
		{[]string{"--json", "--", "--name", "x"}, "", "true", []string{"--name", "x"}},
		{[]string{"--name", "x", "--", "u1", "--json"}, "x", "false", []string{"u1", "--json"}},
		{[]string{"--name", "x", "u1", "--", "--json"}, "x", "false", []string{"u1", "--json"}},
		{[]string{"--json=true", "--", "--"}, "", "true", []string{"--"}},
	} {
		fs := flag.NewFlagSet("t", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		name := fs.String("name", "", "")
		asJSON := fs.Bool("json", false, "")
		positional, err := parseArgs(fs, tc.args)
		if err != nil {
			t.Errorf("%q: %v", tc.args, err)
			continue
		}
		if *name != tc.name || fs.Lookup("json").Value.String() != tc.json || !slices.Equal(positional, tc.positional) {
			t.Errorf("%q: --name %q, --json %v, positional %q; want --name %q, --json %s, positional %q",
				tc.args, *name, *asJSON, positional, tc.name, tc.json, tc.positional)
		}
	}
}

// The same through a verb: tag create --name -- USER --json proposes a tag
// named "--" for the user and prints JSON, rather than taking --json for a user.
func TestTagCreateNamedDashDashKeepsLaterFlags(t *testing.T) {
	e := newVerbEnv(t)
	code, out, errOut := e.run("", "tag", "create", "--name", "--", "carol", "--json")
	wantExit(t, "tag create --name -- carol --json", code, 0, out, errOut)
	var reply struct{ Activity api.Activity }
	if err := json.Unmarshal([]byte(out), &reply); err != nil {
		t.Fatalf("--json was not taken as a flag: stdout is not JSON (%v):\n%s", err, out)
	}
	intent := reply.Activity.Intent.CreateUserTagIntent
	if intent == nil || intent.UserTagName != "--" || !slices.Equal(intent.UserIDs, []string{e.userID("carol")}) {
		t.Errorf("sent %+v, want a tag named \"--\" for carol (%s)\nstderr: %s", intent, e.userID("carol"), strings.TrimSpace(errOut))
	}
}
