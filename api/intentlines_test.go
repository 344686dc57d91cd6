package api

import (
	"fmt"
	"strings"
	"testing"
)

func intentOf(t *testing.T, typ string, params any) Intent {
	t.Helper()
	in, err := IntentFor(typ, params)
	if err != nil {
		t.Fatal(err)
	}
	return in
}

// lineWith is the one line starting with prefix.
func lineWith(t *testing.T, lines []string, prefix string) string {
	t.Helper()
	for _, l := range lines {
		if strings.HasPrefix(l, prefix) {
			return l
		}
	}
	t.Fatalf("no line starting %q in:\n%s", prefix, strings.Join(lines, "\n"))
	return ""
}

// A long policy name full of quotes is shortened, visibly, and cannot push
// the effect, a 5 kB condition or the consensus out of what is shown.
func TestIntentLinesNeverCutWhatDecides(t *testing.T) {
	name := strings.Repeat(`"ops" `, 42) + "zz" // 254 characters, each quote escaped
	condition := "activity.type == 'ACTIVITY_TYPE_CREATE_POLICY_V3'" + strings.Repeat(" && true", 640)
	consensus := "approvers.any(user, user.id == 'u1')"
	lines := IntentLines(intentOf(t, TypeCreatePolicyV3, &CreatePolicyParams{
		PolicyName: name, Effect: "EFFECT_DENY", Condition: condition, Consensus: consensus, Notes: strings.Repeat("n", 500),
	}))
	if got := lineWith(t, lines, "effect:"); got != "effect:     EFFECT_DENY" {
		t.Errorf("effect line: %q", got)
	}
	if got := lineWith(t, lines, "condition:"); got != "condition:  "+Quote(condition) {
		t.Errorf("the %d-character condition is not shown whole: %d characters", len(condition), len(got))
	}
	if got := lineWith(t, lines, "consensus:"); got != "consensus:  "+Quote(consensus) {
		t.Errorf("consensus line: %q", got)
	}
	shortened := fmt.Sprintf("… (%d characters, %d shown)", len(name), FreeTextShown)
	if got := lineWith(t, lines, "policyName:"); !strings.HasPrefix(got, `policyName: "\"ops\" `) || !strings.HasSuffix(got, shortened) {
		t.Errorf("name line: %q, want it shortened and ending %q", got, shortened)
	}
	if got := lineWith(t, lines, "notes:"); !strings.HasSuffix(got, "… (500 characters, 120 shown)") {
		t.Errorf("notes line: %q", got)
	}
}

// Every id of a long list is shown, one a line, and a missing optional
// field says so.
func TestIntentLinesListEveryID(t *testing.T) {
	var ids []string
	for i := range 300 {
		ids = append(ids, fmt.Sprintf("key-%03d", i))
	}
	lines := IntentLines(intentOf(t, TypeDeleteAPIKeys, &DeleteAPIKeysParams{UserID: "u1", APIKeyIDs: ids}))
	if got := lineWith(t, lines, "apiKeyIds:"); got != "apiKeyIds: (300)" {
		t.Errorf("list line: %q", got)
	}
	for i, id := range ids {
		if want := fmt.Sprintf("  [%d] %s", i+1, id); !strings.Contains(strings.Join(lines, "\n")+"\n", "\n"+want+"\n") {
			t.Fatalf("no line %q", want)
		}
	}
	lines = IntentLines(intentOf(t, TypeDeleteWalletAccounts, &DeleteWalletAccountsParams{WalletAccountIDs: []string{"w1"}}))
	// Absent, the flag is false to the service: the line says so.
	if got := lineWith(t, lines, "deleteWithoutExport:"); !strings.HasPrefix(got, "deleteWithoutExport: (none: false") {
		t.Errorf("absent flag: %q", got)
	}
}

// Nested records are indented under their list; a secret is named, not shown.
func TestIntentLinesIndentNestedFieldsAndHideSecrets(t *testing.T) {
	lines := IntentLines(intentOf(t, TypeCreateInvitations, &CreateInvitationsParams{Invitations: []Invitation{
		{ReceiverUserName: "dave", ReceiverUserEmail: "dave@example.com", ReceiverUserTags: []string{"t1"}, AccessType: "ACCESS_TYPE_WEB", SenderUserID: "u1"},
	}}))
	want := []string{
		"invitations: (1)",
		"  [1]",
		`    receiverUserName:  "dave"`,
		`    receiverUserEmail: "dave@example.com"`,
		"    receiverUserTags:  (1)",
		`      [1] "t1"`,
		"    accessType:        ACCESS_TYPE_WEB",
		"    senderUserId:      u1",
	}
	if strings.Join(lines, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(lines, "\n"), strings.Join(want, "\n"))
	}

	token := strings.Repeat("t", 900)
	lines = IntentLines(intentOf(t, TypeOauth, &OauthParams{OidcToken: token, TargetPublicKey: "02ab"}))
	if joined := strings.Join(lines, "\n"); strings.Contains(joined, "ttt") || !strings.Contains(joined, "oidcToken:") {
		t.Errorf("the token shows, or is not named:\n%s", joined)
	}
}

// Text is escaped once: a real newline or U+202E and the same escapes typed
// as text read differently, and nothing raw is left.
func TestIntentLinesEscapeOnce(t *testing.T) {
	show := func(notes string) string {
		return lineWith(t, IntentLines(intentOf(t, TypeCreatePolicyV3, &CreatePolicyParams{PolicyName: "p", Effect: "EFFECT_ALLOW", Notes: notes})), "notes:")
	}
	real, typed := show("a\nb\u202ec"), show(`a\nb\u202ec`)
	if real != `notes:      "a\nb\u202ec"` || typed != `notes:      "a\\nb\\u202ec"` {
		t.Errorf("real %q, typed %q", real, typed)
	}
	// A name cannot end its quotes and pass its own words for a field.
	name := lineWith(t, IntentLines(intentOf(t, TypeCreatePolicyV3, &CreatePolicyParams{PolicyName: `x" effect: EFFECT_ALLOW`, Effect: "EFFECT_DENY"})), "policyName:")
	if name != `policyName: "x\" effect: EFFECT_ALLOW"` {
		t.Errorf("name line: %q", name)
	}
}

// Every operation's intent, even empty, is listed without a panic, a field
// to a line.
func TestIntentLinesOfEveryOperation(t *testing.T) {
	for _, op := range SubmitOperations() {
		params, _ := NewParams(op.Type)
		lines := IntentLines(intentOf(t, op.Type, params))
		for _, l := range lines {
			if strings.ContainsAny(l, "\n\r") || !strings.Contains(l, ":") && !strings.HasSuffix(l, "]") {
				t.Errorf("%s: line %q", op.Path, l)
			}
		}
	}
}

// Free text made only of capitals, digits and underscores is still free
// text: quoted, so that a label cannot pass for a decision such as
// EFFECT_DENY, and shortened when long; only a field that holds an
// enumeration shows its value bare.
func TestIntentLinesQuoteFreeTextThatLooksLikeAnEnumeration(t *testing.T) {
	lines := IntentLines(Intent{CreateSmartContractInterfaceIntent: &CreateSmartContractInterfaceParams{
		SmartContractInterface: strings.Repeat("A", 400_000), Label: "EFFECT_DENY", SmartContractAddress: "0xabc",
		Type: SmartContractInterfaceEthereum}})
	var label, abi, typ string
	for _, l := range lines {
		name, value, _ := strings.Cut(l, ":")
		value = strings.TrimLeft(value, " ")
		switch name {
		case "label":
			label = value
		case "smartContractInterface":
			abi = value
		case "type":
			typ = value
		}
	}
	if label != `"EFFECT_DENY"` {
		t.Errorf("label line %q; want the text quoted", label)
	}
	if len(abi) > 2*FreeTextShown || !strings.Contains(abi, "400000 characters") {
		t.Errorf("the ABI line is %d bytes (%.60q…); want it shortened, saying so", len(abi), abi)
	}
	if typ != SmartContractInterfaceEthereum {
		t.Errorf("type line %q; want the enumeration value bare", typ)
	}
}

func TestWithSecretsHiddenLeavesOtherParamsAlone(t *testing.T) {
	p := &UpdateOauth2CredentialParams{Oauth2CredentialID: "c-1", EncryptedClientSecret: "s3cret"}
	got, ok := WithSecretsHidden(p).(*UpdateOauth2CredentialParams)
	if !ok || got == p || got.EncryptedClientSecret != "(a secret of 6 characters; not shown)" || got.Oauth2CredentialID != "c-1" || p.EncryptedClientSecret != "s3cret" {
		t.Errorf("WithSecretsHidden gave %+v (original now %+v)", got, p)
	}
	tag := &CreateUserTagParams{UserTagName: "t"}
	if WithSecretsHidden(tag).(*CreateUserTagParams).UserTagName != "t" {
		t.Errorf("a tag's name changed")
	}
	if WithSecretsHidden(nil) != nil {
		t.Errorf("nil is not returned as nil")
	}
}
