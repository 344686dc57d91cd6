package cli

import (
	"context"
	"encoding/json"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/vigil-console/vigil/api"
)

// 'vigil request' with a submit body that is not a vote exits as the typed
// verb sending the same submission does: 1 when the activity ran and FAILED
// (denied by the policies, or failed at execution), 0 when it COMPLETED or
// waits for votes. It exited 0 for a FAILED one, so a script using it as the
// universal verb took a failed submission for success.
func TestRequestSubmitExitsAsTheTypedVerb(t *testing.T) {
	e := newVerbEnv(t)
	ctx := context.Background()

	// The demo's account never exported (its deletion without
	// --without-export FAILED), and a policy, proposed by carol and approved
	// by bob, that lets anyone delete wallet accounts alone: operator's
	// deletion of that account then runs at once and fails at execution.
	acts, err := e.client("alice").ListActivities(ctx, api.ListActivitiesOptions{Statuses: []string{api.StatusFailed}, Limit: 100})
	if err != nil {
		t.Fatal(err)
	}
	var cold string
	for _, a := range acts {
		if p := a.Intent.DeleteWalletAccountsIntent; p != nil && p.DeleteWithoutExport == nil {
			cold = p.WalletAccountIDs[0]
		}
	}
	if cold == "" {
		t.Fatal("setup: the demo's never-exported account was not found")
	}
	code, out, errOut := e.run("", "policy", "create", "--profile", "carol", "--name", "anyone deletes accounts",
		"--effect", "EFFECT_ALLOW", "--condition", "activity.type == 'ACTIVITY_TYPE_DELETE_WALLET_ACCOUNTS'")
	wantExit(t, "setup: propose the policy", code, exitOK, out, errOut)
	code, out, errOut = e.run("", "activity", "approve", "--yes", "--profile", "bob", activityIDFrom(t, out))
	wantExit(t, "setup: approve the policy", code, exitOK, out, errOut)

	// The typed verb's request body, as it sent it, for sending again.
	var mu sync.Mutex
	sent := map[string][]byte{}
	proxy := e.demo.Rewriting(func(op string, request, reply []byte) []byte {
		if strings.HasPrefix(op, "submit/") {
			mu.Lock()
			sent[op] = request
			mu.Unlock()
		}
		return reply
	})
	typedConfig := e.configVia(proxy, filepath.Join(t.TempDir(), "typed.toml"))

	for _, tc := range []struct {
		name, op, status string
		typed            []string
		why              string // the reason standard error gives for a FAILED one
	}{
		{"completed", "create_read_only_session", api.StatusCompleted,
			[]string{"session", "create-read-only", "--profile", "operator"}, ""},
		{"waits-for-votes", "create_user_tag", api.StatusConsensusNeeded,
			[]string{"tag", "create", "--profile", "alice", "--name", "request-exits-alike"}, ""},
		{"failed-denied", "create_policy", api.StatusFailed,
			[]string{"policy", "create", "--profile", "operator", "--name", "mine", "--effect", "EFFECT_ALLOW", "--condition", "true"},
			"no policy allows this activity"},
		{"failed-at-execution", "delete_wallet_accounts", api.StatusFailed,
			[]string{"wallet-account", "delete", "--yes", "--profile", "operator", cold}, "was never exported"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			typedCode, typedOut, typedErr := runVigil(t, map[string]string{"VIGIL_CONFIG": typedConfig}, "", tc.typed...)
			if !strings.Contains(typedOut, tc.status) {
				t.Fatalf("setup: %s should end %s:\nstdout:\n%s\nstderr:\n%s", strings.Join(tc.typed, " "), tc.status, typedOut, typedErr)
			}
			mu.Lock()
			body := sent["submit/"+tc.op]
			mu.Unlock()
			if body == nil {
				t.Fatalf("setup: %s sent no submit/%s", strings.Join(tc.typed, " "), tc.op)
			}
			body = laterSubmission(t, body)

			code, out, errOut := e.run(string(body), "request", "--profile", tc.typed[slices.Index(tc.typed, "--profile")+1],
				"--path", "/public/v1/submit/"+tc.op, "--body-file", "-")
			if code != typedCode {
				t.Errorf("vigil request exited %d, %s exited %d for a %s activity\nstdout:\n%s\nstderr:\n%s",
					code, strings.Join(tc.typed[:2], " "), typedCode, tc.status, out, errOut)
			}
			var reply api.ActivityResponse
			if err := json.Unmarshal([]byte(out), &reply); err != nil || reply.Activity.Status != tc.status {
				t.Fatalf("vigil request should print the reply, a %s activity: %v\n%s", tc.status, err, out)
			}
			failed := "vigil: activity " + reply.Activity.ID + " ran and FAILED"
			if tc.status == api.StatusFailed {
				if !strings.Contains(errOut, failed) || !strings.Contains(errOut, tc.why) || !strings.Contains(typedErr, tc.why) {
					t.Errorf("both should say the activity ran and FAILED, and why (%q):\nrequest:\n%s\ntyped:\n%s", tc.why, errOut, typedErr)
				}
			} else if strings.Contains(errOut, "FAILED") {
				t.Errorf("a %s activity is no failure:\n%s", tc.status, errOut)
			}
		})
	}
}

// laterSubmission is body with its timestampMs one millisecond later: the
// same submission, a new activity (the service answers a body it has seen
// with the activity it recorded).
func laterSubmission(t *testing.T, body []byte) []byte {
	t.Helper()
	var m map[string]json.RawMessage
	var ts string
	if err := json.Unmarshal(body, &m); err != nil || json.Unmarshal(m["timestampMs"], &ts) != nil {
		t.Fatalf("setup: the typed verb's body: %v\n%s", err, body)
	}
	ms, err := strconv.ParseInt(ts, 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	m["timestampMs"], _ = json.Marshal(strconv.FormatInt(ms+1, 10))
	later, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return later
}
