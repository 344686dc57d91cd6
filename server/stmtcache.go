// Prepared statements kept per connection and per transaction, and what
// each statement may change.

package server

import (
	"context"
	"database/sql"
	"errors"
	"strings"
	"sync"
)

// cachedDB prepares each distinct statement once (SQLite parsing is a large
// part of a small query's cost) and reuses it on every connection.
type cachedDB struct {
	db            *sql.DB
	noPrepareInTx bool
	mu            sync.Mutex
	stmts         map[string]*sql.Stmt
	kinds         map[string]queryKind // what each statement run in a transaction may change
	// trace, when set (by tests, before the first query), sees every
	// statement run outside a transaction, with its arguments.
	trace  func(query string, args []any)
	faults faults // statements tests make fail (faults.go)
}

// maxCachedStmts bounds the cache; queries built with variable IN lists could
// otherwise grow it without bound.
const maxCachedStmts = 256

func (c *cachedDB) cached(query string) *sql.Stmt {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.stmts[query]
}

func (c *cachedDB) prepare(ctx context.Context, query string) *sql.Stmt {
	if st := c.cached(query); st != nil {
		return st
	}
	st, err := c.db.PrepareContext(ctx, query)
	if err != nil {
		return nil // the unprepared call reports the error
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if old := c.stmts[query]; old != nil {
		st.Close()
		return old
	}
	if len(c.stmts) >= maxCachedStmts {
		st.Close()
		return nil
	}
	if c.stmts == nil {
		c.stmts = map[string]*sql.Stmt{}
	}
	c.stmts[query] = st
	return st
}

func (c *cachedDB) close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	var err error
	for _, st := range c.stmts {
		err = errors.Join(err, st.Close())
	}
	c.stmts = nil
	return err
}

func (c *cachedDB) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	if c.trace != nil {
		c.trace(query, args)
	}
	if err := c.faults.injected(query, args); err != nil {
		return nil, err
	}
	if st := c.prepare(ctx, query); st != nil {
		return st.ExecContext(ctx, args...)
	}
	return c.db.ExecContext(ctx, query, args...)
}

func (c *cachedDB) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	if c.trace != nil {
		c.trace(query, args)
	}
	if err := c.faults.injected(query, args); err != nil {
		return nil, err
	}
	if st := c.prepare(ctx, query); st != nil {
		return st.QueryContext(ctx, args...)
	}
	return c.db.QueryContext(ctx, query, args...)
}

func (c *cachedDB) QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row {
	if c.trace != nil {
		c.trace(query, args)
	}
	if err := c.faults.injected(query, args); err != nil {
		return failedRow(ctx, err)
	}
	if st := c.prepare(ctx, query); st != nil {
		return st.QueryRowContext(ctx, args...)
	}
	return c.db.QueryRowContext(ctx, query, args...)
}

// txn is a write transaction, with the statement cache of the writer.
type txn struct {
	tx      *sql.Tx
	c       *cachedDB
	cache   *cache
	changed uint8                // cached tables this transaction wrote (tablesChanged)
	writes  int                  // statements run that may have changed data
	careful bool                 // intents run in savepoints (execIntent)
	stmts   map[string]*sql.Stmt // this transaction's handles of prepared statements
}

// wrote notes a statement's effect on the caches as it runs, so that readers
// stop trusting them while the transaction is open, not only once it commits.
func (t *txn) wrote(query string) {
	k := t.c.kindOf(query)
	if k.mayWrite {
		t.writes++
	}
	if k.changed != 0 {
		t.changed |= k.changed
		t.cache.invalidate(k.changed)
	}
}

// queryKind is what a statement may do to the data and the caches.
type queryKind struct {
	mayWrite bool
	changed  uint8 // tablesChanged
}

// kindOf classifies query, remembering the answer for the statements that
// run again and again (at most maxCachedKinds of them).
func (c *cachedDB) kindOf(query string) queryKind {
	c.mu.Lock()
	k, ok := c.kinds[query]
	c.mu.Unlock()
	if ok {
		return k
	}
	k = queryKind{mayWrite: mayWrite(query), changed: tablesChanged(query)}
	c.mu.Lock()
	if len(c.kinds) < maxCachedKinds {
		if c.kinds == nil {
			c.kinds = make(map[string]queryKind)
		}
		c.kinds[query] = k
	}
	c.mu.Unlock()
	return k
}

// maxCachedKinds bounds cachedDB.kinds like maxCachedStmts bounds stmts.
const maxCachedKinds = 1024

func (t *txn) stmt(ctx context.Context, query string) *sql.Stmt {
	// A group commit runs the same few statements once per job: the
	// transaction's own handle of each (database/sql allocates and registers
	// one per StmtContext call) is made once per transaction.
	if st := t.stmts[query]; st != nil {
		return st
	}
	var st *sql.Stmt
	if t.c.noPrepareInTx {
		st = t.c.cached(query)
	} else {
		st = t.c.prepare(ctx, query)
	}
	if st == nil {
		return nil
	}
	st = t.tx.StmtContext(ctx, st)
	if t.stmts == nil {
		t.stmts = make(map[string]*sql.Stmt)
	}
	t.stmts[query] = st
	return st
}

// uncancelled is the context the writer's statements run with: the caller's
// values without its cancellation. A statement of a group commit must not be
// interrupted because its caller hung up: SQLite's interrupt rolls back the
// whole transaction, every job's writes with it, when it stops an INSERT,
// UPDATE or DELETE; and with a cancellable context the driver and
// database/sql start a goroutine per statement to watch it. A job whose
// caller has gone is skipped before it starts (runJob).
func uncancelled(ctx context.Context) context.Context { return context.WithoutCancel(ctx) }

func (t *txn) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	ctx = uncancelled(ctx)
	if err := t.c.faults.injected(query, args); err != nil {
		return nil, err
	}
	t.wrote(query)
	if st := t.stmt(ctx, query); st != nil {
		return st.ExecContext(ctx, args...)
	}
	return t.tx.ExecContext(ctx, query, args...)
}

func (t *txn) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	ctx = uncancelled(ctx)
	if err := t.c.faults.injected(query, args); err != nil {
		return nil, err
	}
	t.wrote(query)
	if st := t.stmt(ctx, query); st != nil {
		return st.QueryContext(ctx, args...)
	}
	return t.tx.QueryContext(ctx, query, args...)
}

func (t *txn) QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row {
	ctx = uncancelled(ctx)
	if err := t.c.faults.injected(query, args); err != nil {
		return failedRow(ctx, err)
	}
	t.wrote(query)
	if st := t.stmt(ctx, query); st != nil {
		return st.QueryRowContext(ctx, args...)
	}
	return t.tx.QueryRowContext(ctx, query, args...)
}

// mayWrite tells whether a statement may change data: anything but a plain
// SELECT or savepoint control counts.
func mayWrite(query string) bool {
	q := strings.TrimLeft(query, " \t\n")
	for _, p := range []string{"SELECT", "SAVEPOINT", "RELEASE", "ROLLBACK TO"} {
		if len(q) >= len(p) && strings.EqualFold(q[:len(p)], p) {
			return false
		}
	}
	return true
}
