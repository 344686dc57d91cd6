package policy

import (
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
)

// sparkFrost is a SPARK_SIGN_FROST request whose one signature request has
// the identity derivation and leaves out the optional adaptor key, as a
// client submits it (camelCase keys).
func sparkFrost() Input {
	return Input{Activity: ActivityFor("ACTIVITY_TYPE_SPARK_SIGN_FROST", map[string]any{
		"signWith": "w-1",
		"signatures": []any{map[string]any{
			"derivation": map[string]any{"type": "identity"},
			"message":    "00", "verifyingKey": "02ab", "operatorCommitments": []any{},
		}},
	})}
}

// tkhq/docs features/policies/language.mdx §Spark (c8289df2): "Spark
// optional string fields evaluate to an empty string when omitted" and
// "inactive variant fields evaluate to their type defaults rather than
// producing an evaluation error ... `static_deposit.index` would return `0`".
func TestSparkOmittedFieldsReadAsTypeDefaults(t *testing.T) {
	for _, cond := range []string{
		"activity.params.signatures.all(s, s.adaptor_public_key == '')",
		"activity.params.signatures.all(s, s.derivation.signing_leaf.leaf_id == '')",
		"activity.params.signatures.all(s, s.derivation.static_deposit.index == 0)",
		"activity.params['signatures'][0].verifying_key == '02ab'", // given in camelCase, read in snake_case
		"activity.params.signatures.all(s, !has(s.adaptor_public_key) && !has(s.derivation.signing_leaf))",
	} {
		r, err := evalCondition(t, cond, sparkFrost())
		if err != nil || !r.Condition {
			t.Errorf("%s: condition %v, err %v; the docs give the type default", cond, r.Condition, err)
		}
	}
	// A package the request left out reads as an empty one.
	claim := Input{Activity: ActivityFor("ACTIVITY_TYPE_SPARK_CLAIM_TRANSFER", map[string]any{"signWith": "w-1"})}
	r, err := evalCondition(t, "activity.params.claim.threshold == 0 && activity.params.claim.leaves.count() == 0", claim)
	if err != nil || !r.Condition {
		t.Errorf("omitted claim package: condition %v, err %v; want its fields' defaults", r.Condition, err)
	}
}

// Denies written on omitted fields as the docs describe them (an omitted
// adaptor key is an empty string; check derivation.type, then the variant's field) must
// deny the requests they name and leave the others to the allow, where
// before every read of an omitted field was an error, so a deny never denied.
func TestSparkDenyOnOmittedFieldsDecides(t *testing.T) {
	allow := mustPolicy(t, "allow-spark", api.EffectAllow, "activity.kind == 'SPARK_SIGN_FROST'", "")
	denyLeaf := mustPolicy(t, "deny-leaf", api.EffectDeny, "activity.kind == 'SPARK_SIGN_FROST' && "+
		"activity.params.signatures.exists(s, s.derivation.type == 'signing_leaf' && s.derivation.signing_leaf.leaf_id == 'leaf-frozen')", "")
	denyNoAdaptor := mustPolicy(t, "deny-no-adaptor", api.EffectDeny, "activity.kind == 'SPARK_SIGN_FROST' && "+
		"activity.params.signatures.exists(s, s.adaptor_public_key == '')", "")
	frost := func(sigs ...map[string]any) Input {
		list := make([]any, len(sigs))
		for i, s := range sigs {
			list[i] = s
		}
		return Input{Activity: ActivityFor("ACTIVITY_TYPE_SPARK_SIGN_FROST", map[string]any{"signWith": "w-1", "signatures": list}),
			Approvers: []Approver{alice}}
	}
	identity := map[string]any{"type": "identity"}
	frozen := map[string]any{"type": "signing_leaf", "signingLeaf": map[string]any{"leafId": "leaf-frozen"}}
	for _, c := range []struct {
		name string
		in   Input
		want string
	}{
		{"no adaptor key", frost(map[string]any{"derivation": identity, "message": "00"}), api.OutcomeDenyExplicit},
		{"with an adaptor key", frost(map[string]any{"derivation": identity, "message": "00", "adaptorPublicKey": "02cd"}), api.OutcomeAllow},
		{"the frozen leaf", frost(map[string]any{"derivation": identity, "message": "00", "adaptorPublicKey": "02cd"},
			map[string]any{"derivation": frozen, "message": "01", "adaptorPublicKey": "02cd"}), api.OutcomeDenyExplicit},
	} {
		if d := Decide([]Policy{allow, denyLeaf, denyNoAdaptor}, c.in, quorum, false); d.Outcome != c.want {
			t.Errorf("%s: outcome %s (%+v), want %s", c.name, d.Outcome, d.Policies, c.want)
		}
	}
}

// The Spark structs are declared: a misspelled field is refused when the
// policy is written, with the checker's hint, rather than being an error
// (so a deny that never denies) at every evaluation. A stored policy stays
// readable.
func TestSparkMisspelledFieldIsCompileError(t *testing.T) {
	for _, c := range []struct{ cond, want string }{
		{"activity.params.signatures.all(s, s.adaptr_public_key == '')",
			"line 1, column 36: undefined field 'adaptr_public_key' (did you mean 'adaptor_public_key'?)"},
		{"activity.params.signatures[0].derivation.static_deposit.deposit_number == 0",
			"undefined field 'deposit_number' (SparkStaticDepositDerivation has: index)"},
		{"activity.params['transfer'].leaves.exists(l, l.old_leaf_derivation.typ == 'x')",
			"undefined field 'typ' (did you mean 'type'?)"},
		{"activity.params.claim.leaves.filter(l, l.leaf_id != '').all(l, l.sender_sig == '')",
			"undefined field 'sender_sig'"},
	} {
		_, err := Compile(c.cond, "")
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err %v, want %q", c.cond, err, c.want)
		}
		if _, err := CompileStored(Source{Condition: c.cond}); err != nil {
			t.Errorf("%s: a stored policy must stay readable: %v", c.cond, err)
		}
	}
	for _, ok := range []string{
		"activity.params.lightning_receive.operator_recipients.all(r, r.encryption_public_key != '')",
		"activity.params.transfer.leaves.all(l, l.new_leaf_derivation.static_deposit.index >= 0)",
		"activity.params.signatures.all(activity, activity.message != '')", // a loop variable, not the keyword
	} {
		if _, err := Compile(ok, ""); err != nil {
			t.Errorf("%s: %v", ok, err)
		}
	}
}
