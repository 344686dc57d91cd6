package screens

import (
	"errors"
	"net/http"
	"testing"
	"time"

	"github.com/vigil-console/vigil/api"
)

func unknownKeyErr() error {
	return &api.Error{StatusCode: http.StatusUnauthorized, Code: api.CodeUnauthenticated,
		Message:   "the stamping public key is not a registered API key",
		Details:   []api.ErrorDetail{{Type: api.ErrorDetailType, ErrorCode: "UNKNOWN_KEY"}},
		Operation: "query/list_activities"}
}

// One read refused with UNKNOWN_KEY locks the console out; a later read the
// service answers with the same key shows the refusal was not the key's fate
// (a proxy's, or a replica's that had not yet seen a key just created): the
// lock-out lifts and auto-refresh runs again. A read that fails for another
// reason (the network) says nothing about the key and lifts nothing.
func TestLockOutLiftsWhenTheServiceAnswersTheKeyAgain(t *testing.T) {
	fake := &fakeClient{activities: sampleActivities()}
	h := newHarness(t, fake, false, 30*time.Second)
	setErr := func(err error) {
		fake.mu.Lock()
		fake.listErr = err
		fake.mu.Unlock()
	}
	lists := func() int {
		fake.mu.Lock()
		defer fake.mu.Unlock()
		return len(fake.lists)
	}

	setErr(unknownKeyErr())
	h.send(activitiesTickMsg{gen: h.activities().autoGen})
	if h.root.common.LockedOut == "" {
		t.Fatalf("premise: the refused read did not lock the console out")
	}
	setErr(errors.New("dial tcp: connection refused"))
	h.key("r")
	if h.root.common.LockedOut == "" {
		t.Fatalf("a read that failed on the network lifted the lock-out")
	}

	setErr(nil)
	h.key("r")
	if e := h.activities().Status().Err; e != "" {
		t.Fatalf("the refresh failed: %s", e)
	}
	if h.root.common.LockedOut != "" {
		t.Fatalf("a read the service answered with this console's key leaves the console locked out: %q", h.root.common.LockedOut)
	}
	if got := h.activities().Status().AutoRefresh; got != 30*time.Second {
		t.Errorf("auto-refresh after the lock-out lifted: %v, want the profile's 30s", got)
	}
	before := lists()
	h.send(activitiesTickMsg{gen: h.activities().autoGen})
	if lists() == before {
		t.Errorf("the auto-refresh tick after the lock-out lifted read nothing")
	}
}
