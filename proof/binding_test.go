package proof

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/vigil-console/vigil/api"
)

// activityProof is a demo enclave's genuine app proof about activity a, in the
// local service's payload format (DESIGN.md §4), written out here rather than
// taken from the server so the test states the format it expects.
// demoSigner is a demo authority and its "signer" enclave, made at now.
func demoSigner(t *testing.T, now time.Time) (*DemoAuthority, *DemoEnclave) {
	t.Helper()
	auth, err := NewDemoAuthority(now)
	if err != nil {
		t.Fatal(err)
	}
	enc, err := NewDemoEnclave(auth, "signer", "vigil-demo", "d", now)
	if err != nil {
		t.Fatal(err)
	}
	return auth, enc
}

func activityProof(t *testing.T, enc *DemoEnclave, a api.Activity) api.AppProof {
	t.Helper()
	rh, err := ResultHash(a.Result)
	if err != nil {
		t.Fatal(err)
	}
	payload, _ := json.Marshal(map[string]string{"activityId": a.ID, "type": a.Type, "fingerprint": a.Fingerprint,
		"resultHash": rh, "timestampMs": "1"})
	p, err := enc.SignAppProof(payload)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// A genuine proof (signed by the attested key) verifies only for the activity
// its payload names: replayed onto another activity, or next to an activity
// record the service changed, it FAILS with a reason that says so.
func TestAppProofIsBoundToItsActivity(t *testing.T) {
	now := time.Now()
	auth, enc := demoSigner(t, now)
	tag := api.Activity{ID: "act-tag", OrganizationID: "org-1", Type: api.TypeCreateUserTag, Fingerprint: "sha256:aa",
		Result: api.Result{CreateUserTagResult: &api.CreateUserTagResult{UserTagID: "tag-1"}}}
	policy := api.Activity{ID: "act-policy", OrganizationID: "org-1", Type: api.TypeCreatePolicyV3, Fingerprint: "sha256:bb",
		Result: api.Result{CreatePolicyResult: &api.CreatePolicyResult{PolicyID: "pol-1"}}}
	ap := activityProof(t, enc, tag)
	verify := func(s *Subject) *Report {
		return VerifyBootProof(enc.BootProof, Options{Roots: []Root{auth.Root()}, AppProofs: []api.AppProof{ap}, Activity: s})
	}

	if rep := verify(SubjectOf(tag)); rep.Verdict != Verified || rep.Check(BindingCheckID(0)).Status != Pass {
		t.Fatalf("its own activity: %s", dump(rep))
	}

	changedFingerprint, changedType, changedResult := tag, tag, tag
	changedFingerprint.Fingerprint = "sha256:cc"
	changedType.Type = api.TypeDeleteAPIKeys
	changedResult.Result = api.Result{CreateUserTagResult: &api.CreateUserTagResult{UserTagID: "tag-2"}}
	for _, tc := range []struct {
		name string
		a    api.Activity
		want string
	}{
		{"another activity", policy, "this proof is for activity act-tag (CREATE_USER_TAG), not this one"},
		{"the fingerprint changed", changedFingerprint, "fingerprint sha256:aa is not this activity's (sha256:cc)"},
		{"the type changed", changedType, "the payload's type is ACTIVITY_TYPE_CREATE_USER_TAG, this activity's is ACTIVITY_TYPE_DELETE_API_KEYS"},
		{"the result changed", changedResult, "is not the SHA-256 of this activity's result as received"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rep := verify(SubjectOf(tc.a))
			if got := rep.FailedChecks(); !slices.Equal(got, []string{BindingCheckID(0)}) || rep.Verdict != Failed {
				t.Fatalf("failed %v verdict %s, want only the binding to fail:\n%s", got, rep.Verdict, dump(rep))
			}
			if r := rep.Check(BindingCheckID(0)).Reason; !strings.Contains(r, tc.want) {
				t.Errorf("reason %q lacks %q", r, tc.want)
			}
		})
	}

	// Only an id to compare (vigil proof verify --activity ID): the id decides,
	// and the reason says what was not compared.
	if rep := verify(&Subject{ActivityID: "act-tag"}); rep.Verdict != Verified || !strings.Contains(rep.Check(BindingCheckID(0)).Reason, "not compared (not given): type, fingerprint, result") {
		t.Errorf("id only: %s", dump(rep))
	}
	if rep := verify(&Subject{ActivityID: "act-policy"}); rep.Verdict != Failed {
		t.Errorf("id only, another activity: %s", dump(rep))
	}
}

// The real service's address-derivation proof names no activity: against an
// activity of its organization it is PARTIAL (never VERIFIED: it could be
// replayed onto any activity), against another organization's it FAILS.
func TestProductionAppProofNamesNoActivity(t *testing.T) {
	bp, aps := fixturePair(t)
	const fixtureOrg = "3a2de333-972b-45bf-8a7a-83c4167b81e2"
	rep := VerifyBootProof(bp, Options{AppProofs: aps, Activity: &Subject{ActivityID: "act-1", OrganizationID: fixtureOrg}})
	if rep.Verdict != Partial || len(rep.FailedChecks()) != 0 {
		t.Fatalf("same organization: %s", dump(rep))
	}
	if r := rep.Check(BindingCheckID(0)).Reason; !strings.Contains(r, "names no activity, so it cannot show it is about this one") {
		t.Errorf("reason %q", r)
	}
	rep = VerifyBootProof(bp, Options{AppProofs: aps, Activity: &Subject{ActivityID: "act-1", OrganizationID: "org-1"}})
	if got := rep.FailedChecks(); !slices.Equal(got, []string{BindingCheckID(0)}) ||
		!strings.Contains(rep.Check(BindingCheckID(0)).Reason, "this proof is for organization "+fixtureOrg) {
		t.Errorf("another organization: %s", dump(rep))
	}
}

// A payload two JSON parsers could read differently (a duplicated key) is
// refused, not read the way that happens to match.
func TestAppProofPayloadReadOneWayOnly(t *testing.T) {
	a := &Subject{ActivityID: "act-1"}
	for _, payload := range []string{
		`{"activityId":"act-2","activityId":"act-1"}`,
		`{"activityID":"act-1"}`,
		`not json`, `null`, `[]`,
	} {
		st, reason := BindAppProof(api.AppProof{ProofPayload: payload}, a)
		if st == Pass {
			t.Errorf("%s: %s %s", payload, st, reason)
		}
	}
}

// A payload whose activityId is there but is not an id is not one of the
// address proofs that name no activity: it FAILS (a script reading only the
// exit status would otherwise accept it as PARTIAL), saying why.
func TestAppProofWithAnActivityIDThatIsNotAnIDFails(t *testing.T) {
	for _, payload := range []string{`{"activityId":42,"type":"ACTIVITY_TYPE_X"}`, `{"activityId":["act-1"]}`,
		`{"activityId":{"id":"act-1"}}`, `{"activityId":null}`, `{"activityId":""}`} {
		st, why := BindAppProof(api.AppProof{ProofPayload: payload}, &Subject{ActivityID: "act-1"})
		if st != Fail || !strings.Contains(why, "activityId is not a non-empty string") {
			t.Errorf("%s: %s (%s), want a failure naming the activityId", payload, st, why)
		}
		if st, _ := BindAppProof(api.AppProof{ProofPayload: payload}, nil); st != NotApplicable {
			t.Errorf("%s without an activity: %s, want not applicable", payload, st)
		}
	}
}
