package cli

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
)

// A vote on an activity still CREATED or PENDING (its policies not yet run,
// so the service lets nobody vote) is refused saying that it is not yet open
// for votes, not that the caller is no voter: a root member told that would
// ask someone else for nothing. The local service passes through these
// states within a request, so a proxy shows the activity in them.
func TestActivityVoteBeforeTheActivityIsOpenSaysSo(t *testing.T) {
	e := newVerbEnv(t)
	act, err := e.client("alice").CreateUserTag(context.Background(), api.CreateUserTagParams{UserTagName: "not-open", UserIDs: []string{}})
	if err != nil || act.Status != api.StatusConsensusNeeded {
		t.Fatalf("tag create: %+v %v", act, err)
	}
	for _, status := range []string{api.StatusCreated, api.StatusPending} {
		url := e.demo.Rewriting(func(op string, request, reply []byte) []byte {
			if op != "query/"+api.QueryGetActivity {
				return reply
			}
			reply = bytes.ReplaceAll(reply, []byte(`"`+api.StatusConsensusNeeded+`"`), []byte(`"`+status+`"`))
			reply = bytes.ReplaceAll(reply, []byte(`"canApprove":true`), []byte(`"canApprove":false`))
			return bytes.ReplaceAll(reply, []byte(`"canReject":true`), []byte(`"canReject":false`))
		})
		env := map[string]string{"VIGIL_CONFIG": e.configVia(url, filepath.Join(t.TempDir(), "proxy.toml"))}
		for _, verb := range []string{"approve", "reject"} {
			code, out, errOut := runVigil(t, env, "", "activity", verb, "--yes", "--profile", "bob", act.ID)
			wantExit(t, verb+" on a "+status+" activity", code, exitFailure, out, errOut)
			if !strings.Contains(errOut, "not yet open for votes") || strings.Contains(errOut, "not one of this activity's voters") {
				t.Errorf("%s by a root member on a %s activity: the refusal should say it is not yet open for votes:\n%s", verb, status, errOut)
			}
		}
	}
	if a, err := e.client("alice").GetActivity(context.Background(), act.ID); err != nil || len(a.Votes) != 1 {
		t.Errorf("a refused vote was cast: %+v %v", a, err)
	}
}
