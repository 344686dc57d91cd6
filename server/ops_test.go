//lint:file-ignore SA1019 these tests build keys, points and signatures from raw big-number coordinates on purpose (high-S twins, the other point of an X, WebCrypto-style keys), which only the deprecated fields express

package server

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"math/big"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/keys"
	"github.com/vigil-console/vigil/proof"
)

// soloEnv is an organization whose root quorum is 1: alice's activities complete at once.
func soloEnv(t *testing.T) *testEnv { return newEnvWith(t, envOptions{threshold: 1}) }

// mustComplete(t)(client.Op(...)) checks that the activity completed.
func mustComplete(t *testing.T) func(*api.Activity, error) *api.Activity {
	return func(act *api.Activity, err error) *api.Activity { return checkCompleted(t, act, err) }
}

func checkCompleted(t *testing.T, act *api.Activity, err error) *api.Activity {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
	if act.Status != api.StatusCompleted {
		t.Fatalf("status %s (failure %+v), want COMPLETED", act.Status, act.Failure)
	}
	return act
}

// mustFail(t, mention)()(client.Op(...)) checks that the activity failed saying mention.
func mustFail(t *testing.T, mention string) func(*api.Activity, error) {
	return func(act *api.Activity, err error) { checkFailed(t, act, err, mention) }
}

func checkFailed(t *testing.T, act *api.Activity, err error, mention string) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
	if act.Status != api.StatusFailed || act.Failure == nil || !strings.Contains(act.Failure.Message, mention) {
		t.Fatalf("status %s failure %+v, want FAILED mentioning %q", act.Status, act.Failure, mention)
	}
}

func TestInvitationsAndSmartContractInterfaces(t *testing.T) {
	e := soloEnv(t)
	ctx := ctxT(t)
	alice := e.clients["alice"]
	act := mustComplete(t)(alice.CreateInvitations(ctx, api.CreateInvitationsParams{Invitations: []api.Invitation{
		{ReceiverUserName: "a", ReceiverUserEmail: "a@example.com", AccessType: api.AccessTypeWeb, SenderUserID: e.user("alice")},
		{ReceiverUserName: "b", ReceiverUserEmail: "b@example.com", ReceiverUserTags: []string{e.org.TagIDs["ops"]}, AccessType: api.AccessTypeAll, SenderUserID: e.user("alice")}}}))
	if ids := act.Result.CreateInvitationsResult.InvitationIDs; len(ids) != 2 || ids[0] == ids[1] {
		t.Fatalf("invitation ids %v", ids)
	}
	if act.Intent.CreateInvitationsIntent == nil || act.Intent.CreateInvitationsIntent.Invitations[1].ReceiverUserName != "b" {
		t.Fatalf("intent does not repeat the parameters: %+v", act.Intent)
	}
	mustFail(t, "senderUserId")(alice.CreateInvitations(ctx, api.CreateInvitationsParams{Invitations: []api.Invitation{
		{ReceiverUserName: "a", ReceiverUserEmail: "a@example.com", AccessType: api.AccessTypeWeb, SenderUserID: "nobody"}}}))

	act = mustComplete(t)(alice.CreateSmartContractInterface(ctx, api.CreateSmartContractInterfaceParams{SmartContractAddress: "0xabc",
		SmartContractInterface: `[{"type":"function","name":"f"}]`, Type: api.SmartContractInterfaceEthereum, Label: "abi"}))
	if act.Result.CreateSmartContractInterfaceResult.SmartContractInterfaceID == "" {
		t.Fatal("no interface id")
	}
}

func TestFeaturesReplaceValues(t *testing.T) {
	e := soloEnv(t)
	ctx := ctxT(t)
	alice := e.clients["alice"]
	mustComplete(t)(alice.SetOrganizationFeature(ctx, api.SetOrganizationFeatureParams{Name: api.FeatureSMSAuth, Value: "one"}))
	act := mustComplete(t)(alice.SetOrganizationFeature(ctx, api.SetOrganizationFeatureParams{Name: api.FeatureSMSAuth, Value: "two"}))
	want := []api.Feature{{Name: api.FeatureSMSAuth, Value: "two"}}
	if got := act.Result.SetOrganizationFeatureResult.Features; !slices.Equal(got, want) {
		t.Fatalf("features %+v, want %+v", got, want)
	}
	cfg, _ := alice.GetOrganizationConfigs(ctx)
	if !slices.Equal(cfg.Features, want) {
		t.Fatalf("configs features %+v", cfg.Features)
	}
	r := e.post(e.submitPath("set_organization_feature"), e.body(api.TypeSetOrganizationFeature, api.SetOrganizationFeatureParams{Name: api.FeatureWebhook, Value: "not a url"}, nil), e.keys["alice"])
	wantError(t, r, 400, api.CodeInvalidArgument, "INVALID_PARAMETER")
}

func TestUpdateOauth2Credential(t *testing.T) {
	e := soloEnv(t)
	ctx := ctxT(t)
	id, err := e.srv.AddOauth2Credential(ctx, e.org.ID, api.Oauth2ProviderX, "old-client")
	if err != nil {
		t.Fatal(err)
	}
	target, _ := hex.DecodeString(e.srv.TLSFetcherPublicKey())
	secret, err := keys.EnvelopeEncrypt(target, []byte("s3cret"))
	if err != nil {
		t.Fatal(err)
	}
	alice := e.clients["alice"]
	act := mustComplete(t)(alice.UpdateOauth2Credential(ctx, api.UpdateOauth2CredentialParams{Oauth2CredentialID: id,
		Provider: api.Oauth2ProviderDiscord, ClientID: "new-client", EncryptedClientSecret: secret}))
	if act.Result.UpdateOauth2CredentialResult.Oauth2CredentialID != id {
		t.Fatalf("result %+v", act.Result)
	}
	provider, client, plain, err := e.srv.Oauth2Credential(ctx, e.org.ID, id)
	if err != nil || provider != api.Oauth2ProviderDiscord || client != "new-client" || string(plain) != "s3cret" {
		t.Fatalf("stored credential: %s %s %q %v", provider, client, plain, err)
	}
	// Encrypted to some other key: refused before any activity exists.
	wrongTarget, _ := hex.DecodeString("045e899f1fcf7d12b3c8fd997a7a43bb853dd4e8d63419a8f867c70aacc1c4cf9d04848baca41f0c85ffbbd23cbf78967501cd8eca9e4a6369370a9a38f70d13c0")
	wrong, err := keys.EnvelopeEncrypt(wrongTarget, []byte("s3cret"))
	if err != nil {
		t.Fatal(err)
	}
	r := e.post(e.submitPath("update_oauth2_credential"), e.body(api.TypeUpdateOauth2Credential, api.UpdateOauth2CredentialParams{
		Oauth2CredentialID: id, Provider: api.Oauth2ProviderX, ClientID: "c", EncryptedClientSecret: wrong}, nil), e.keys["alice"])
	wantError(t, r, 400, api.CodeInvalidArgument, "UNDECRYPTABLE_SECRET")
	mustFail(t, "not found")(alice.UpdateOauth2Credential(ctx, api.UpdateOauth2CredentialParams{Oauth2CredentialID: "missing",
		Provider: api.Oauth2ProviderX, ClientID: "c", EncryptedClientSecret: secret}))
}

func TestDeleteWalletAccountsNeedsExportOrFlag(t *testing.T) {
	e := soloEnv(t)
	ctx := ctxT(t)
	_, ids, err := e.srv.AddWallet(ctx, e.org.ID, "w", []WalletAccountSpec{{Address: "0x1", Exported: true}, {Address: "0x2"}})
	if err != nil {
		t.Fatal(err)
	}
	exported, never := ids[0], ids[1]
	alice := e.clients["alice"]
	mustFail(t, never)(alice.DeleteWalletAccounts(ctx, api.DeleteWalletAccountsParams{WalletAccountIDs: []string{exported, never}}))
	left, _ := e.srv.WalletAccountIDs(ctx, e.org.ID)
	if len(left) != 2 {
		t.Fatalf("a failed deletion removed accounts: %v left", left)
	}
	no := false
	act := mustComplete(t)(alice.DeleteWalletAccounts(ctx, api.DeleteWalletAccountsParams{WalletAccountIDs: []string{exported}, DeleteWithoutExport: &no}))
	if !slices.Equal(act.Result.DeleteWalletAccountsResult.WalletAccountIDs, []string{exported}) {
		t.Fatalf("result %+v", act.Result)
	}
	yes := true
	mustComplete(t)(alice.DeleteWalletAccounts(ctx, api.DeleteWalletAccountsParams{WalletAccountIDs: []string{never}, DeleteWithoutExport: &yes}))
	if left, _ := e.srv.WalletAccountIDs(ctx, e.org.ID); len(left) != 0 {
		t.Fatalf("accounts left: %v", left)
	}
}

func TestUserTagsAndAPIKeys(t *testing.T) {
	e := soloEnv(t)
	ctx := ctxT(t)
	alice := e.clients["alice"]
	act := mustComplete(t)(alice.CreateUserTag(ctx, api.CreateUserTagParams{UserTagName: "auditors", UserIDs: []string{e.user("bob"), e.user("carol")}}))
	tag := act.Result.CreateUserTagResult.UserTagID
	bob, err := alice.GetUser(ctx, e.user("bob"))
	if err != nil || !slices.Contains(bob.UserTags, tag) || len(bob.APIKeys) != 1 {
		t.Fatalf("bob: %v %+v", err, bob)
	}
	key, err := alice.GetAPIKey(ctx, bob.APIKeys[0].APIKeyID)
	if err != nil || key.Credential.PublicKey != e.keys["bob"].PublicKeyHex() || key.Credential.Type != api.CredentialAPIKeyP256 || key.CreatedAt.IsZero() {
		t.Fatalf("bob's key: %v %+v", err, key)
	}
	if _, err := e.clients["bob"].Whoami(ctx); err != nil {
		t.Fatal(err)
	}
	mustFail(t, key.APIKeyID)(alice.DeleteAPIKeys(ctx, api.DeleteAPIKeysParams{UserID: e.user("carol"), APIKeyIDs: []string{key.APIKeyID}}))
	mustComplete(t)(alice.DeleteAPIKeys(ctx, api.DeleteAPIKeysParams{UserID: e.user("bob"), APIKeyIDs: []string{key.APIKeyID}}))
	if _, err := e.clients["bob"].Whoami(ctx); !errors.Is(err, api.ErrUnauthenticated) {
		t.Fatalf("deleted key still works: %v", err)
	}
	if _, err := alice.GetAPIKey(ctx, key.APIKeyID); !errors.Is(err, api.ErrNotFound) {
		t.Fatalf("deleted key still listed: %v", err)
	}
}

func TestReadOnlySessionTvcAndMfa(t *testing.T) {
	e := soloEnv(t)
	ctx := ctxT(t)
	alice := e.clients["alice"]
	before := time.Now()
	act := mustComplete(t)(alice.CreateReadOnlySession(ctx))
	r := act.Result.CreateReadOnlySessionResult
	exp, _ := strconv.ParseInt(r.SessionExpiry, 10, 64)
	if r.UserID != e.user("alice") || r.Username != "alice" || r.OrganizationName != "Test Org" || r.Session == "" ||
		exp < before.Add(time.Hour).Unix()-1 || exp > time.Now().Add(time.Hour).Unix()+1 {
		t.Fatalf("session %+v", r)
	}

	dep, _ := e.srv.AddTvcDeployment(ctx, e.org.ID, "signer", "canary")
	act = mustComplete(t)(alice.DeleteTvcDeployment(ctx, api.DeleteTvcDeploymentParams{DeploymentID: dep}))
	if act.Result.DeleteTvcDeploymentResult.DeploymentID != dep {
		t.Fatalf("result %+v", act.Result)
	}
	mustFail(t, dep)(e.later("alice").DeleteTvcDeployment(ctx, api.DeleteTvcDeploymentParams{DeploymentID: dep}))

	steps := []api.AuthenticationStep{{Any: []api.AuthenticationMethod{{Type: api.AuthPasskey}, {Type: api.AuthEmailOTP}}}}
	for _, o := range []int{2, 0, 1} {
		mustComplete(t)(alice.CreateMfaPolicy(ctx, api.CreateMfaPolicyParams{UserID: e.user("bob"), MfaPolicyName: "p" + strconv.Itoa(o),
			Condition: "true", RequiredAuthenticationMethods: steps, Order: o}))
	}
	mustComplete(t)(alice.CreateMfaPolicy(ctx, api.CreateMfaPolicyParams{UserID: e.user("carol"), MfaPolicyName: "c", Condition: "true", RequiredAuthenticationMethods: steps}))
	list, err := alice.GetMfaPolicies(ctx, e.user("bob"))
	if err != nil || len(list) != 3 {
		t.Fatalf("%v %+v", err, list)
	}
	for i, p := range list {
		if p.Order != i || p.MfaPolicyName != "p"+strconv.Itoa(i) || len(p.RequiredAuthenticationMethods[0].Any) != 2 {
			t.Fatalf("MFA policy %d: %+v", i, p)
		}
	}
	if all := allMfaPolicies(t, alice); len(all) != 4 {
		t.Fatalf("all MFA policies: %d", len(all))
	}
}

func TestOnrampStatusRefresh(t *testing.T) {
	e := soloEnv(t)
	ctx := ctxT(t)
	if err := e.srv.AddOnrampTransaction(ctx, e.org.ID, "tx-1", "PENDING"); err != nil {
		t.Fatal(err)
	}
	alice := e.clients["alice"]
	for _, step := range []struct {
		refresh bool
		want    string
	}{{false, "PENDING"}, {false, "PENDING"}, {true, "PROCESSING"}, {true, "COMPLETED"}, {true, "COMPLETED"}} {
		got, err := alice.GetOnrampTransactionStatus(ctx, "tx-1", step.refresh)
		if err != nil || got != step.want {
			t.Fatalf("refresh=%v: %q %v, want %q", step.refresh, got, err, step.want)
		}
	}
	if _, err := alice.GetOnrampTransactionStatus(ctx, "tx-2", false); !errors.Is(err, api.ErrNotFound) {
		t.Fatalf("unknown transaction: %v", err)
	}
}

func TestListActivitiesFiltersAndPages(t *testing.T) {
	e := soloEnv(t)
	ctx := ctxT(t)
	alice := e.clients["alice"]
	var ids []string
	for i := 0; i < 12; i++ {
		act, err := alice.CreateUserTag(ctx, api.CreateUserTagParams{UserTagName: "t" + strconv.Itoa(i), UserIDs: []string{e.user("bob")}})
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, act.ID)
	}
	failed, _ := alice.DeleteTvcDeployment(ctx, api.DeleteTvcDeploymentParams{DeploymentID: "missing"})
	newestFirst := append([]string{failed.ID}, reversed(ids)...)
	page, err := alice.ListActivities(ctx, api.ListActivitiesOptions{})
	if err != nil || !slices.Equal(activityIDs(page), newestFirst[:10]) {
		t.Fatalf("default page: %v %v", err, activityIDs(page))
	}
	next, _ := alice.ListActivities(ctx, api.ListActivitiesOptions{After: page[9].ID, Limit: 5})
	if !slices.Equal(activityIDs(next), newestFirst[10:13]) {
		t.Fatalf("after page: %v", activityIDs(next))
	}
	prev, _ := alice.ListActivities(ctx, api.ListActivitiesOptions{Before: newestFirst[5], Limit: 2})
	if !slices.Equal(activityIDs(prev), newestFirst[3:5]) {
		t.Fatalf("before page: %v, want %v", activityIDs(prev), newestFirst[3:5])
	}
	onlyFailed, _ := alice.ListActivities(ctx, api.ListActivitiesOptions{Statuses: []string{api.StatusFailed}})
	if !slices.Equal(activityIDs(onlyFailed), []string{failed.ID}) {
		t.Fatalf("failed filter: %v", activityIDs(onlyFailed))
	}
	byType, _ := alice.ListActivities(ctx, api.ListActivitiesOptions{Types: []string{api.TypeCreateUserTag}, Limit: 100})
	if len(byType) != 12 {
		t.Fatalf("type filter: %d", len(byType))
	}
	// Another organization sees none of them.
	other, _ := e.srv.CreateOrganization(context.Background(), "Other", 1, []UserSpec{{Name: "m", Root: true, APIKeys: []APIKeySpec{{PublicKey: e.newKey("m").PublicKeyHex()}}}})
	oc, _ := api.NewClient(e.http.URL, other.ID, e.keys["m"])
	if acts, _ := oc.ListActivities(ctx, api.ListActivitiesOptions{}); len(acts) != 0 {
		t.Fatalf("other org sees %d activities", len(acts))
	}
	if _, err := oc.GetActivity(ctx, ids[0]); !errors.Is(err, api.ErrNotFound) {
		t.Fatalf("other org reads an activity: %v", err)
	}
}

func reversed(s []string) []string {
	out := slices.Clone(s)
	slices.Reverse(out)
	return out
}

func activityIDs(acts []api.Activity) []string {
	var ids []string
	for _, a := range acts {
		ids = append(ids, a.ID)
	}
	return ids
}

func TestAppProofsSignedByTheBootProofKey(t *testing.T) {
	e := soloEnv(t)
	ctx := ctxT(t)
	alice := e.clients["alice"]
	act := mustComplete(t)(alice.CreateUserTag(ctx, api.CreateUserTagParams{UserTagName: "p", UserIDs: []string{e.user("bob")}}, api.WithAppProofs()))
	proofs, err := alice.ListAppProofs(ctx, act.ID)
	if err != nil || len(proofs) != 1 {
		t.Fatalf("%v %+v", err, proofs)
	}
	p := proofs[0]
	boot, err := alice.GetLatestBootProof(ctx, AppProofSigner)
	if err != nil {
		t.Fatal(err)
	}
	if p.Scheme != api.AppProofSchemeEphemeralKeyP256 || p.PublicKey != boot.EphemeralPublicKeyHex {
		t.Fatalf("proof key %s, boot proof key %s", p.PublicKey, boot.EphemeralPublicKeyHex)
	}
	// DESIGN.md §5.8, checked with the standard library: the signing key is bytes
	// 65..130 of the 130-byte key, the signature r||s over SHA-256(payload).
	pub, _ := hex.DecodeString(p.PublicKey)
	sig, _ := hex.DecodeString(p.Signature)
	if len(pub) != 130 || len(sig) != 64 {
		t.Fatalf("key %d bytes, signature %d bytes", len(pub), len(sig))
	}
	x, y := elliptic.Unmarshal(elliptic.P256(), pub[65:])
	sum := sha256.Sum256([]byte(p.ProofPayload))
	if x == nil || !ecdsa.Verify(&ecdsa.PublicKey{Curve: elliptic.P256(), X: x, Y: y}, sum[:], new(big.Int).SetBytes(sig[:32]), new(big.Int).SetBytes(sig[32:])) {
		t.Fatal("app proof signature does not verify")
	}
	var payload appProofPayload
	if err := json.Unmarshal([]byte(p.ProofPayload), &payload); err != nil {
		t.Fatal(err)
	}
	resultJSON, _ := json.Marshal(act.Result)
	resultSum := sha256.Sum256(resultJSON)
	if payload.ActivityID != act.ID || payload.Fingerprint != act.Fingerprint || payload.ResultHash != hex.EncodeToString(resultSum[:]) {
		t.Fatalf("payload %+v", payload)
	}
	// And the console's verifier accepts the pair, anchored at the local demo root.
	rootPEM, err := e.srv.EnsureEnclaves(ctx)
	if err != nil {
		t.Fatal(err)
	}
	roots, err := proof.ParseRootsPEM("demo", rootPEM)
	if err != nil {
		t.Fatal(err)
	}
	if rep := proof.VerifyBootProof(*boot, proof.Options{Roots: roots, AppProofs: proofs}); len(rep.FailedChecks()) > 0 {
		t.Fatalf("verification fails: %v", rep.FailedChecks())
	}
	same, err := alice.GetBootProof(ctx, boot.EphemeralPublicKeyHex)
	if err != nil || same.EnclaveApp != AppProofSigner || same.AwsAttestationDocB64 != boot.AwsAttestationDocB64 {
		t.Fatalf("get_boot_proof: %v %+v", err, same)
	}
	if _, err := alice.GetLatestBootProof(ctx, "no-such-app"); !errors.Is(err, api.ErrNotFound) {
		t.Fatalf("unknown app: %v", err)
	}
	if none, _ := alice.ListAppProofs(ctx, mustComplete(t)(alice.CreateReadOnlySession(ctx)).ID); len(none) != 0 {
		t.Fatal("app proofs without generateAppProofs")
	}
}
