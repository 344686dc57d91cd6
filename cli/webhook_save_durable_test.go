package cli

import (
	"bytes"
	"errors"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/vigil-console/vigil/webhook"
)

// A delivery accepted with --save is acknowledged (204), after which the
// service drops it from its outbox, only once its body, its headers, the
// accepted-events line and DIR itself were synced: a power cut after the
// 204 loses nothing on either side.
func TestWebhookSaveSyncsEverythingBeforeAcknowledging(t *testing.T) {
	dir := t.TempDir()
	var synced []string
	l := &listener{saveDir: dir, nextFile: 1, seen: map[string]acceptedEvent{}, remember: 24 * time.Hour,
		report: func(deliveryReport) error { return nil },
		fsync: func(f *os.File) error {
			synced = append(synced, f.Name())
			return f.Sync()
		}}
	d := &webhook.Delivery{EventID: "ev-1", EventType: "ACTIVITY_STATUS_COMPLETED", Timestamp: time.Now()}
	rep, status := l.acceptLocked(http.Header{}, []byte(`{"event":"body"}`), d, nil, time.Now())
	if status != http.StatusNoContent {
		t.Fatalf("status %d (%s), want 204", status, rep.Reason)
	}
	for _, want := range []string{rep.Saved + ".body", rep.Saved + ".headers", filepath.Join(dir, acceptedFile), dir} {
		if !slices.Contains(synced, want) {
			t.Errorf("%s was not synced before the 204; synced: %q", want, synced)
		}
	}
}

// When DIR cannot be synced, the delivery is not acknowledged: the service
// keeps it and sends it again.
func TestWebhookSaveThatCannotSyncIsNotAcknowledged(t *testing.T) {
	dir := t.TempDir()
	l := &listener{saveDir: dir, nextFile: 1, seen: map[string]acceptedEvent{}, remember: 24 * time.Hour,
		report: func(deliveryReport) error { return nil },
		fsync: func(f *os.File) error {
			if f.Name() == dir {
				return errors.New("input/output error")
			}
			return f.Sync()
		}}
	d := &webhook.Delivery{EventID: "ev-1", EventType: "ACTIVITY_STATUS_COMPLETED", Timestamp: time.Now()}
	rep, status := l.acceptLocked(http.Header{}, []byte(`{"event":"body"}`), d, nil, time.Now())
	if status != http.StatusServiceUnavailable {
		t.Fatalf("status %d (%s), want 503 so that the service sends it again", status, rep.Reason)
	}
	if _, ok := l.seen["ev-1"]; ok {
		t.Errorf("the unacknowledged event is remembered as accepted: its redelivery would not be saved")
	}
}

// restartedListener is a listener started anew on dir, as after a crash or
// a stop: it knows only what dir/accepted-events says.
func restartedListener(t *testing.T, dir string) *listener {
	t.Helper()
	l := &listener{saveDir: dir, nextFile: 1, seen: map[string]acceptedEvent{}, remember: 24 * time.Hour,
		report: func(deliveryReport) error { return nil }}
	if err := l.loadAcceptedLocked(time.Now()); err != nil {
		t.Fatal(err)
	}
	last, err := lastSavedNumber(dir)
	if err != nil {
		t.Fatal(err)
	}
	l.nextFile = last + 1
	return l
}

// savedBodies lists the bodies saved in dir that hold body.
func savedBodies(t *testing.T, dir string, body []byte) []string {
	t.Helper()
	bases, err := savedBases(dir)
	if err != nil {
		t.Fatal(err)
	}
	var found []string
	for _, b := range bases {
		if got, err := os.ReadFile(b + ".body"); err == nil && string(got) == string(body) {
			found = append(found, b+".body")
		}
	}
	return found
}

// When the accepted-events line is written but its sync fails, the line may
// be on disk: a restarted listener takes the event's redelivery as already
// accepted and acknowledges it, so the delivery's files must still be there.
func TestWebhookSaveJournalSyncFailureKeepsTheSavedEvent(t *testing.T) {
	dir := t.TempDir()
	journal := filepath.Join(dir, acceptedFile)
	l := &listener{saveDir: dir, nextFile: 1, seen: map[string]acceptedEvent{}, remember: 24 * time.Hour,
		report: func(deliveryReport) error { return nil },
		fsync: func(f *os.File) error {
			if f.Name() == journal {
				return errors.New("input/output error")
			}
			return f.Sync()
		}}
	body := []byte(`{"event":"body"}`)
	d := &webhook.Delivery{EventID: "ev-1", EventType: "ACTIVITY_STATUS_COMPLETED", Timestamp: time.Now()}
	rep, status := l.acceptLocked(http.Header{}, body, d, nil, time.Now())
	if status != http.StatusServiceUnavailable {
		t.Fatalf("status %d (%s), want 503 so that the service sends it again", status, rep.Reason)
	}

	l2 := restartedListener(t, dir)
	rep, status = l2.acceptLocked(http.Header{}, body, d, nil, time.Now().Add(time.Second))
	if status/100 != 2 {
		t.Fatalf("the redelivery was answered %d (%s), want 2xx", status, rep.Reason)
	}
	if saved := savedBodies(t, dir, body); len(saved) == 0 {
		t.Fatalf("the redelivery was acknowledged (%d: %s) but the event is saved nowhere in %s", status, rep.Reason, dir)
	}
}

// A line cut short in accepted-events (a disk that filled up mid-append)
// must not swallow the next event's line: else after a restart that event's
// redelivery is taken as new and saved a second time.
func TestWebhookSaveTornJournalLineDoesNotHideTheNextEvent(t *testing.T) {
	dir := t.TempDir()
	l := restartedListener(t, dir)
	first := []byte(`{"event":"first"}`)
	d1 := &webhook.Delivery{EventID: "ev-1", EventType: "ACTIVITY_STATUS_COMPLETED", Timestamp: time.Now()}
	if rep, status := l.acceptLocked(http.Header{}, first, d1, nil, time.Now()); status != http.StatusNoContent {
		t.Fatalf("status %d (%s), want 204", status, rep.Reason)
	}
	// What a full disk leaves of the next append.
	f, err := os.OpenFile(filepath.Join(dir, acceptedFile), os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString("1764300000000 ev-cut 4f2a"); err != nil {
		t.Fatal(err)
	}
	f.Close()

	second := []byte(`{"event":"second"}`)
	d2 := &webhook.Delivery{EventID: "ev-2", EventType: "ACTIVITY_STATUS_COMPLETED", Timestamp: time.Now()}
	if rep, status := l.acceptLocked(http.Header{}, second, d2, nil, time.Now()); status != http.StatusNoContent {
		t.Fatalf("status %d (%s), want 204", status, rep.Reason)
	}

	l2 := restartedListener(t, dir)
	for _, ev := range []struct {
		d    *webhook.Delivery
		body []byte
	}{{d1, first}, {d2, second}} {
		rep, status := l2.acceptLocked(http.Header{}, ev.body, ev.d, nil, time.Now().Add(time.Second))
		if status/100 != 2 || !rep.Redelivery {
			t.Errorf("after a restart, the redelivery of %s was answered %d as new (%s): the torn line hid it", ev.d.EventID, status, rep.Reason)
		}
		if saved := savedBodies(t, dir, ev.body); len(saved) != 1 {
			t.Errorf("%s is saved %d times, want once: %q", ev.d.EventID, len(saved), saved)
		}
	}
}

// A line of accepted-events longer than a bufio.Scanner's 64 KiB (damage
// from outside: the listener writes short lines) must not end the reading:
// the file is written back from what was read, so every id after it would
// be lost, and their redeliveries taken as new.
func TestWebhookSaveLongDamagedJournalLineKeepsTheLaterEvents(t *testing.T) {
	dir := t.TempDir()
	l := restartedListener(t, dir)
	first := []byte(`{"event":"first"}`)
	d1 := &webhook.Delivery{EventID: "ev-1", EventType: "ACTIVITY_STATUS_COMPLETED", Timestamp: time.Now()}
	if rep, status := l.acceptLocked(http.Header{}, first, d1, nil, time.Now()); status != http.StatusNoContent {
		t.Fatalf("status %d (%s), want 204", status, rep.Reason)
	}
	path := filepath.Join(dir, acceptedFile)
	journal, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	damaged := append([]byte(strings.Repeat("x", 100<<10)+"\n"), journal...)
	if err := os.WriteFile(path, damaged, 0o600); err != nil {
		t.Fatal(err)
	}

	l2 := restartedListener(t, dir)
	rep, status := l2.acceptLocked(http.Header{}, first, d1, nil, time.Now().Add(time.Second))
	if status/100 != 2 || !rep.Redelivery {
		t.Errorf("after a restart, the redelivery of %s was answered %d as new (%s): the long line before it hid it", d1.EventID, status, rep.Reason)
	}
	if saved := savedBodies(t, dir, first); len(saved) != 1 {
		t.Errorf("%s is saved %d times, want once: %q", d1.EventID, len(saved), saved)
	}
}

// A damaged accepted-events made of one long line of short words costs the
// listener's start no more memory than a few times the file's size (reading
// it whole, ~4 times under -race with the test binary's own allocations):
// split into words, it cost 11–13 times (a file near the 1 GiB cap would
// have ended the listener). Not parallel, so that other tests' allocations
// stay out of the count; the bound lies between the two with room for what
// other goroutines allocate meanwhile.
func TestWebhookSaveDamagedJournalIsNotSplitIntoWords(t *testing.T) {
	dir := t.TempDir()
	const size = 16 << 20
	if err := os.WriteFile(filepath.Join(dir, acceptedFile), bytes.Repeat([]byte("a "), size/2), 0o600); err != nil {
		t.Fatal(err)
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	restartedListener(t, dir)
	runtime.ReadMemStats(&after)
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 8*size {
		t.Errorf("reading a damaged %d MiB accepted-events allocated %d MiB", size>>20, alloc>>20)
	}
}
