package screens

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/server/servertest"
	"github.com/vigil-console/vigil/ui/theme"
)

// swappingIntent opens, as bob, the detail of alice's DENY policy
// "swap-orig-name" on a service whose get_activity replies, once swap is
// set, carry an ALLOW policy "swap-EVIL-name" under the same id and
// fingerprint (a hostile or broken service, a proxy).
func swappingIntent(t *testing.T) (h *harness, act *api.Activity, swap *atomic.Bool) {
	t.Helper()
	d := servertest.StartDemo(t)
	act, err := d.Client("alice").CreatePolicy(context.Background(), api.CreatePolicyParams{PolicyName: "swap-orig-name",
		Effect: api.EffectDeny, Condition: "true", Consensus: "approvers.count() >= 1"})
	if err != nil || act.Status != api.StatusConsensusNeeded {
		t.Fatalf("propose: %+v %v", act, err)
	}
	swap = new(atomic.Bool)
	rewrite := strings.NewReplacer("swap-orig-name", "swap-EVIL-name", "EFFECT_DENY", "EFFECT_ALLOW")
	bob := d.ClientAt(d.Rewriting(func(op string, _, reply []byte) []byte {
		if swap.Load() && strings.Contains(op, "get_activity") {
			return []byte(rewrite.Replace(string(reply)))
		}
		return reply
	}), "bob", api.WithExactStrings())
	h = newHarnessWith(t, bob, bob, theme.Options{Dark: true, NoColor: true}, 0)
	h.send(tea.WindowSizeMsg{Width: 160, Height: 300})
	h.selectActivityID(act.ID)
	h.key("enter")
	if det := h.activities().detail; det == nil || !strings.Contains(h.frame(), `"policyName": "swap-orig-name"`) {
		t.Fatalf("set-up: detail not open with the original intent:\n%s", h.frame())
	}
	return h, act, swap
}

// A re-read bringing another intent under the same id and fingerprint: the
// intent section shows the intent held (its JSON agrees with its heading),
// never the first copy's, and warns that one fingerprint came with two
// intents.
func TestIntentSectionFollowsAnotherIntentUnderSameFingerprint(t *testing.T) {
	h, act, swap := swappingIntent(t)
	if strings.Contains(h.frame(), "another intent under this same fingerprint") {
		t.Fatalf("set-up: the warning shows before any change:\n%s", h.frame())
	}
	det := h.activities().detail
	swap.Store(true)
	h.run(det.loadRecord(h.root.common))
	if p := det.activity.Intent.CreatePolicyIntentV3; p == nil || p.PolicyName != "swap-EVIL-name" || det.activity.Fingerprint != act.Fingerprint {
		t.Fatalf("set-up: the re-read copy was not taken: %+v", det.activity.Intent.CreatePolicyIntentV3)
	}
	f := h.frame()
	if !strings.Contains(f, `create ALLOW policy "swap-EVIL-name"`) || !strings.Contains(f, `"policyName": "swap-EVIL-name"`) {
		t.Errorf("the intent's heading or JSON does not show the intent held (ALLOW %q):\n%s", "swap-EVIL-name", f)
	}
	if strings.Contains(f, "swap-orig-name") || strings.Contains(f, "EFFECT_DENY") {
		t.Errorf("the detail holds an ALLOW intent but still shows the first copy's DENY %q:\n%s", "swap-orig-name", f)
	}
	if !strings.Contains(f, "another intent under this same fingerprint") || !strings.Contains(f, "do not approve it") {
		t.Errorf("nothing warns that one fingerprint came with two intents:\n%s", f)
	}
}

// A vote dialog opened on one intent closes, nothing sent, when the detail
// takes another intent under the same fingerprint: the dialog restated the
// first, and a y would sign the fingerprint of whichever the service holds.
func TestVoteDialogClosesOnAnotherIntentUnderSameFingerprint(t *testing.T) {
	h, _, swap := swappingIntent(t)
	h.key("a")
	if !h.voteDialogOpen() || !strings.Contains(h.frame(), "swap-orig-name") {
		t.Fatalf("set-up: no approve dialog on the original intent:\n%s", h.frame())
	}
	det := h.activities().detail
	swap.Store(true)
	before := len(h.msgs)
	h.run(det.loadRecord(h.root.common))
	if h.voteDialogOpen() {
		t.Fatalf("the approve dialog stays open on the first intent while the detail holds another:\n%s", h.frame())
	}
	if !toasted(h.msgs[before:], "nothing was sent") || !toasted(h.msgs[before:], "another intent under the same fingerprint") {
		t.Errorf("no notice says the dialog closed and why: %v", h.msgs[before:])
	}
}
