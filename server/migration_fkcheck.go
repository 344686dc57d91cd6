package server

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
)

// A database can hold rows whose parent is gone, left by an edit made with
// foreign keys off (a DELETE in a sqlite3 shell, where they are off by
// default). The vigil that served it did not mind, so an upgrade must not
// either: each migration refuses only the dangling rows it would add, and the
// ones that were there before are logged once, with what to do about them.

// danglingGroup is the rows of one table whose foreign key (column, into
// parent's key) finds no row, as PRAGMA foreign_key_check reports them.
type danglingGroup struct {
	table, column, parent, key string
}

// danglingRows is every dangling row of a database: how many of each group,
// and the rowids of the first few (to name in a message).
type danglingRows struct {
	count  map[danglingGroup]int
	rowids map[danglingGroup][]int64
}

// danglingShown is how many rowids of a group a message names.
const danglingShown = 5

// findDangling runs the database-wide foreign key check.
func findDangling(ctx context.Context, q querier) (danglingRows, error) {
	d := danglingRows{count: map[danglingGroup]int{}, rowids: map[danglingGroup][]int64{}}
	type fk struct {
		table string
		id    int64
	}
	var found []struct {
		fk
		parent string
		rowid  sql.NullInt64 // NULL for a table without rowid
	}
	rows, err := q.QueryContext(ctx, `PRAGMA foreign_key_check`)
	if err != nil {
		return d, fmt.Errorf("check foreign keys: %w", err)
	}
	for rows.Next() {
		var r struct {
			fk
			parent string
			rowid  sql.NullInt64
		}
		if err := rows.Scan(&r.table, &r.rowid, &r.parent, &r.id); err != nil {
			rows.Close()
			return d, fmt.Errorf("check foreign keys: %w", err)
		}
		found = append(found, r)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return d, fmt.Errorf("check foreign keys: %w", err)
	}
	// The columns of each foreign key, for the advice: one look-up per key.
	columns := map[fk][2]string{}
	for _, r := range found {
		c, ok := columns[r.fk]
		if !ok {
			err := q.QueryRowContext(ctx, `SELECT "from", COALESCE("to", '') FROM pragma_foreign_key_list(?) WHERE id = ? AND seq = 0`, r.table, r.id).Scan(&c[0], &c[1])
			if err != nil && !errors.Is(err, sql.ErrNoRows) {
				return d, fmt.Errorf("check foreign keys: columns of %s: %w", r.table, err)
			}
			columns[r.fk] = c
		}
		g := danglingGroup{table: r.table, column: c[0], parent: r.parent, key: c[1]}
		d.count[g]++
		if r.rowid.Valid && len(d.rowids[g]) < danglingShown {
			d.rowids[g] = append(d.rowids[g], r.rowid.Int64)
		}
	}
	return d, nil
}

// groups is d's groups in a stable order, for messages.
func (d danglingRows) groups() []danglingGroup {
	gs := make([]danglingGroup, 0, len(d.count))
	for g := range d.count {
		gs = append(gs, g)
	}
	slices.SortFunc(gs, func(a, b danglingGroup) int {
		return strings.Compare(a.table+"\x00"+a.column, b.table+"\x00"+b.column)
	})
	return gs
}

// added refuses the dangling rows in after that were not in before (counted
// by table and parent: a migration that rebuilds a table may renumber its
// rowids). The migration that made them is a bug, not the owner's data.
func (before danglingRows) added(after danglingRows) error {
	for _, g := range after.groups() {
		n := after.count[g] - before.count[g]
		if n <= 0 {
			continue
		}
		var rowids []int64
		for _, id := range after.rowids[g] {
			if !slices.Contains(before.rowids[g], id) {
				rowids = append(rowids, id)
			}
		}
		return fmt.Errorf("it would leave %d row(s) of %s (rowids %s) whose %s references a row of %s that is gone, so it was rolled back and the database is as it was; "+
			"this is a fault of the migration, not of your data: keep running the previous vigil on this database and report this message",
			n, g.table, formatRowids(rowids, n), g.column, g.parent)
	}
	return nil
}

// warn logs each group of d: rows that predate the upgrade, which it leaves
// as they are.
func (d danglingRows) warn(log *slog.Logger) {
	for _, g := range d.groups() {
		log.Warn("the database holds rows that reference rows that are gone, left by an edit made with foreign keys off (such as a DELETE in a sqlite3 shell); "+
			"the upgrade leaves them as they are: restore the "+g.parent+" rows they reference from a backup, or, with vigil stopped, delete them in sqlite3",
			"table", g.table, "column", g.column, "references", g.parent, "rows", d.count[g], "rowids", formatRowids(d.rowids[g], d.count[g]),
			"delete", g.deleteStatement(d.rowids[g]))
	}
}

// deleteStatement is the SQL that deletes g's rows: all of them by their
// column when the key it references is known, else those of rowids.
func (g danglingGroup) deleteStatement(rowids []int64) string {
	if g.column != "" && g.key != "" {
		return fmt.Sprintf("DELETE FROM %s WHERE %s NOT IN (SELECT %s FROM %s);", g.table, g.column, g.key, g.parent)
	}
	return fmt.Sprintf("DELETE FROM %s WHERE rowid IN (%s);", g.table, joinRowids(rowids))
}

// formatRowids lists rowids, saying when they are only the first of n.
func formatRowids(rowids []int64, n int) string {
	if len(rowids) == 0 {
		return "unknown"
	}
	s := joinRowids(rowids)
	if len(rowids) < n {
		s += fmt.Sprintf(", … (the first %d of %d)", len(rowids), n)
	}
	return s
}

func joinRowids(rowids []int64) string {
	parts := make([]string, len(rowids))
	for i, id := range rowids {
		parts[i] = fmt.Sprint(id)
	}
	return strings.Join(parts, ", ")
}
