package screens

import (
	"fmt"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/vigil-console/vigil/api"
)

// hundredActivities is a full page of pending activities of every shape the
// list summarises, with a few votes each.
func hundredActivities() []api.Activity {
	base := sampleActivities()
	out := make([]api.Activity, 0, pageSize)
	for i := range pageSize {
		a := base[i%len(base)]
		a.ID = fmt.Sprintf("act-%03d", i)
		a.Fingerprint = fmt.Sprintf("sha256:%064x", i)
		a.CreatedAt = api.NewTime(testNow.Add(-time.Duration(i) * time.Minute))
		out = append(out, a)
	}
	return out
}

// A full frame of a 100-row page with an activity's detail open, at 160×48: the
// refresh reply is applied (rows rebuilt, the open detail re-rendered and
// wrapped) and the whole frame is drawn. Target: under 16 ms (one frame at 60 Hz).
//
//	go test -run '^$' -bench BenchmarkFrame -benchmem ./screens/
func BenchmarkFrame100RowsDetailOpen(b *testing.B) {
	fake := &fakeClient{activities: hundredActivities()}
	h := newHarness(b, fake, false, 30*time.Second)
	h.send(tea.WindowSizeMsg{Width: 160, Height: 48})
	h.key("enter")
	if h.activities().detail == nil {
		b.Fatal("the detail did not open")
	}
	a := h.activities()
	items := hundredActivities()
	b.ResetTimer()
	for b.Loop() {
		h.root.Update(activitiesLoadedMsg{gen: a.listGen, items: items, at: testNow})
		_ = h.root.Render()
	}
}

// The same frame with the list showing (no detail).
func BenchmarkFrame100RowsList(b *testing.B) {
	fake := &fakeClient{activities: hundredActivities()}
	h := newHarness(b, fake, false, 30*time.Second)
	h.send(tea.WindowSizeMsg{Width: 160, Height: 48})
	a := h.activities()
	items := hundredActivities()
	b.ResetTimer()
	for b.Loop() {
		h.root.Update(activitiesLoadedMsg{gen: a.listGen, items: items, at: testNow})
		_ = h.root.Render()
	}
}
