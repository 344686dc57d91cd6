package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// A reply whose type and intent disagree (type CREATE_USER_TAG, intent a
// create_policy) is shown by activity get, as by the vote prompt, with the
// warning that the service may run either.
func TestActivityGetWarnsWhenIntentIsNotOfItsType(t *testing.T) {
	intent := `{"createPolicyIntentV3":{"policyName":"p","effect":"EFFECT_ALLOW","condition":"true","consensus":"true","notes":""}}`
	raw := json.RawMessage(fmt.Sprintf(`{"activity":{"id":"act-1","organizationId":"org-1","status":"ACTIVITY_STATUS_PENDING","type":"ACTIVITY_TYPE_CREATE_USER_TAG","intent":%s,"result":{},"votes":[],"fingerprint":"sha256:00","canApprove":true,"canReject":true,"createdAt":{"seconds":"1","nanos":"0"},"updatedAt":{"seconds":"1","nanos":"0"}}}`, intent))
	a, err := decodeShownActivity("query/get_activity", raw)
	if err != nil {
		t.Fatal(err)
	}
	if d := intentDoubt(a); !strings.Contains(d, "not of its type") {
		t.Fatalf("precondition: the vote prompt's doubt is %q", d)
	}
	var b bytes.Buffer
	if err := printActivity(&b, a); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "not of its type") {
		t.Errorf("activity get shows an intent that is not of its type without the warning the vote prompt gives:\n%s", b.String())
	}
}
