package server

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/vigil-console/vigil/api"
)

// checkStatus refuses to store an activity whose status no list would show:
// a list filtering no status merges one index range per status of
// api.ActivityStatuses, so another status would hide its activities.
func checkStatus(status string) error {
	if !slices.Contains(api.ActivityStatuses(), status) {
		return fmt.Errorf("activity status %q is not one of api.ActivityStatuses", status)
	}
	return nil
}

// maxListArms bounds how many index ranges one list_activities query merges;
// beyond it (many statuses times many types) the type filter is applied while
// walking the status ranges instead.
const maxListArms = 64

// activityListing is a list_activities page to fetch: an organization's
// activities matching any of statuses and any of types, in seq order, after
// (or before) a cursor, at most limit of them.
//
// Each (status) or (status, type) value is one range of an index ordered by
// seq (migrations 6 and 8); a filter of types alone is a range per status and
// type; and the ranges are merged by a compound
// SELECT whose ORDER BY ... LIMIT lets SQLite stop after limit rows: the cost
// follows the page size, not the size of the organization. A single IN list
// over the same index would have to read every matching row to sort them.
type activityListing struct {
	orgID    string
	statuses []string
	types    []string
	cursorOp string // "", "<" (older than cursor) or ">" (newer than cursor)
	cursor   int64
	limit    int
}

// queryColumns returns the SQL selecting columns (which must include seq) and
// its arguments; rows come newest first, except for a ">" cursor (the page
// preceding it), where they come oldest first.
func (l activityListing) queryColumns(columns string) (string, []any) {
	statuses, types := dedupe(l.statuses), dedupe(l.types)
	var arms []arm
	switch {
	case len(statuses) > 0 && len(types) > 0 && len(statuses)*len(types) <= maxListArms:
		for _, st := range statuses {
			for _, t := range types {
				arms = append(arms, arm{"org_id = ? AND status = ? AND type = ?", []any{l.orgID, st, t}})
			}
		}
	case len(statuses) > 0:
		arms = statusArms(l.orgID, statuses, types)
	case len(types) > 0 && len(api.ActivityStatuses())*len(types) <= maxListArms:
		for _, st := range api.ActivityStatuses() {
			for _, t := range types {
				arms = append(arms, arm{"org_id = ? AND status = ? AND type = ?", []any{l.orgID, st, t}})
			}
		}
	default:
		// Every status, each its own range (migration 8), with the type
		// filter applied while walking them when there are too many types.
		arms = statusArms(l.orgID, api.ActivityStatuses(), types)
	}
	order := "DESC"
	if l.cursorOp == ">" {
		order = "ASC"
	}
	var sql strings.Builder
	var args []any
	for i, a := range arms {
		if i > 0 {
			sql.WriteString(" UNION ALL ")
		}
		sql.WriteString("SELECT " + columns + " FROM activities WHERE " + a.where)
		args = append(args, a.args...)
		if l.cursorOp != "" {
			sql.WriteString(" AND seq " + l.cursorOp + " ?")
			args = append(args, l.cursor)
		}
	}
	sql.WriteString(" ORDER BY seq " + order + " LIMIT ?")
	args = append(args, l.limit)
	return sql.String(), args
}

// arm is one index range of a listing: a WHERE clause and its arguments.
type arm struct {
	where string
	args  []any
}

// statusArms is a range per status, with the type filter (if any) applied
// while walking it.
func statusArms(orgID string, statuses, types []string) []arm {
	extra, extraArgs := "", []any{}
	if len(types) > 0 {
		extra = " AND type IN (?" + strings.Repeat(", ?", len(types)-1) + ")"
		for _, t := range types {
			extraArgs = append(extraArgs, t)
		}
	}
	arms := make([]arm, 0, len(statuses))
	for _, st := range statuses {
		arms = append(arms, arm{"org_id = ? AND status = ?" + extra, append([]any{orgID, st}, extraArgs...)})
	}
	return arms
}

// dedupe drops repeated values (a repeated filter value would list its
// activities twice), keeping the first occurrence's order.
func dedupe(values []string) []string {
	var out []string
	for _, v := range values {
		if !slices.Contains(out, v) {
			out = append(out, v)
		}
	}
	return out
}

// listVersions runs the listing in q: the page's rows, identified by seq
// with their version (updated_ns and status, which every change of a row
// sets), for activitiesAt.
func (s *Server) listVersions(ctx context.Context, q querier, l activityListing) ([]activityVersion, error) {
	query, args := l.queryColumns("seq, updated_ns, status")
	return s.pageVersions(ctx, q, query, args, true)
}

// pageVersions runs a query of (seq, updated_ns, status) rows of activities,
// through a cache emptied by any write to activities, votes or users: the
// console polls the same page (and the same activity) every few seconds,
// mostly while nothing changes. An empty result is kept only when keepEmpty
// (an empty page of a list, not an unknown activity: anyone can ask for one).
func (s *Server) pageVersions(ctx context.Context, q querier, query string, args []any, keepEmpty bool) ([]activityVersion, error) {
	c := s.db.cache
	key := pageKey(query, args)
	if page, ok := get(c, &c.pages, key); ok && cacheUsable(q, changedVotes) {
		cacheHit(q)
		return page, nil
	}
	gen := c.cacheGens(q).votes
	rows, err := q.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	var page []activityVersion
	for rows.Next() {
		var v activityVersion
		if err := rows.Scan(&v.seq, &v.updated, &v.status); err != nil {
			rows.Close()
			return nil, err
		}
		page = append(page, v)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	if len(page) > 0 || keepEmpty {
		putBounded(c, gen, &c.votesGen, &c.pages, key, page, maxListCacheEntries)
	}
	return page, nil
}

// pageKey names a query with its arguments, each written as Go syntax (a
// string quoted) so that no two argument lists give the same key.
func pageKey(query string, args []any) string {
	b := make([]byte, 0, len(query)+64)
	b = append(b, query...)
	for _, a := range args {
		b = append(b, 0)
		switch v := a.(type) { // the common kinds without fmt's reflection
		case string:
			b = strconv.AppendQuote(b, v)
		case int64:
			b = strconv.AppendInt(b, v, 10)
		case int:
			b = strconv.AppendInt(b, int64(v), 10)
		default:
			b = fmt.Appendf(b, "%#v", a)
		}
	}
	return string(b)
}

// activitiesAt returns the activities of page, in its order: those decoded
// before at the same version from a cache (a version is one content, in any
// snapshot), the others read and decoded in one statement in q. Callers get
// their own copies, without votes.
func (s *Server) activitiesAt(ctx context.Context, q querier, page []activityVersion) ([]*activity, error) {
	c := s.db.cache
	found := make(map[int64]*activity, len(page))
	var missing []any
	c.mu.RLock()
	for _, v := range page {
		if a, ok := c.rows[v.seq]; ok && a.Updated.UnixNano() == v.updated && a.Status == v.status {
			found[v.seq] = a
		} else {
			missing = append(missing, v.seq)
		}
	}
	c.mu.RUnlock()
	if len(missing) > 0 {
		rows, err := q.QueryContext(ctx, `SELECT `+activityColumns+` FROM activities WHERE seq IN (?`+strings.Repeat(", ?", len(missing)-1)+`)`, missing...)
		if err != nil {
			return nil, err
		}
		var loaded []*activity
		for rows.Next() {
			a, err := scanActivity(rows)
			if err != nil {
				rows.Close()
				return nil, err
			}
			found[a.Seq] = a
			loaded = append(loaded, a)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, err
		}
		c.mu.Lock()
		if c.rows == nil || len(c.rows)+len(loaded) > maxListCacheEntries {
			c.rows = map[int64]*activity{}
		}
		for _, a := range loaded {
			if a.stored <= maxCachedActivityBytes {
				c.rows[a.Seq] = a
			}
		}
		c.mu.Unlock()
	}
	out := make([]*activity, 0, len(page))
	for _, v := range page {
		a := found[v.seq]
		if a == nil {
			continue // gone between the two statements (not in this service: activities are never deleted)
		}
		cp := *a // the cached one is shared: its fields are replaced, never changed in place
		cp.Votes = nil
		out = append(out, &cp)
	}
	return out, nil
}

// activityVersion identifies a row of activities at one state.
type activityVersion struct {
	seq, updated int64
	status       string
}
