package screens

import (
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/vigil-console/vigil/ui"
	"github.com/vigil-console/vigil/ui/theme"
)

// everyScreenConsole is a console whose every screen has rows: activities,
// boot proofs, policies, users, MFA policies and a webhook delivery.
func everyScreenConsole(t *testing.T) *harness {
	t.Helper()
	fake := proofFake(t)
	fake.users, fake.mfaPolicies = governanceUsers(), alicePolicies()
	ch := make(chan WebhookDelivery, 1)
	ch <- WebhookDelivery{At: testNow, Verified: true, EventID: "act-1:X", KeyID: "kid", ActivityID: "act-1"}
	close(ch)
	r := NewRoot(Options{Reader: fake, Submitter: fake, Profile: "demo", Theme: theme.Options{Dark: true, NoColor: true},
		Now: func() time.Time { return testNow }, Static: true, Proofs: ProofSettings{Apps: []string{"signer", "tampered"}},
		Webhooks: &WebhookFeed{Addr: "127.0.0.1:8430", Deliveries: ch},
		Tick:     func(time.Duration, func(time.Time) tea.Msg) tea.Cmd { return nil }})
	h := &harness{t: t, root: r, fake: fake}
	h.send(tea.WindowSizeMsg{Width: 120, Height: 40})
	h.run(r.Init())
	return h
}

// A letter typed into a list's filter is text, on every screen: not a
// global key (q quits, l and h switch screens, ? opens the help, tab the next
// screen), nor one of the screen's own (r reloads, u switches the user, n
// opens an editor, s the status, y copies, enter opens a row).
func TestEveryListFilterTakesTypedLetters(t *testing.T) {
	const typed = "qlhr?unsyedao:"
	forEachListScreen(t, func(t *testing.T, h *harness, screen listScreen) {
		list := screen.filterList()
		if !list.Filtering() {
			t.Fatalf("/ did not open the filter:\n%s", h.frame())
		}
		msgs, clips := len(h.msgs), len(h.clipboard())
		h.typeText(typed)
		h.key("tab")
		switch {
		case h.quit():
			t.Fatal("a letter typed into the filter quit the console")
		case h.root.ActiveTitle() != screen.Title():
			t.Fatalf("a letter typed into the filter switched to %s", h.root.ActiveTitle())
		case h.root.dialogs.Len() > 0 || h.root.fullHelp:
			t.Fatalf("a letter typed into the filter opened a dialog or the help:\n%s", h.frame())
		case len(h.clipboard()) != clips:
			t.Fatalf("a letter typed into the filter copied %v", h.clipboard()[clips:])
		case len(h.msgs) != msgs:
			t.Fatalf("typing into the filter ran commands: %T", h.msgs[msgs:])
		case list.Table.FilterPattern() != typed:
			t.Fatalf("the filter is %q, typed %q", list.Table.FilterPattern(), typed)
		}
		h.key("enter") // keeps the filter, opens nothing
		if list.Filtering() || list.IsOpen() || capturing(screen) || list.Table.FilterPattern() != typed {
			t.Errorf("enter did not just keep the filter: filtering %v, open %v, capturing %v, pattern %q",
				list.Filtering(), list.IsOpen(), capturing(screen), list.Table.FilterPattern())
		}
	})
}

// forEachListScreen runs test, as a subtest named by the screen, on each list
// screen of a fresh console, that screen shown and its filter opened (/).
func forEachListScreen(t *testing.T, test func(t *testing.T, h *harness, screen listScreen)) {
	for i, s := range everyScreenConsole(t).root.screens {
		if _, ok := s.(listScreen); !ok {
			continue
		}
		t.Run(s.Title(), func(t *testing.T) {
			h := everyScreenConsole(t)
			h.key(string(rune('1' + i)))
			screen := h.root.screens[i].(listScreen)
			h.key("/")
			test(t, h, screen)
		})
	}
}

// Every screen built on a ui.ListDetail is a listScreen, so that the root,
// not the screen, routes the keys of its open filter.
func TestEveryScreenWithAListIsAListScreen(t *testing.T) {
	listType := reflect.TypeFor[ui.ListDetail]()
	for _, s := range everyScreenConsole(t).root.screens {
		v := reflect.ValueOf(s)
		if v.Kind() == reflect.Pointer {
			v = v.Elem()
		}
		if v.Kind() != reflect.Struct {
			continue
		}
		for j := range v.NumField() {
			if v.Field(j).Type() == listType {
				if _, ok := s.(listScreen); !ok {
					t.Errorf("%s holds a ui.ListDetail (%s) but is no listScreen: its filter's letters would run as keys",
						s.Title(), v.Type().Field(j).Name)
				}
			}
		}
	}
}

// Text pasted while a list's filter is open goes into the filter, on every
// screen, as one line: line breaks become spaces and control characters
// (an escape sequence's ESC) are dropped.
func TestEveryListFilterTakesAPaste(t *testing.T) {
	forEachListScreen(t, func(t *testing.T, h *harness, screen listScreen) {
		list := screen.filterList()
		h.send(tea.PasteMsg{Content: "bob\r\n\x1b[2Jcarol\n"})
		if got, want := list.Table.FilterPattern(), "bob [2Jcarol"; got != want {
			t.Errorf("pasted into the open filter, the filter is %q; want %q", got, want)
		}
		if !list.Filtering() || h.root.ActiveTitle() != screen.Title() {
			t.Errorf("the paste closed the filter or left %s", screen.Title())
		}
	})
}

// A reply that shows an activity (a submitted operation, a key deletion…)
// can land while the user types into a filter. It must not take the focus:
// the letters still being typed stay text (a would ask to approve, q would
// quit), and the activity waits until the user goes to Activities.
func TestReplyWhileFilteringWaitsForTheUser(t *testing.T) {
	for _, title := range []string{"Users", "Activities"} {
		t.Run(title, func(t *testing.T) {
			h := everyScreenConsole(t)
			h.key("@" + title)
			list := h.root.screens[h.root.active].(listScreen).filterList()
			h.key("/")
			h.typeText("b")
			act := sampleActivities()[1]
			h.send(ShowActivityMsg{ID: act.ID, Activity: &act})
			h.typeText("aq")
			switch {
			case h.quit():
				t.Fatal("a letter typed into the filter after the reply quit the console")
			case h.root.ActiveTitle() != title || h.root.dialogs.Len() > 0:
				t.Fatalf("a letter typed into the filter after the reply ran on %s (dialog %T):\n%s",
					h.root.ActiveTitle(), h.root.dialogs.Top(), h.frame())
			case list.Table.FilterPattern() != "baq":
				t.Errorf("the filter holds %q; the letters typed were baq", list.Table.FilterPattern())
			case !strings.Contains(h.plainFrame(), "press 1 (Activities) to open it"):
				t.Errorf("no notice says the activity is ready and how to open it:\n%s", h.plainFrame())
			}
			h.key("esc") // done typing
			h.key("1")
			if d := h.activities().detail; h.root.ActiveTitle() != "Activities" || d == nil || d.activity.ID != act.ID {
				t.Errorf("going to Activities did not open the activity the reply showed:\n%s", h.frame())
			}
			if h.activities().list.Filtering() {
				t.Error("the activity opened over a filter still taking keys")
			}
		})
	}
}

// Every list screen's help, short and full, lists its filter key while the
// list shows: a user who learns a screen from its help must see that its
// list can be filtered, as on its neighbours.
func TestEveryListScreenHelpListsItsFilter(t *testing.T) {
	for i, s := range everyScreenConsole(t).root.screens {
		if _, ok := s.(listScreen); !ok {
			continue
		}
		t.Run(s.Title(), func(t *testing.T) {
			h := everyScreenConsole(t)
			h.key(string(rune('1' + i)))
			keys := h.root.screens[i].Keys()
			lists := func(bindings []key.Binding) bool {
				return slices.ContainsFunc(bindings, func(b key.Binding) bool { return slices.Contains(b.Keys(), "/") })
			}
			if !lists(keys.ShortHelp()) {
				t.Errorf("the short help does not list / (filter):\n%s", h.plainFrame())
			}
			if !slices.ContainsFunc(keys.FullHelp(), lists) {
				t.Error("the full help does not list / (filter)")
			}
		})
	}
}
