package cli

import (
	"errors"
	"net/http"
	"os"
	"path/filepath"
	"slices"
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
