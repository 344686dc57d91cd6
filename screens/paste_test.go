package screens

import (
	"slices"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
)

// A paste into the create-policy editor (a condition copied from the docs)
// goes into the focused field as one line, cleaned as a filter's paste is,
// and the draft is checked again as after a key.
func TestPasteGoesIntoThePolicyEditor(t *testing.T) {
	fake := &fakeClient{activities: sampleActivities()}
	h := newHarness(t, fake, false, 0)
	p := openEditor(t, h)
	h.send(tea.PasteMsg{Content: "draft\r\n\x1b[2Jone\tname  kept\n"})
	if got, want := p.editor.form.Values()["name"], "draft [2Jone name  kept"; got != want {
		t.Errorf("pasted into the editor's Name, it holds %q; want %q", got, want)
	}
	for i := 0; p.editor.form.Focused() != "condition"; i++ {
		if i > 10 {
			t.Fatal("tab never reaches the condition")
		}
		h.key("tab")
	}
	h.key("ctrl+u")
	h.send(tea.PasteMsg{Content: "activity.type ==\n"})
	if errs := p.editor.form.Errors(); errs["condition"] == "" {
		t.Errorf("a pasted condition that does not compile shows no error:\n%s", h.plainFrame())
	}
}

// Every form or editor a screen opens takes a paste: each key of each screen
// is pressed in a fresh console, and whatever starts capturing (not a list
// filter, not a dialog) must take the pasted text into a field, saying why
// whenever the focused one cannot (tab then moves on).
func TestEveryScreenFormTakesAPaste(t *testing.T) {
	const pasted = "zq-pasted"
	forms := 0
	for i, s := range everyScreenConsole(t).root.screens {
		for _, group := range s.Keys().FullHelp() {
			for _, b := range group {
				if !b.Enabled() || len(b.Keys()) == 0 {
					continue
				}
				k := b.Keys()[0]
				h := everyScreenConsole(t)
				h.key(string(rune('1' + i)))
				h.key(k)
				active := h.root.screens[h.root.active]
				if active != h.root.screens[i] || h.root.dialogs.Len() > 0 || filtering(active) || !active.Capturing() {
					continue
				}
				forms++
				t.Logf("%s, %s opens a form", s.Title(), k)
				if why := pasteUntilTaken(h, pasted); why != "" {
					t.Errorf("%s, %s opens a form: %s:\n%s", s.Title(), k, why, h.plainFrame())
				}
			}
		}
	}
	if forms == 0 {
		t.Fatal("no key opened a form on any screen")
	}
}

// pasteUntilTaken pastes text into the active screen until it shows it,
// moving on with tab each time the paste is refused; it says what went wrong:
// a paste lost silently, or none taken.
func pasteUntilTaken(h *harness, text string) string {
	for range 6 {
		before := len(h.root.log.entries)
		h.send(tea.PasteMsg{Content: text + "\n"})
		frame := h.plainFrame()
		if strings.Contains(frame, text) {
			return ""
		}
		refused := strings.Contains(frame, "paste was not used") ||
			slices.ContainsFunc(h.root.log.entries[before:], func(e logEntry) bool {
				return strings.Contains(e.text, "paste was not used")
			})
		if !refused {
			return "a paste into it is lost with no word"
		}
		h.key("tab")
	}
	return "no field took a paste"
}
