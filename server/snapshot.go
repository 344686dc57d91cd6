// Read snapshots: the statements of one answer read one committed state.

package server

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

// snapshot is a read-only transaction on one connection of the read pool.
// In WAL mode its statements all see the state committed when its first one
// ran, whatever commits meanwhile: a page of activities, their rows and
// their votes agree (a row picked as CONSENSUS_NEEDED is not read again
// after the vote that completed it). The transaction begins with the first
// statement (SQLite's snapshot would begin there anyway): an answer taken
// whole from the caches (the console polling its pending list between
// votes) costs no transaction.
type snapshot struct {
	tx *sql.Tx // nil until the first statement
	c  *cachedDB
	// gens are the caches' generations read before the snapshot began: what
	// it reads may be cached only under them (a later generation may already
	// have dropped what this snapshot still sees).
	gens generations
	// noCache: read everything here, nothing from the caches.
	noCache bool
	// hit: something of the answer came from a cache (a page, votes, an
	// encoding, the organization or its policies), valid at gens.
	hit    bool
	missed []string // statements not yet prepared: prepared once it ends
}

// generations are the cache's generations at one moment, and what a commit
// in flight then changed.
type generations struct {
	auth, policy, feat, votes uint64
	committing                uint8
}

func (c *cache) allGenerations() generations {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return generations{c.authGen, c.policyGen, c.featGen, c.votesGen, c.committing}
}

// maxSnapshotTries bounds how often an answer is read again because a write
// changed what it took from the caches; the last try reads everything in
// its snapshot.
const maxSnapshotTries = 3

// inSnapshot runs read in a snapshot and returns its error. What read takes
// from the caches (valid when the snapshot's generations were read) must
// agree with what it reads in the snapshot (a moment later): when a write
// changed the caches meanwhile and read used them, read runs again.
func (s *Server) inSnapshot(ctx context.Context, read func(q querier) error) error {
	for try := 1; ; try++ {
		sn := s.db.snapshot(try == maxSnapshotTries)
		err := func() error {
			defer sn.end(ctx) // even when read panics: an open reader would pin the WAL
			return read(sn)
		}()
		if err != nil || !sn.hit || s.db.cache.allGenerations() == sn.gens {
			return err
		}
	}
}

// snapshot begins a snapshot of the read pool.
func (s *store) snapshot(noCache bool) *snapshot {
	return &snapshot{c: s.read, gens: s.cache.allGenerations(), noCache: noCache}
}

// begin begins the transaction, on the first statement.
func (sn *snapshot) begin(ctx context.Context) error {
	if sn.tx != nil {
		return nil
	}
	tx, err := sn.c.db.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return fmt.Errorf("begin read: %w", err)
	}
	sn.tx = tx
	return nil
}

// end closes the snapshot (it wrote nothing) and prepares the statements it
// ran unprepared: preparing needs a connection of the pool, which a snapshot
// holding one must not wait for (every connection may be held by one).
func (sn *snapshot) end(ctx context.Context) {
	if sn.tx != nil {
		sn.tx.Rollback()
	}
	for _, q := range sn.missed {
		sn.c.prepare(ctx, q)
	}
}

// stmt is the snapshot's handle of query's prepared statement, nil when it
// is not prepared yet.
func (sn *snapshot) stmt(ctx context.Context, query string) *sql.Stmt {
	st := sn.c.cached(query)
	if st == nil {
		sn.missed = append(sn.missed, query)
		return nil
	}
	return sn.tx.StmtContext(ctx, st)
}

// before runs what every statement of the read pool runs first (the trace
// and the faults of tests), then begins the transaction if needed.
func (sn *snapshot) before(ctx context.Context, query string, args []any) error {
	if sn.c.trace != nil {
		sn.c.trace(query, args)
	}
	if err := sn.c.faults.injected(query, args); err != nil {
		return err
	}
	return sn.begin(ctx)
}

var errSnapshotWrite = errors.New("a read snapshot cannot write")

func (sn *snapshot) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	return nil, fmt.Errorf("%s: %w", query, errSnapshotWrite)
}

func (sn *snapshot) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	if err := sn.before(ctx, query, args); err != nil {
		return nil, err
	}
	if st := sn.stmt(ctx, query); st != nil {
		return st.QueryContext(ctx, args...)
	}
	return sn.tx.QueryContext(ctx, query, args...)
}

func (sn *snapshot) QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row {
	if err := sn.before(ctx, query, args); err != nil {
		return failedRow(ctx, err)
	}
	if st := sn.stmt(ctx, query); st != nil {
		return st.QueryRowContext(ctx, args...)
	}
	return sn.tx.QueryRowContext(ctx, query, args...)
}

// cacheGens is the generations under which what q reads may be cached:
// a snapshot's, or the current ones.
func (c *cache) cacheGens(q querier) generations {
	if sn, ok := q.(*snapshot); ok {
		return sn.gens
	}
	return c.allGenerations()
}

// cacheHit notes that q's answer took something from a cache.
func cacheHit(q querier) {
	if sn, ok := q.(*snapshot); ok {
		sn.hit = true
	}
}
