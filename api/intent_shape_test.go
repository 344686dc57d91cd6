package api

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// A member the client has no field for, inside an intent it knows, is what
// the service added (or a proxy slipped in): it is shown, never dropped, and
// the intent is sent on exactly as received.
func TestKnownIntentWithAFieldVigilDoesNotKnowIsShownAsSent(t *testing.T) {
	raw := `{"deleteApiKeysIntent":{"userId":"u1","apiKeyIds":["k1"],"alsoDeleteRootQuorum":true},"createReadOnlySessionIntent":{"ttlDays":36500}}`
	var in Intent
	if err := json.Unmarshal([]byte(raw), &in); err != nil {
		t.Fatal(err)
	}
	all := strings.Join(IntentLines(in), "\n")
	for _, want := range []string{"alsoDeleteRootQuorum", "ttlDays", "createReadOnlySessionIntent", "not in this shape"} {
		if !strings.Contains(all, want) {
			t.Errorf("intent lines hide %q:\n%s", want, all)
		}
	}
	if _, params := in.Params(); params != nil {
		t.Errorf("a known key of an unknown shape reads as known params: %#v", params)
	}
	out, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	var sent, kept any
	_ = json.Unmarshal([]byte(raw), &sent)
	_ = json.Unmarshal(out, &kept)
	if !reflect.DeepEqual(sent, kept) {
		t.Errorf("the intent changed on the way through the client:\nsent %s\nkept %s", raw, out)
	}
}

// A member matching a known field only in another case must not replace
// the one sent under the exact name: both are shown, as sent.
func TestKnownIntentWithAKeyInAnotherCaseIsShownAsSent(t *testing.T) {
	var in Intent
	raw := `{"deleteApiKeysIntent":{"userId":"u-operator","apiKeyIds":["k-old"],"APIKEYIDS":["k-alice-root"]}}`
	if err := json.Unmarshal([]byte(raw), &in); err != nil {
		t.Fatal(err)
	}
	all := strings.Join(IntentLines(in), "\n")
	for _, want := range []string{"k-old", "APIKEYIDS", "k-alice-root"} {
		if !strings.Contains(all, want) {
			t.Errorf("the intent as sent holds apiKeyIds [k-old] and APIKEYIDS [k-alice-root]; %q is not shown:\n%s", want, all)
		}
	}
}

// A member sent twice inside a known intent: both values are shown.
func TestKnownIntentWithAMemberSentTwiceShowsBoth(t *testing.T) {
	var in Intent
	raw := `{"deleteApiKeysIntent":{"userId":"u-operator","apiKeyIds":["k-old"],"apiKeyIds":["k-alice-root"]}}`
	if err := json.Unmarshal([]byte(raw), &in); err != nil {
		t.Fatal(err)
	}
	all := strings.Join(IntentLines(in), "\n")
	if !strings.Contains(all, "k-old") || !strings.Contains(all, "k-alice-root") {
		t.Errorf("one of the two apiKeyIds sent is not shown:\n%s", all)
	}
}

// An operation key sent twice: only one could be kept, so the intent is
// refused rather than shown as the other.
func TestIntentKeySentTwiceIsRefused(t *testing.T) {
	var in Intent
	err := json.Unmarshal([]byte(`{"createUserTagIntent":{"userTagName":"a","userIds":[]},"createUserTagIntent":{"userTagName":"b","userIds":["u-root"]}}`), &in)
	if err == nil || !strings.Contains(err.Error(), "twice") {
		t.Errorf("an intent key sent twice: err %v, intent %+v", err, in.CreateUserTagIntent)
	}
}
