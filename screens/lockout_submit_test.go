package screens

import (
	"strings"
	"testing"
	"time"

	"github.com/vigil-console/vigil/api"
)

// A submit (here set_organization_feature) that the service refuses for the
// console's key locks the console out as a refused read does: the same
// remedy, and the polls stop. No read follows it to find that out.
func TestSubmitRefusedForTheKeyLocksTheConsoleOut(t *testing.T) {
	fake := &fakeClient{activities: sampleActivities(), featureErr: unknownKeyErr()}
	h := newHarness(t, fake, false, 30*time.Second)
	h.gotoScreen("Organization")
	h.key("s")
	h.pickFeature(api.FeatureWebhook)
	h.key("tab")
	h.typeText("http://x/")
	h.send(ctrlS)
	h.key("y")
	if !strings.Contains(h.root.common.LockedOut, lockedOutAdvice) {
		t.Fatalf("the submit refused for the console's key does not lock it out (%q):\n%s", h.root.common.LockedOut, h.frame())
	}
	if st := h.activities().Status(); st.AutoRefresh != 0 {
		t.Errorf("the auto-refresh still runs (every %v) after the refused submit", st.AutoRefresh)
	}
}
