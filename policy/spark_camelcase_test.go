package policy

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
)

// sparkFrostJSON is a SPARK_SIGN_FROST request as a client submits it: the
// service's JSON spells every key in camelCase.
func sparkFrostJSON(adaptor string) json.RawMessage {
	return json.RawMessage(`{"signWith": "w-1", "signatures": [{
		"derivation": {"type": "signing_leaf", "signingLeaf": {"leafId": "leaf-7"}},
		"message": "00", "verifyingKey": "02ab",
		"operatorCommitments": [{"id": "op-1", "hiding": "03aa", "binding": "03bb"}],
		"adaptorPublicKey": "` + adaptor + `"}]}`)
}

// sparkFrostInputs are the same request as ActivityFor builds it (both
// spellings), and as an Activity built by hand with the keys as submitted
// (camelCase only), which must fill the documented fields too.
func sparkFrostInputs(t *testing.T, adaptor string) map[string]Input {
	t.Helper()
	var raw map[string]any
	if err := json.Unmarshal(sparkFrostJSON(adaptor), &raw); err != nil {
		t.Fatal(err)
	}
	return map[string]Input{
		"ActivityFor":  {Activity: ActivityFor("ACTIVITY_TYPE_SPARK_SIGN_FROST", sparkFrostJSON(adaptor)), Approvers: []Approver{alice}},
		"as submitted": {Activity: Activity{Type: "ACTIVITY_TYPE_SPARK_SIGN_FROST", Params: raw}, Approvers: []Approver{alice}},
	}
}

// A DENY stored before the Spark parameters were typed reads them as the
// local service kept them (camelCase, docs: "params holds every parameter
// as submitted"). It must still deny: an error never denies, so an
// unreadable camelCase field would let the activity through.
func TestSparkStoredCamelCaseDenyStillDenies(t *testing.T) {
	c, err := CompileStored(Source{Condition: "activity.type == 'ACTIVITY_TYPE_SPARK_SIGN_FROST' && " +
		"activity.params.signatures.exists(s, s.adaptorPublicKey == '')"})
	if err != nil {
		t.Fatalf("CompileStored: %v", err)
	}
	deny := Policy{ID: "deny-no-adaptor", Effect: api.EffectDeny, Compiled: c}
	allow := mustPolicy(t, "allow-spark", api.EffectAllow, "activity.kind == 'SPARK_SIGN_FROST'", "")
	in := Input{Activity: ActivityFor("ACTIVITY_TYPE_SPARK_SIGN_FROST", map[string]any{"signWith": "w-1",
		"signatures": []any{map[string]any{"derivation": map[string]any{"type": "identity"}, "message": "00", "adaptorPublicKey": ""}}}),
		Approvers: []Approver{alice}}
	if d := Decide([]Policy{allow, deny}, in, quorum, false); d.Outcome != api.OutcomeDenyExplicit {
		t.Errorf("stored camelCase deny: outcome %s (%+v), want %s", d.Outcome, d.Policies, api.OutcomeDenyExplicit)
	}
}

// Old policies (camelCase, as submitted) and new ones (snake_case, as
// documented) decide alike on one request, whether it was built by
// ActivityFor or holds only the submitted keys.
func TestSparkDenyInEitherSpellingDecidesAlike(t *testing.T) {
	allow := mustPolicy(t, "allow-spark", api.EffectAllow, "activity.kind == 'SPARK_SIGN_FROST'", "")
	denies := map[string]string{
		"camelCase": "activity.params.signatures.exists(s, s.adaptorPublicKey == '02cd' && " +
			"s.derivation.signingLeaf.leafId == 'leaf-7' && s.operatorCommitments[0].hiding == '03aa')",
		"snake_case": "activity.params.signatures.exists(s, s.adaptor_public_key == '02cd' && " +
			"s.derivation.signing_leaf.leaf_id == 'leaf-7' && s.operator_commitments[0].hiding == '03aa')",
	}
	for spelling, cond := range denies {
		deny := mustPolicy(t, "deny-"+spelling, api.EffectDeny, cond, "")
		for adaptor, want := range map[string]string{"02cd": api.OutcomeDenyExplicit, "02ef": api.OutcomeAllow} {
			for shape, in := range sparkFrostInputs(t, adaptor) {
				if d := Decide([]Policy{allow, deny}, in, quorum, false); d.Outcome != want {
					t.Errorf("%s deny, adaptor %s, %s: outcome %s (%+v), want %s", spelling, adaptor, shape, d.Outcome, d.Policies, want)
				}
			}
		}
	}
}

// Each field reads the same value in both spellings, has() answers both,
// and a package parameter submitted as lightningReceive is one record.
func TestSparkFieldReadsAgreeInBothSpellings(t *testing.T) {
	same := [][2]string{
		{"activity.params.signatures[0].adaptorPublicKey", "activity.params.signatures[0].adaptor_public_key"},
		{"activity.params.signatures[0].verifyingKey", "activity.params.signatures[0].verifying_key"},
		{"activity.params.signatures[0].operatorCommitments", "activity.params.signatures[0].operator_commitments"},
		{"activity.params.signatures[0].derivation.signingLeaf.leafId", "activity.params.signatures[0].derivation.signing_leaf.leaf_id"},
		{"activity.params.signatures[0].derivation.staticDeposit.index", "activity.params.signatures[0].derivation.static_deposit.index"},
		{"has(activity.params.signatures[0].adaptorPublicKey)", "has(activity.params.signatures[0].adaptor_public_key)"},
		{"has(activity.params.signatures[0].derivation.staticDeposit)", "has(activity.params.signatures[0].derivation.static_deposit)"},
	}
	for shape, in := range sparkFrostInputs(t, "02cd") {
		for _, pair := range same {
			cond := pair[0] + " == " + pair[1]
			if r, err := evalCondition(t, cond, in); err != nil || !r.Condition {
				t.Errorf("%s: %s: condition %v, err %v; want both spellings to read one value", shape, cond, r.Condition, err)
			}
		}
		// Not vacuous: the reads see the request's values.
		for _, cond := range []string{
			"activity.params.signatures[0].adaptorPublicKey == '02cd'",
			"has(activity.params.signatures[0].adaptorPublicKey) && !has(activity.params.signatures[0].derivation.staticDeposit)",
		} {
			if r, err := evalCondition(t, cond, in); err != nil || !r.Condition {
				t.Errorf("%s: %s: condition %v, err %v; want true", shape, cond, r.Condition, err)
			}
		}
	}
	lightning := Input{Activity: ActivityFor("ACTIVITY_TYPE_SPARK_PREPARE_LIGHTNING_RECEIVE", json.RawMessage(
		`{"signWith": "w-1", "lightningReceive": {"threshold": 2, "operatorRecipients": [{"operatorId": "op-1", "encryptionPublicKey": "02ee"}]}}`))}
	for _, cond := range []string{
		"activity.params.lightning_receive.operator_recipients[0].encryption_public_key == '02ee'",
		"activity.params.lightningReceive.operatorRecipients[0].encryptionPublicKey == '02ee'",
		"activity.params.lightningReceive.threshold == 2 && activity.params.lightning_receive.threshold == 2",
	} {
		if r, err := evalCondition(t, cond, lightning); err != nil || !r.Condition {
			t.Errorf("%s: condition %v, err %v; want true", cond, r.Condition, err)
		}
	}
}

// The checker accepts the camelCase spelling of a field, and still refuses
// a name that is no spelling of one.
func TestSparkCamelCaseFieldCompiles(t *testing.T) {
	for _, ok := range []string{
		"activity.params.signatures.all(s, s.adaptorPublicKey == '' && has(s.derivation.signingLeaf))",
		"activity.params.transfer.leaves.all(l, l.directFromCpfpRefundSignature != '')",
		"activity.params.lightningReceive.operatorRecipients.all(r, r.encryptionPublicKey != '')",
	} {
		if _, err := Compile(ok, ""); err != nil {
			t.Errorf("%s: %v", ok, err)
		}
	}
	for _, c := range []struct{ cond, want string }{
		{"activity.params.signatures.all(s, s.adaptor_publicKey == '')", "undefined field 'adaptor_publicKey'"},
		{"activity.params.signatures.all(s, s.adaptorPublickey == '')", "undefined field 'adaptorPublickey'"},
		{"activity.params.lightningReceive.treshold == 2", "undefined field 'treshold' (did you mean 'threshold'?)"},
	} {
		if _, err := Compile(c.cond, ""); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err %v, want %q", c.cond, err, c.want)
		}
	}
}

// The real service knows only the snake_case names: a camelCase read is
// accepted here but warned of, at its position, naming the field to write.
func TestSparkCamelCaseFieldIsWarned(t *testing.T) {
	cond := "activity.params.signatures.exists(s,\n  s.adaptorPublicKey == '' && s.message != '')"
	ws := Warnings(Source{Condition: cond})
	if len(ws) != 1 || ws[0].Line != 2 || !strings.Contains(ws[0].Message, "write adaptor_public_key") {
		t.Errorf("Warnings(%q) = %+v, want one on line 2 naming adaptor_public_key", cond, ws)
	}
	if ws := Warnings(Source{Condition: "activity.params.signatures.exists(s, s.adaptor_public_key == '')"}); len(ws) != 0 {
		t.Errorf("documented spelling warned: %+v", ws)
	}
}
