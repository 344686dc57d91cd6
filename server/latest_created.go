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

// latestCreated remembers each organization's newest activity's creation
// time (Unix ns): the creation time of the activity submitted last, which
// is what a new one is compared with, so that the writer dates it without
// a query: the query, a merge of one index range per status, cost every
// submit ~70 allocations and a statement in the single writer
// (docs/performance.md). Every activity the service creates is dated by
// createdAt and every seeded one noted by the seed, in the order they are
// written. A submission that fails forgets its organization (submit), so
// that the next reads the stored newest; only a submission dated in the
// same moments from a failed one's time can differ from what the query
// would have given, and only after the clock stepped back.
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
	l.note(orgID, created)
	return created, nil
}

// note records t as the creation time of the organization's newest
// activity: the one just written. Not the latest of all: after a clock that
// ran ahead was corrected, the next activity is compared with the one
// before it, or a small step back that followed would date it before that
// one (audit 149).
func (l *latestCreated) note(orgID string, t time.Time) {
	l.mu.Lock()
	if l.ns == nil || len(l.ns) >= maxLatestCreated {
		l.ns = make(map[string]int64)
	}
	l.ns[orgID] = t.UnixNano()
	l.mu.Unlock()
}

// forget drops what latestCreated remembers of an organization: the next
// activity reads its newest from the database, as after a start.
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
