package screens

import (
	"fmt"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/vigil-console/vigil/api"
)

var wideNames = []string{
	"財務チーム財務チーム財務チーム財務チーム",
	"👍🏽👍🏽👍🏽 team",
	"🇯🇵🇺🇸 flags",
	"क्षत्रिय देवनागरी",
	"ภาษาไทยที่นี่",
	"مرحبا بالعالم",
	"cafe\u0301 decomposed",
	"한국어한국어한국어",
	"x\u200by hidden",
	"👨\u200d👩\u200d👧 family",
}

func sweepFake() *fakeClient {
	users := []api.User{{UserID: "u-alice", UserName: "alice"}, {UserID: "u-bob", UserName: "bob"}, {UserID: "u-carol", UserName: "carol"}}
	for i, n := range wideNames {
		users = append(users, api.User{UserID: fmt.Sprintf("u-%d", i), UserName: n, UserEmail: n + "@例え.jp",
			UserTags: []string{"t1"}})
	}
	acts := sampleActivities()
	for i, n := range wideNames {
		acts = append(acts, pendingActivity(fmt.Sprintf("act-w%d", i), "bob", time.Duration(i+1)*time.Minute,
			api.Intent{CreatePolicyIntentV3: &api.CreatePolicyParams{PolicyName: n + " " + n, Effect: "EFFECT_ALLOW",
				Condition: "activity.type == '" + n + "' && activity.resource == '" + n + n + "'", Consensus: "approvers.count() >= 2", Notes: n}},
			api.TypeCreatePolicyV3))
	}
	return &fakeClient{activities: acts, users: users}
}

func checkFrame(t *testing.T, h *harness, w, hh int, where string) {
	t.Helper()
	frame := h.frame()
	lines := strings.Split(frame, "\n")
	if len(lines) != hh {
		t.Errorf("%s %dx%d: frame is %d lines:\n%s", where, w, hh, len(lines), frame)
	}
	for _, l := range lines {
		if ansi.StringWidth(l) > w {
			t.Errorf("%s %dx%d: line %d wide: %q", where, w, hh, ansi.StringWidth(l), l)
		}
	}
	// the screen's own body must fit what it was given
	body := h.root.screens[h.root.active].View()
	for _, l := range strings.Split(body, "\n") {
		if sw := ansi.StringWidth(l); sw > w {
			t.Errorf("%s %dx%d: screen body line %d wide (cut silently): %q", where, w, hh, sw, ansi.Strip(l))
		}
	}
}

func TestEveryScreenFitsHostileSizesAndText(t *testing.T) {
	for _, sz := range [][2]int{{60, 18}, {61, 19}, {73, 20}, {80, 24}, {120, 30}} {
		w, hh := sz[0], sz[1]
		h := newHarness(t, sweepFake(), false, 0)
		h.send(tea.WindowSizeMsg{Width: w, Height: hh})
		for i := range h.root.screens {
			h.key(fmt.Sprint(i + 1))
			checkFrame(t, h, w, hh, h.root.screens[i].Title())
			h.key("enter")
			checkFrame(t, h, w, hh, h.root.screens[i].Title()+" open")
			h.key("esc")
			if h.root.dialogs.Len() > 0 {
				h.key("esc")
			}
		}
		h.key("1")
		for j := 0; j < 6; j++ {
			h.key("down")
		}
		h.key("a")
		checkFrame(t, h, w, hh, "vote dialog")
		h.key("n")
		h.key("enter")
		checkFrame(t, h, w, hh, "activity detail")
	}
}

// The Webhooks table, with deliveries in it, fits every width the console
// runs at: a column cut at a narrow width ends in …, it does not go past
// the edge, where the frame would cut it without a mark.
func TestWebhooksTableFitsEveryWidth(t *testing.T) {
	for w := 60; w <= 140; w++ {
		ch := make(chan WebhookDelivery, 2)
		h, r := webhooksHarness(t, ch)
		ch <- WebhookDelivery{At: testNow, Verified: true, EventID: "act-1:ACTIVITY_STATUS_COMPLETED", KeyID: "kid-one",
			ActivityID: "act-1", Type: "ACTIVITY_TYPE_CREATE_USER_TAG", Status: "ACTIVITY_STATUS_COMPLETED"}
		ch <- WebhookDelivery{At: testNow.Add(time.Second), EventID: "act-2:X", KeyID: "kid-old",
			ActivityID: "act-2", Reason: "bad webhook signature: event act-2:X does not verify"}
		close(ch)
		h.run(r.Init())
		hh := 18 + (w-60)%7
		h.send(tea.WindowSizeMsg{Width: w, Height: hh})
		h.key("@Webhooks")
		checkFrame(t, h, w, hh, "Webhooks")
		if body := ansi.Strip(h.root.screens[h.root.active].View()); !strings.Contains(body, "KEY") && !strings.Contains(body, "K…") {
			t.Errorf("Webhooks %dx%d: the KEY column is not shown, nor marked as cut:\n%s", w, hh, body)
		}
	}
}
