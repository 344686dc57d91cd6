package screens

import (
	"testing"
	"time"
)

// Sorted by AGE (the Activities list; UPDATED in Policies, the boot proofs),
// every time a reply can hold sorts newest first in true order: a broken or
// hostile service's time before 1970, far in the future or with nanoseconds
// apart, and a missing (zero) time counted older than any, so none lands at
// the top reading as the newest.
func TestAgeSortKeyIsNewestFirstForAnyTime(t *testing.T) {
	newestFirst := []time.Time{
		time.Date(9999, 12, 31, 0, 0, 0, 0, time.UTC),
		time.Date(2300, 1, 1, 0, 0, 0, 0, time.UTC), // past UnixNano's range
		time.Date(2026, 1, 1, 0, 0, 0, 2, time.UTC),
		time.Date(2026, 1, 1, 0, 0, 0, 1, time.UTC),
		time.UnixMilli(0),
		time.UnixMilli(-1000),
		time.UnixMilli(-5000),
		time.UnixMilli(-86_400_000),
		time.Date(1600, 1, 1, 0, 0, 0, 0, time.UTC),
		time.Date(1, 1, 1, 0, 0, 1, 0, time.UTC),
		{}, // missing
	}
	for i := 1; i < len(newestFirst); i++ {
		newer, older := newestFirst[i-1], newestFirst[i]
		if kn, ko := ageSortKey(newer), ageSortKey(older); !(kn < ko) {
			t.Errorf("ageSortKey(%v) = %q does not sort before ageSortKey(%v) = %q", newer, kn, older, ko)
		}
	}
}
