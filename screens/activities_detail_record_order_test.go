package screens

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/ui/theme"
)

// recordFails is fakeClient whose get_activity fails while fail is set.
type recordFails struct {
	*fakeClient
	fail atomic.Bool
}

func (r *recordFails) GetActivity(ctx context.Context, id string) (*api.Activity, error) {
	if r.fail.Load() {
		return nil, errors.New("get activity: the service is down")
	}
	return r.fakeClient.GetActivity(ctx, id)
}

// The open detail's record is read twice; the replies land in the reverse
// order. Only the newer one says whether the record could be refreshed: an
// older failure must not claim the record is stale after a newer read
// succeeded, and an older success must not hide a newer failure.
func TestActivityDetailOlderRecordReplyDoesNotSetItsError(t *testing.T) {
	for _, newerFails := range []bool{false, true} {
		name := "newer read succeeded"
		if newerFails {
			name = "newer read failed"
		}
		t.Run(name, func(t *testing.T) {
			r := &recordFails{fakeClient: &fakeClient{activities: sampleActivities()}}
			h := newHarnessWith(t, r, r.fakeClient, theme.Options{Dark: true, NoColor: true}, 0)
			h.key("enter")
			d := h.activities().detail
			if d == nil {
				t.Fatalf("set-up: no detail open:\n%s", h.frame())
			}
			r.fail.Store(!newerFails)
			older := d.loadRecord(h.root.common)()
			r.fail.Store(newerFails)
			newer := d.loadRecord(h.root.common)()

			h.send(newer)
			if got := d.recordErr != ""; got != newerFails {
				t.Fatalf("set-up: after the newer read, record error %q", d.recordErr)
			}
			h.send(older)
			says := strings.Contains(h.frame(), "could not refresh this record")
			if says != newerFails {
				t.Errorf("after an older read landed last, the detail says it could not refresh the record: %v, want %v (the newer read's outcome):\n%s", says, newerFails, h.frame())
			}
		})
	}
}
