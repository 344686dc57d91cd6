package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
)

func TestOperationVerbsValidation(t *testing.T) {
	dir := t.TempDir()
	big := filepath.Join(dir, "big.json")
	os.WriteFile(big, []byte(`["`+strings.Repeat("a", api.MaxSmartContractInterfaceBytes)+`"]`), 0o600)
	notJSON := filepath.Join(dir, "abi.txt")
	os.WriteFile(notJSON, []byte("function transfer(address,uint256)"), 0o600)
	contract := []string{"contract", "create", "--address", "0xabc", "--type", "ethereum", "--label", "L"}
	checkUsageErrors(t, []usageCase{
		{[]string{"invitation"}, "invitation needs a subcommand"},
		{[]string{"invitation", "delete"}, `unknown invitation subcommand "delete"; use create`},
		{[]string{"invitation", "create", "--name", "d", "--email", "d@example.com"}, `--access "": use one of web, api, all`},
		{[]string{"invitation", "create", "--name", "d", "--email", "not-an-address", "--access", "web"}, "invalid parameter invitations[0].receiverUserEmail"},
		{[]string{"invitation", "create", "--email", "d@example.com", "--access", "api"}, "invitations[0].receiverUserName: is required"},
		{[]string{"tag", "create", "--name", "t", ""}, "invalid parameter userIds[0]: is required but empty"},
		{[]string{"tag", "create", "u1"}, "invalid parameter userTagName"},
		{[]string{"contract", "create", "--address", "0xabc", "--type", "bitcoin", "--label", "L", "--file", notJSON}, `--type "bitcoin": use one of ethereum, solana`},
		{contract, "--file F is required"},
		{append(contract[:len(contract):len(contract)], "--file", big), "is over the limit: more than 400000 bytes of 400000 allowed"},
		{append(contract[:len(contract):len(contract)], "--file", notJSON), "smartContractInterface: is not valid JSON"},
		{[]string{"wallet-account", "delete"}, "wallet-account delete needs at least one wallet account id"},
		{[]string{"oauth2-credential", "update", "--id", "c", "--client-id", "x"}, `--provider "": use one of x, discord`},
		{[]string{"oauth2-credential", "update", "--id", "c", "--provider", "x"}, "invalid parameter clientId"},
		{[]string{"oauth2-credential", "update", "--id", "c", "--provider", "x", "--client-id", "i", "--secret", "s"}, "flag provided but not defined: -secret"},
		{[]string{"tvc-deployment", "delete"}, "tvc-deployment delete takes one argument, the deployment id"},
		{[]string{"session", "create-read-only", "x"}, "takes no arguments"},
		{[]string{"onramp", "status"}, "onramp status takes one argument, the transaction id"},
	})
}

// submitAndApprove runs a submit verb as alice, has bob approve when it waits,
// and returns the activity as the service then holds it. The approval exits 0,
// or 1 when it made the activity run and the run FAILED.
func (e *verbEnv) submitAndApprove(stdin string, args ...string) *api.Activity {
	e.t.Helper()
	code, out, errOut := e.run(stdin, args...)
	wantExit(e.t, strings.Join(args[:2], " "), code, 0, out, errOut)
	id := activityIDFrom(e.t, out)
	ctx := context.Background()
	if a, err := e.client("alice").GetActivity(ctx, id); err == nil && !api.IsTerminal(a.Status) {
		code, out, errOut = e.run("", "activity", "approve", "--yes", "--profile", "bob", id)
		want := 0
		if strings.Contains(out, "ACTIVITY_STATUS_FAILED") {
			want = 1
		}
		wantExit(e.t, "approve "+id, code, want, out, errOut)
	}
	a, err := e.client("alice").GetActivity(ctx, id)
	if err != nil {
		e.t.Fatal(err)
	}
	if (a.Status == api.StatusFailed) != (code == 1) {
		e.t.Errorf("approve %s exited %d for a %s activity", id, code, a.Status)
	}
	return a
}

func TestInvitationContractTagEndToEnd(t *testing.T) {
	e := newVerbEnv(t)
	a := e.submitAndApprove("", "invitation", "create", "--name", "erin", "--email", "erin@example.com", "--access", "web")
	if a.Status != api.StatusCompleted || a.Result.CreateInvitationsResult == nil || len(a.Result.CreateInvitationsResult.InvitationIDs) != 1 {
		t.Fatalf("invitation: %+v", a)
	}
	if inv := a.Intent.CreateInvitationsIntent.Invitations[0]; inv.SenderUserID != e.userID("alice") || inv.AccessType != api.AccessTypeWeb {
		t.Errorf("sender should default to the profile's user: %+v", inv)
	}

	abi := `[{"type":"function","name":"transfer","inputs":[{"name":"to","type":"address"}]}]`
	code, out, errOut := e.run(abi, "contract", "create", "--address", "0x6B175474E89094C44Da98b954EedeAC495271d0F", "--type", "ethereum", "--label", "DAI", "--file", "-", "--json")
	wantExit(t, "contract create", code, 0, out, errOut)
	if !strings.Contains(errOut, fmt.Sprintf("interface: %d bytes of 400000 allowed", len(abi))) {
		t.Errorf("the size should be shown against the limit: %s", errOut)
	}
	var reply api.ActivityResponse
	if err := json.Unmarshal([]byte(out), &reply); err != nil {
		t.Fatalf("contract --json: %v\n%s", err, out)
	}
	code, out, errOut = e.run("", "activity", "approve", "--yes", "--profile", "bob", reply.Activity.ID)
	wantExit(t, "approve contract", code, 0, out, errOut)
	got, err := e.client("alice").GetActivity(context.Background(), reply.Activity.ID)
	if err != nil || got.Result.CreateSmartContractInterfaceResult == nil || got.Intent.CreateSmartContractInterfaceIntent.SmartContractInterface != abi {
		t.Fatalf("contract: %+v %v", got, err)
	}

	a = e.submitAndApprove("", "tag", "create", "--name", "oncall", e.userID("bob"), e.userID("carol"))
	if a.Result.CreateUserTagResult == nil {
		t.Fatalf("tag: %+v", a)
	}
	bob, err := e.client("alice").GetUser(context.Background(), e.userID("bob"))
	if err != nil || !strings.Contains(strings.Join(bob.UserTags, ","), a.Result.CreateUserTagResult.UserTagID) {
		t.Errorf("bob lacks the new tag: %+v %v", bob, err)
	}

	// A tag with no users yet (SPEC.md requires the userIds key, not items).
	a = e.submitAndApprove("", "tag", "create", "--name", "given-later")
	if a.Status != api.StatusCompleted || a.Result.CreateUserTagResult == nil || a.Result.CreateUserTagResult.UserTagID == "" ||
		a.Result.CreateUserTagResult.UserIDs == nil || len(a.Result.CreateUserTagResult.UserIDs) != 0 {
		t.Fatalf("tag without users: %s %+v", a.Status, a.Result.CreateUserTagResult)
	}
}

func TestWalletAccountAndTvcDeletionEndToEnd(t *testing.T) {
	e := newVerbEnv(t)
	ctx := context.Background()
	// The demo's ids, from its own activities' intents.
	acts, err := e.client("alice").ListActivities(ctx, api.ListActivitiesOptions{Limit: 100})
	if err != nil {
		t.Fatal(err)
	}
	var treasury, deployment string
	for _, a := range acts {
		if p := a.Intent.DeleteWalletAccountsIntent; p != nil && a.Status == api.StatusFailed {
			treasury = p.WalletAccountIDs[0]
		}
		if p := a.Intent.DeleteTvcDeploymentIntent; p != nil {
			deployment = p.DeploymentID
		}
	}
	if treasury == "" || deployment == "" {
		t.Fatal("demo ids not found")
	}
	code, out, errOut := e.run("", "wallet-account", "delete", treasury)
	wantExit(t, "no --yes", code, 2, out, errOut)

	// Policies deny deleting the treasury, but the root quorum acting together
	// bypasses them.
	a := e.submitAndApprove("", "wallet-account", "delete", "--yes", "--without-export", treasury)
	if a.Status != api.StatusCompleted || a.Result.DeleteWalletAccountsResult == nil || a.Intent.DeleteWalletAccountsIntent.DeleteWithoutExport == nil {
		t.Fatalf("wallet account deletion: %+v", a)
	}
	again := e.submitAndApprove("", "wallet-account", "delete", "--yes", "--without-export", treasury)
	if again.Status != api.StatusFailed {
		t.Errorf("deleting it again should fail (it is gone): %s", again.Status)
	}

	a = e.submitAndApprove("", "tvc-deployment", "delete", "--yes", deployment)
	if a.Status != api.StatusCompleted || a.Result.DeleteTvcDeploymentResult == nil {
		t.Fatalf("tvc deletion: %+v", a)
	}
	again = e.submitAndApprove("", "tvc-deployment", "delete", "--yes", deployment)
	if again.Status != api.StatusFailed || !strings.Contains(again.Failure.Message, "not found") {
		t.Errorf("deleting the deployment again should fail, not found: %+v", again.Failure)
	}
}

func TestOauth2CredentialSecretNeverShown(t *testing.T) {
	e := newVerbEnv(t)
	const secret = "s3cr3t-Client-VALUE-7f1e"
	code, out, errOut := e.run(secret+"\n", "oauth2-credential", "update", "--id", "no-such-credential", "--provider", "discord", "--client-id", "1234", "--json")
	wantExit(t, "update", code, 0, out, errOut)
	var reply api.ActivityResponse
	if err := json.Unmarshal([]byte(out), &reply); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	// The service accepted the request only after decrypting the secret with its
	// TLS fetcher key (it refuses undecryptable secrets with a 400): the
	// client-side encryption is right, and only ciphertext went on the wire.
	enc := reply.Activity.Intent.UpdateOauth2CredentialIntent.EncryptedClientSecret
	if enc == "" || strings.Contains(enc, secret) {
		t.Fatalf("encryptedClientSecret %q", enc)
	}
	id := reply.Activity.ID
	code2, out2, errOut2 := e.run("", "activity", "approve", "--yes", "--profile", "bob", id)
	code3, out3, errOut3 := e.run("", "activity", "get", "--json", id)
	// The approval runs it and the run fails: exit 1, saying so.
	if code2 != 1 || code3 != 0 || !strings.Contains(errOut2, "ran and FAILED") {
		t.Fatalf("approve %d get %d: %s %s", code2, code3, errOut2, errOut3)
	}
	// The credential does not exist: the activity fails there, not on the secret.
	a, _ := e.client("alice").GetActivity(context.Background(), id)
	if a == nil || a.Failure == nil || !strings.Contains(a.Failure.Message, "not found") {
		t.Errorf("want a not-found failure: %+v", a)
	}
	for what, text := range map[string]string{"stdout": out + out2 + out3, "stderr": errOut + errOut2 + errOut3} {
		if strings.Contains(text, secret) || strings.Contains(strings.ToLower(text), strings.ToLower(secret)) {
			t.Errorf("the secret appears in %s", what)
		}
	}

	// Without a secret on standard input it stops before sending.
	code, out, errOut = e.run("", "oauth2-credential", "update", "--id", "c", "--provider", "x", "--client-id", "i")
	wantExit(t, "no secret", code, 2, out, errOut)
	if !strings.Contains(errOut, "client secret: standard input is empty") {
		t.Errorf("no secret: %s", errOut)
	}
}

func TestSessionAndOnrampEndToEnd(t *testing.T) {
	e := newVerbEnv(t)
	code, out, errOut := e.run("", "session", "create-read-only", "--profile", "operator", "--json")
	wantExit(t, "session", code, 0, out, errOut)
	var reply api.ActivityResponse
	if err := json.Unmarshal([]byte(out), &reply); err != nil || reply.Activity.Result.CreateReadOnlySessionResult == nil ||
		reply.Activity.Result.CreateReadOnlySessionResult.UserID != e.userID("operator") {
		t.Fatalf("session: %v\n%s", err, out)
	}
	code, out, errOut = e.run("", "session", "create-read-only", "--profile", "readonly")
	wantExit(t, "read-only profile", code, 1, out, errOut)

	want, err := e.client("alice").GetOnrampTransactionStatus(context.Background(), "onramp-demo-1", false)
	if err != nil {
		t.Fatal(err)
	}
	code, out, errOut = e.run("", "onramp", "status", "onramp-demo-1")
	wantExit(t, "onramp", code, 0, out, errOut)
	if strings.TrimSpace(out) != want {
		t.Errorf("onramp status %q, service says %q", out, want)
	}
	code, out, errOut = e.run("", "onramp", "status", "--refresh", "--json", "onramp-demo-2")
	wantExit(t, "onramp --json", code, 0, out, errOut)
	if !strings.Contains(out, `"transactionStatus"`) {
		t.Errorf("onramp --json: %s", out)
	}
	code, out, errOut = e.run("", "onramp", "status", "onramp-nope")
	wantExit(t, "onramp unknown", code, 1, out, errOut)
}
