package proof

import (
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
)

// A payload that names no activity fails when it names another organization
// anywhere it may name one (docs/verification.md): a top-level
// "organizationId" that is null or "" must not hide a nested one, and of two
// nested objects the second counts as much as the first.
func TestAppProofNamingAnotherOrganizationAnywhereFails(t *testing.T) {
	s := &Subject{ActivityID: "act-1", OrganizationID: "org-mine"}
	for name, c := range map[string]struct{ payload, why string }{
		"top-level null": {`{"type":"APP_PROOF_TYPE_ADDRESS_DERIVATION","organizationId":null,"addressDerivationProof":{"organizationId":"org-other"}}`,
			"organizationId is not a non-empty string"},
		"top-level empty": {`{"type":"APP_PROOF_TYPE_ADDRESS_DERIVATION","organizationId":"","addressDerivationProof":{"organizationId":"org-other"}}`,
			"organizationId is not a non-empty string"},
		"nested number": {`{"addressDerivationProof":{"organizationId":7}}`,
			"addressDerivationProof.organizationId is not a non-empty string"},
		"two nested": {`{"type":"APP_PROOF_TYPE_ADDRESS_DERIVATION","a":{"organizationId":"org-mine"},"b":{"organizationId":"org-other"}}`,
			"this proof is for organization org-other (b.organizationId)"},
	} {
		st, why := BindAppProof(api.AppProof{ProofPayload: c.payload}, s)
		if st != Fail || !strings.Contains(why, c.why) {
			t.Errorf("%s: a payload naming organization org-other is %s (%q), want a failure saying %q", name, st, why, c.why)
		}
	}
	// Naming this organization everywhere is still only N/A (no activity named).
	st, why := BindAppProof(api.AppProof{ProofPayload: `{"organizationId":"org-mine","a":{"organizationId":"org-mine"},"b":{"organizationId":"org-mine"}}`}, s)
	if st != NotApplicable {
		t.Errorf("a payload naming only this organization is %s (%q), want N/A", st, why)
	}
}
