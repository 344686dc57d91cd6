package screens

import (
	"time"

	"github.com/vigil-console/vigil/api"
)

// Copies of an activity are ordered first by the console's own sequence,
// which no clock skew can mislead: a vote that does not settle an activity
// leaves its updatedAt alone, so a copy the service sent after a round ended
// may show no time later than the ended votes it lacks. Each copy the screen
// holds remembers when, in the screen's sequence (fetchGens), its request
// was sent and its reply arrived.

// copyOrder is when a copy's request was sent and its reply arrived, in the
// screen's sequence. A copy another screen handed over was read before it
// arrived, when is not known: sent is zero, arrived the handover, so a copy
// asked for after the handover is newer outright.
type copyOrder struct{ sent, arrived int }

// olderOrdered reports whether x (arrived as xo) is an older copy of the
// activity than than (arrived as to). A copy whose request was sent after
// the other's reply arrived shows the service at a later time: it is newer
// outright. Only copies whose requests overlapped, or whose order is not
// known, are compared by what they show (olderCopy). Each side is judged on
// its own, so a handed-over copy (sent unknown) still loses to a copy sent
// after it arrived. Like olderCopy it is never true both ways: sent <
// arrived for every copy whose sent is known.
func olderOrdered(x api.Activity, xo copyOrder, than api.Activity, to copyOrder, now time.Time) bool {
	if x.ID != than.ID {
		return false
	}
	if xo.arrived > 0 && to.sent > 0 && xo.arrived < to.sent {
		return true
	}
	if to.arrived > 0 && xo.sent > 0 && to.arrived < xo.sent {
		return false
	}
	return olderCopy(x, than, now)
}
