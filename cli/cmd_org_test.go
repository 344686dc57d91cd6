package cli

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
)

func TestMfaFeatureUserAPIKeyValidation(t *testing.T) {
	checkUsageErrors(t, []usageCase{
		{[]string{"mfa", "status"}, "mfa status takes one argument, the activity id"},
		{[]string{"mfa", "get"}, "mfa get takes one argument, the MFA policy id"},
		{[]string{"mfa", "create", "--user", "u", "--name", "n", "--condition", "true", "--step", "retina"}, `"retina" is not an authentication type`},
		{[]string{"mfa", "create", "--user", "u", "--name", "n", "--condition", "true"}, "invalid parameter requiredAuthenticationMethods: is required but empty"},
		{[]string{"mfa", "create", "--name", "n", "--condition", "true", "--step", "passkey"}, "invalid parameter userId"},
		{[]string{"mfa", "create", "--user", "u", "--name", "n", "--condition", "true", "--step", "passkey", "--order", "-1"}, `invalid value "-1" for flag -order: a negative number is not taken here`},
		{[]string{"mfa", "create", "--user", "u", "--name", "n", "--condition", "true", "--step", "passkey", "--order", "10001"}, "invalid parameter order"},
		{[]string{"mfa", "create", "--user", "u", "--name", "n", "--condition", "true ==", "--step", "passkey", "--order", "0"}, "--condition: 1 problem(s); the first: condition at line 1, column 8; nothing was sent"},
		// order is required (SPEC.md): 0 is not silently taken for it.
		{[]string{"mfa", "create", "--user", "u", "--name", "n", "--condition", "true", "--step", "passkey"}, "mfa create: --order N is required"},
		{[]string{"feature", "set"}, "feature set takes one argument, the feature name"},
		{[]string{"feature", "set", "dark_mode"}, `"dark_mode" is not a feature; use one of root_user_email_recovery`},
		{[]string{"feature", "set", "--value", "ftp://x", "webhook"}, "takes an absolute http(s) URL"},
		{[]string{"feature", "set", "--value", "https://a.example/path", "webauthn_origins"}, "WEBAUTHN_ORIGINS origin 1:"},
		{[]string{"feature", "set", "--value", "yes please", "email_auth"}, "EMAIL_AUTH is a toggle"},
		{[]string{"user", "get"}, "user get takes one argument, the user id"},
		{[]string{"user", "list", "x"}, "takes no arguments"},
		{[]string{"apikey", "get"}, "apikey get takes one argument, the API key id"},
		{[]string{"apikey", "delete"}, "apikey delete needs at least one API key id"},
	})
	for name, ok := range map[string]bool{"": true, "https://hooks.example.com/x": true, "http://localhost:9000": true, "hooks.example.com": false} {
		if err := api.CheckFeatureValue(api.FeatureWebhook, name); (err == nil) != ok {
			t.Errorf("webhook %q: %v", name, err)
		}
	}
	if err := api.CheckFeatureValue(api.FeatureWebauthnOrigins, "https://a.example.com, http://localhost:3000"); err != nil {
		t.Errorf("two origins: %v", err)
	}
}

func TestMfaEndToEnd(t *testing.T) {
	e := newVerbEnv(t)
	ctx := context.Background()
	operator := e.userID("operator")
	code, out, errOut := e.run("", "mfa", "create", "--user", operator, "--name", "Passkey then code", "--condition", "activity.action == 'DELETE'",
		"--step", "passkey", "--step", "email_otp,AUTHENTICATION_TYPE_SMS_OTP", "--order", "2", "--notes", "cli")
	wantExit(t, "mfa create", code, 0, out, errOut)
	id := activityIDFrom(t, out)
	if a, _ := e.client("alice").GetActivity(ctx, id); a != nil && !api.IsTerminal(a.Status) {
		code, out, errOut = e.run("", "activity", "approve", "--yes", "--profile", "bob", id)
		wantExit(t, "approve", code, 0, out, errOut)
	}
	a, err := e.client("alice").GetActivity(ctx, id)
	if err != nil || a.Result.CreateMfaPolicyResult == nil {
		t.Fatalf("MFA policy not created: %+v %v", a, err)
	}
	mfaID := a.Result.CreateMfaPolicyResult.MfaPolicyID
	list, err := e.client("alice").GetMfaPolicies(ctx, operator)
	if err != nil {
		t.Fatal(err)
	}
	var created *api.MfaPolicy
	for i := range list {
		if list[i].MfaPolicyID == mfaID {
			created = &list[i]
		}
	}
	if created == nil || len(created.RequiredAuthenticationMethods) != 2 || len(created.RequiredAuthenticationMethods[1].Any) != 2 || created.Order != 2 {
		t.Fatalf("the service holds %+v", created)
	}

	code, out, errOut = e.run("", "mfa", "list", "--user", operator)
	wantExit(t, "mfa list", code, 0, out, errOut)
	if !strings.Contains(out, "PASSKEY, then EMAIL_OTP or SMS_OTP") || strings.Contains(out, " alice ") || !strings.Contains(out, " operator ") {
		t.Errorf("list --user should show only operator's policies, steps readable:\n%s", out)
	}
	// Without --user: every user's, through the service's per-user query.
	code, out, errOut = e.run("", "mfa", "list")
	wantExit(t, "mfa list", code, 0, out, errOut)
	if !strings.Contains(out, mfaID) || !strings.Contains(out, " alice ") || strings.Contains(out, e.userID("alice")) {
		t.Errorf("mfa list should show every user's policies by user name (the demo gives alice some):\n%s", out)
	}
	code, out, errOut = e.run("", "mfa", "list", "--json")
	wantExit(t, "mfa list --json without --user", code, 2, out, errOut)
	for _, args := range [][]string{{"mfa", "get", "--json", mfaID}, {"mfa", "get", "--json", "--user", operator, mfaID}} {
		code, out, errOut = e.run("", args...)
		wantExit(t, strings.Join(args, " "), code, 0, out, errOut)
		var got struct{ MfaPolicy api.MfaPolicy }
		if err := json.Unmarshal([]byte(out), &got); err != nil || got.MfaPolicy.MfaPolicyName != "Passkey then code" {
			t.Errorf("%s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	code, out, errOut = e.run("", "mfa", "get", "no-such-id")
	wantExit(t, "mfa get unknown", code, 1, out, errOut)
}

func TestFeatureSetEndToEnd(t *testing.T) {
	e := newVerbEnv(t)
	ctx := context.Background()
	// (Not the webhook: its deliveries would hold the service's shutdown.)
	origins := "https://app.example.com, http://localhost:3000"
	code, out, errOut := e.run("", "feature", "set", "--value", origins, "webauthn_origins")
	wantExit(t, "feature set", code, 0, out, errOut)
	if !strings.Contains(errOut, "root quorum") {
		t.Errorf("feature set should say the root quorum must approve: %s", errOut)
	}
	id := activityIDFrom(t, out)
	code, out, errOut = e.run("", "activity", "approve", "--yes", "--profile", "carol", id)
	wantExit(t, "approve", code, 0, out, errOut)

	cfg, err := e.client("alice").GetOrganizationConfigs(ctx)
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, f := range cfg.Features {
		found = found || (f.Name == api.FeatureWebauthnOrigins && f.Value == origins)
	}
	if !found {
		t.Fatalf("webauthn origins not set: %+v", cfg.Features)
	}
	code, out, errOut = e.run("", "feature", "list", "--json")
	wantExit(t, "feature list --json", code, 0, out, errOut)
	var reply api.GetOrganizationConfigsResponse
	if err := json.Unmarshal([]byte(out), &reply); err != nil || reply.Configs.Quorum.Threshold != 2 {
		t.Fatalf("feature list --json: %v\n%s", err, out)
	}
	code, out, errOut = e.run("", "feature", "list")
	wantExit(t, "feature list", code, 0, out, errOut)
	if !strings.Contains(out, "FEATURE_NAME_WEBAUTHN_ORIGINS  "+api.Quote(origins)) || !strings.Contains(out, "root quorum: 2 of") {
		t.Errorf("feature list:\n%s", out)
	}
	if !strings.Contains(out, "alice ("+e.userID("alice")+")") {
		t.Errorf("feature list does not name the root quorum's users:\n%s", out)
	}
}

func TestUserAndAPIKeyEndToEnd(t *testing.T) {
	e := newVerbEnv(t)
	ctx := context.Background()
	operator := e.userID("operator")

	code, out, errOut := e.run("", "user", "list")
	wantExit(t, "user list", code, 0, out, errOut)
	for _, m := range e.demo.Info.Members {
		if !strings.Contains(out, m.UserID) || !strings.Contains(out, m.Name) {
			t.Errorf("user list lacks %s:\n%s", m.Name, out)
		}
	}
	user, err := e.client("alice").GetUser(ctx, operator)
	if err != nil || len(user.APIKeys) != 2 {
		t.Fatalf("operator has two keys in the demo: %+v %v", user, err)
	}
	var oldKey, liveKey api.APIKey // the demo's pending deletion names oldKey
	for _, k := range user.APIKeys {
		if strings.Contains(k.APIKeyName, "old") {
			oldKey = k
		} else {
			liveKey = k
		}
	}
	// Tags by name, as the console shows them (the demo's tags come from
	// create_user_tag activities; ids stay in --json).
	if !strings.Contains(out, "operator,auditors") && !strings.Contains(out, "auditors,operator") || strings.Contains(out, user0Tag(t, e, operator)) {
		t.Errorf("user list shows operator's tags by id, not by name:\n%s", out)
	}
	code, out, errOut = e.run("", "user", "get", operator)
	wantExit(t, "user get", code, 0, out, errOut)
	if !strings.Contains(out, oldKey.APIKeyID) || !strings.Contains(out, "operator@vigil.demo") ||
		!strings.Contains(out, "operator ("+user0Tag(t, e, operator)+")") && !strings.Contains(out, "auditors ("+user0Tag(t, e, operator)+")") {
		t.Errorf("user get: no tag by name and id:\n%s", out)
	}
	code, out, errOut = e.run("", "apikey", "get", "--json", oldKey.APIKeyID)
	wantExit(t, "apikey get --json", code, 0, out, errOut)
	var k api.GetAPIKeyResponse
	if err := json.Unmarshal([]byte(out), &k); err != nil || k.APIKey.Credential.PublicKey != oldKey.Credential.PublicKey {
		t.Errorf("apikey get --json: %v\n%s", err, out)
	}

	// Delete: unknown keys, a wrong owner and a key whose deletion is pending
	// are refused; without --yes in a script it is refused; with --yes it is
	// submitted and, once approved, gone.
	code, out, errOut = e.run("", "apikey", "delete", "--yes", "no-such-key")
	wantExit(t, "unknown key", code, 1, out, errOut)
	code, out, errOut = e.run("", "apikey", "delete", "--yes", "--user", e.userID("bob"), oldKey.APIKeyID)
	wantExit(t, "wrong owner", code, 1, out, errOut)
	if !strings.Contains(errOut, "belongs to operator") {
		t.Errorf("wrong owner: %s", errOut)
	}
	code, out, errOut = e.run("", "apikey", "delete", "--yes", oldKey.APIKeyID)
	wantExit(t, "pending deletion", code, 1, out, errOut)
	code, out, errOut = e.run("", "apikey", "delete", liveKey.APIKeyID)
	wantExit(t, "no --yes", code, 2, out, errOut)
	code, out, errOut = e.run("", "apikey", "delete", "--yes", liveKey.APIKeyID)
	wantExit(t, "delete", code, 0, out, errOut)
	id := activityIDFrom(t, out)
	code, out, errOut = e.run("", "activity", "approve", "--yes", "--profile", "bob", id)
	wantExit(t, "approve", code, 0, out, errOut)
	if _, err := e.client("alice").GetAPIKey(ctx, liveKey.APIKeyID); err == nil {
		t.Errorf("the key is still there after the approved deletion")
	}
}

func TestMfaStatusEndToEnd(t *testing.T) {
	e := newVerbEnv(t)
	ctx := context.Background()
	// alice's "Passkey for policy changes" applies to a policy she proposes.
	a, err := e.client("alice").CreatePolicy(ctx, api.CreatePolicyParams{PolicyName: "mfa probe", Effect: api.EffectAllow, Notes: "n"})
	if err != nil {
		t.Fatal(err)
	}
	want, err := e.client("alice").GetMfaStatus(ctx, a.ID, "")
	if err != nil || len(want) == 0 {
		t.Fatalf("service: %v %v", want, err)
	}
	code, out, errOut := e.run("", "mfa", "status", a.ID)
	wantExit(t, "mfa status", code, 0, out, errOut)
	if !strings.Contains(out, want[0].MfaPolicyID) || !strings.Contains(out, e.userID("alice")) {
		t.Errorf("status:\n%s", out)
	}
	code, out, errOut = e.run("", "mfa", "status", "--json", "--user", e.userID("alice"), a.ID)
	wantExit(t, "mfa status --json", code, 0, out, errOut)
	var reply api.GetMfaStatusResponse
	if err := json.Unmarshal([]byte(out), &reply); err != nil || len(reply.MfaStatuses) != 1 || reply.MfaStatuses[0].MfaPolicyID != want[0].MfaPolicyID {
		t.Errorf("status --json: %v\n%s", err, out)
	}
}

// user0Tag is the first tag id of the user id, read from the service.
func user0Tag(t *testing.T, e *verbEnv, id string) string {
	t.Helper()
	u, err := e.client("alice").GetUser(context.Background(), id)
	if err != nil || len(u.UserTags) == 0 {
		t.Fatalf("user %s has no tags: %+v %v", id, u, err)
	}
	return u.UserTags[0]
}
