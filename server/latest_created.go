package server

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"sync"
	"time"
)

// maxCreatedClamp bounds how far ahead of the clock a new activity may be
// dated to keep lists in creation order. A step back within it (NTP slewing,
// a resumed VM) is absorbed; a larger one is a clock that ran ahead and was
// corrected, and following it would date every later activity, and its
// requester's approval, in the future: each approval would outlive its 24
// hours by the whole glitch (audit 139).
const maxCreatedClamp = 5 * time.Minute

// maxLatestCreated bounds the organizations latestCreated remembers; past it
// the memory starts afresh, and each organization costs one query again.
const maxLatestCreated = 4096

// latestCreated remembers each organization's newest activity creation time
// (Unix ns), so that the writer dates a new activity without a query: the
// query, a merge of one index range per status, cost every submit ~70
// allocations and a statement in the single writer (docs/performance.md).
// A remembered time is never older than the organization's newest stored
// activity: every activity the service creates is dated by createdAt, which
// records it, and the seed forgets the organizations it writes. It may be
// newer, when the transaction that dated an activity rolled back; a later
// activity is then dated at most that much later, as the clamp allows.
type latestCreated struct {
	mu sync.Mutex
	ns map[string]int64
}

// createdAt is a new activity's creation time: now, or the creation time
// of the organization's latest activity when the clock has stepped back
// since by at most maxCreatedClamp. Lists are newest first by submission
// (seq), and a client sorting or paging by createdAt must see the same
// order; the votes' times are clamped alike (castVote). After a larger step
// back the activity is dated now, and the order and createdAt disagree
// until the clock passes the glitch.
func (s *Server) createdAt(ctx context.Context, q querier, orgID string, now time.Time) (time.Time, error) {
	l := &s.latest
	l.mu.Lock()
	latest, known := l.ns[orgID]
	l.mu.Unlock()
	if !known {
		var err error
		if latest, err = newestCreated(ctx, q, orgID); err != nil {
			return time.Time{}, err
		}
	}
	created := now
	if ahead := time.Duration(latest - now.UnixNano()); ahead > 0 && ahead <= maxCreatedClamp {
		created = time.Unix(0, latest)
	}
	l.mu.Lock()
	if l.ns == nil || len(l.ns) >= maxLatestCreated {
		l.ns = make(map[string]int64)
	}
	l.ns[orgID] = max(l.ns[orgID], latest, created.UnixNano())
	l.mu.Unlock()
	return created, nil
}

// forget drops what latestCreated remembers of an organization, for writers
// that date activities themselves (the seed).
func (l *latestCreated) forget(orgID string) {
	l.mu.Lock()
	delete(l.ns, orgID)
	l.mu.Unlock()
}

// newestCreated reads the creation time of the organization's latest
// activity (0 when it has none).
func newestCreated(ctx context.Context, q querier, orgID string) (int64, error) {
	query, args := activityListing{orgID: orgID, limit: 1}.queryColumns("seq, created_ns")
	var seq, latest int64
	err := q.QueryRowContext(ctx, query, args...).Scan(&seq, &latest)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("latest activity of organization %s: %w", orgID, err)
	}
	return latest, nil
}
