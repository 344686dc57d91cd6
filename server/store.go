package server

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	_ "modernc.org/sqlite" // registers the "sqlite" driver

	"github.com/vigil-console/vigil/api"
)

// DatabaseFile is the SQLite file inside Config.DataDir.
const DatabaseFile = "vigil.db"

// store is the SQLite database behind the service.
//
// All writes go through one goroutine (writer) that runs them in transactions,
// one at a time: votes on an activity can never interleave. Write jobs that
// arrive together share one transaction (group commit), each inside its own
// savepoint so that a failing job leaves no trace (a job alone is undone by
// rolling its transaction back), and every job's caller gets
// its answer only after the commit is durable (synchronous=FULL).
type store struct {
	path            string // the database file; "" in memory
	writeDB, readDB *sql.DB
	read            *cachedDB // reads, outside any transaction
	write           *cachedDB // statements of the write transactions
	cache           *cache    // keys, organizations, policies; see authcache.go

	mu     sync.RWMutex // guards closed against sends on jobs
	closed bool
	jobs   chan *writeJob
	done   chan struct{} // closed when the writer has finished

	// Group commit: at most maxBatch jobs share a transaction; after taking
	// what is queued, the writer waits up to linger for more. Read at every
	// write (benchmarks compare settings).
	maxBatch atomic.Int64
	linger   atomic.Int64 // nanoseconds
	batches  atomic.Int64 // transactions committed (or failed)
	batched  atomic.Int64 // jobs run in them
}

type writeJob struct {
	ctx  context.Context
	fn   func(tx *txn) error
	done chan error
}

// writerBusyTimeout is how long the writer waits for the write lock of
// vigil.db while another process holds it (the service itself is its only
// writer). Every write of the service queues behind that wait, and each
// batch waits it once before all its callers get 503 STORAGE_FAILED; 2 s
// lets a hand-run statement finish, and tells callers of a sqlite3 shell
// left in a transaction well within a client's timeout.
const writerBusyTimeout = 2 * time.Second

// readerBusyTimeout bounds a read's wait on a lock: in WAL mode readers wait
// only while another connection recovers the WAL.
const readerBusyTimeout = 10 * time.Second

// writerCacheKiB is the page cache of each writer connection, in KiB.
const writerCacheKiB = 16 << 10

// defaultMaxBatch bounds how many write jobs share one transaction. The
// writer never waits for a batch to fill (linger 0): jobs that arrive while a
// commit's fsync runs form the next batch. Measured trade-offs are in
// docs/performance.md.
const defaultMaxBatch = 64

var errStoreClosed = &Error{Status: http.StatusServiceUnavailable, Code: api.CodeUnavailable, ErrorCode: "SHUTTING_DOWN",
	Message: "the service is shutting down; retry against the restarted service"}

// querier is what both the read pool and a write transaction offer; store
// helpers take one so the same code runs inside and outside a transaction.
type querier interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

var memoryDBs atomic.Int64

// log hears what migrations changed in stored data (nil: nobody); now
// names the backup an upgrade writes first.
func openStore(ctx context.Context, dataDir string, image []byte, log *slog.Logger, now func() time.Time) (*store, error) {
	s := &store{jobs: make(chan *writeJob, 256), done: make(chan struct{}), cache: &cache{}}
	s.maxBatch.Store(defaultMaxBatch)
	if dataDir == "" {
		// A private in-memory database: one connection, shared by readers and the
		// writer (each new connection to :memory: would be a new, empty database).
		name := fmt.Sprintf("file:vigil-mem-%d-%s?mode=memory&_pragma=foreign_keys(ON)", memoryDBs.Add(1), randomHex(4))
		db, err := sql.Open("sqlite", name)
		if err != nil {
			return nil, fmt.Errorf("open in-memory database: %w", err)
		}
		db.SetMaxOpenConns(1)
		if image != nil {
			if err := restoreImage(ctx, db, image); err != nil {
				db.Close()
				return nil, err
			}
		}
		// After an image, this only checks its version (or migrates an older one).
		if err := migrateLogged(ctx, db, len(migrations), log, now); err != nil {
			db.Close()
			return nil, err
		}
		s.writeDB, s.readDB = db, db
		s.read = &cachedDB{db: db}
		// With one connection, a statement cannot be prepared while a
		// transaction holds it: write transactions run unprepared statements.
		s.write = &cachedDB{db: db, noPrepareInTx: true}
	} else {
		if err := s.openFile(ctx, dataDir, log, now); err != nil {
			return nil, err
		}
	}
	go s.writer()
	return s, nil
}

func (s *store) openFile(ctx context.Context, dataDir string, log *slog.Logger, now func() time.Time) error {
	// temp_store(MEMORY): every write job runs in a savepoint, and SQLite
	// keeps the pages a savepoint may have to restore in a sub-journal, by
	// default a temporary file written with a syscall per page; in memory it
	// costs no I/O, and durability is the WAL's business. wal_autocheckpoint
	// (8000): pages that many commits rewrite (index tails) are copied to the
	// database once per 8,000 WAL pages instead of once per 1,000
	// (docs/performance.md). journal_size_limit: a long read by another
	// process (a sqlite3 shell) blocks checkpoints and the WAL grows; once
	// it ends, the WAL is cut back to 64 MiB when it restarts instead of
	// staying at its peak until shutdown. 64 MiB is above the ~32 MiB the
	// autocheckpoint lets it reach, so a normal restart never truncates it.
	const pragmas = "_pragma=journal_mode(WAL)&_pragma=synchronous(FULL)&_pragma=foreign_keys(ON)&_pragma=temp_store(MEMORY)&_pragma=wal_autocheckpoint(8000)&_pragma=journal_size_limit(67108864)"
	if err := os.MkdirAll(dataDir, 0o700); err != nil {
		return fmt.Errorf("create data directory: %w", err)
	}
	path := filepath.Join(dataDir, DatabaseFile)
	if err := prepareDatabaseFile(ctx, path); err != nil {
		return err
	}
	if err := checkDatabaseFile(ctx, path); err != nil {
		return err
	}
	dsn := "file:" + uriPath(path) + "?" + pragmas
	// The writer's page cache holds a whole group commit's dirty pages: with
	// the default 2 MB, SQLite spilled them to the WAL mid-transaction
	// (pagerStress) and wrote pages twice (docs/performance.md).
	//
	// The writer waits writerBusyTimeout for another process's write lock,
	// readers readerBusyTimeout (they wait only while a WAL is recovered).
	w, err := sql.Open("sqlite", dsn+"&_pragma=busy_timeout("+strconv.Itoa(int(writerBusyTimeout.Milliseconds()))+
		")&_pragma=cache_size("+strconv.Itoa(-writerCacheKiB)+")")
	if err != nil {
		return fmt.Errorf("open %s: %w", path, err)
	}
	// Transactions run on one connection at a time (the writer); the second
	// connection lets statements be prepared while a transaction is open.
	w.SetMaxOpenConns(2)
	w.SetMaxIdleConns(2)
	if err := w.PingContext(ctx); err != nil {
		w.Close()
		// Switching to WAL takes the file's lock: a program holding it
		// (locking_mode EXCLUSIVE) has it open, and nothing was written.
		if isLockBusy(err) {
			return fmt.Errorf("open %s: %w (%v)", path, errDatabaseInUse, err)
		}
		if damaged := damagedDatabase(path, err); damaged != nil {
			return damaged
		}
		return fmt.Errorf("open %s: %w", path, err)
	}
	if err := migrateLogged(ctx, w, len(migrations), log, now); err != nil {
		w.Close()
		return migrationFailure(path, err)
	}
	// The database holds the service's private keys (TLS fetcher, webhook ring).
	for _, f := range []string{path, path + "-wal", path + "-shm"} {
		if err := restrictToOwner(f); err != nil {
			w.Close()
			return fmt.Errorf("restrict %s: %w", f, err)
		}
	}
	r, err := sql.Open("sqlite", dsn+"&_pragma=busy_timeout("+strconv.Itoa(int(readerBusyTimeout.Milliseconds()))+")&_pragma=query_only(ON)")
	if err != nil {
		w.Close()
		return fmt.Errorf("open %s for reading: %w", path, err)
	}
	r.SetMaxOpenConns(8)
	r.SetMaxIdleConns(8)
	s.writeDB, s.readDB = w, r
	s.read, s.write = &cachedDB{db: r}, &cachedDB{db: w}
	s.path = path
	return nil
}

// restrictToOwner takes the group's and others' permissions off path, if it
// exists. It only removes bits: a vigil.db the operator made read-only stays
// read-only (and fails writes with STORAGE_FAILED, as documented).
func restrictToOwner(path string) error {
	fi, err := os.Stat(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	if perm := fi.Mode().Perm(); perm&^0o600 != 0 {
		return os.Chmod(path, perm&0o600)
	}
	return nil
}

// close waits for queued writes, then closes the databases.
func (s *store) close() error {
	s.mu.Lock()
	if !s.closed {
		s.closed = true
		close(s.jobs)
	}
	s.mu.Unlock()
	<-s.done
	err := errors.Join(s.read.close(), s.write.close(), s.writeDB.Close())
	if s.readDB != s.writeDB {
		err = errors.Join(err, s.readDB.Close())
	}
	return err
}

// inTx runs fn in a write transaction and returns once its effects are
// committed (or fn's error, with its writes undone). fn may run more than
// once (runBatch): it must act only through tx and by setting its own
// results, never appending to them or acting outside the database.
func (s *store) inTx(ctx context.Context, fn func(tx *txn) error) error {
	job := &writeJob{ctx: ctx, fn: fn, done: make(chan error, 1)}
	s.mu.RLock()
	if s.closed {
		s.mu.RUnlock()
		return errStoreClosed
	}
	s.jobs <- job
	s.mu.RUnlock()
	return <-job.done
}

func (s *store) writer() {
	defer close(s.done)
	var batch []*writeJob
	for job := range s.jobs {
		limit := int(s.maxBatch.Load())
		batch = append(batch[:0], job)
	collect:
		for len(batch) < limit {
			select {
			case j, ok := <-s.jobs:
				if !ok {
					break collect
				}
				batch = append(batch, j)
			default:
				break collect
			}
		}
		if linger := time.Duration(s.linger.Load()); linger > 0 && len(batch) < limit {
			batch = s.waitForMore(batch, limit, linger)
		}
		s.batches.Add(1)
		s.batched.Add(int64(len(batch)))
		s.runBatch(batch)
	}
}

// waitForMore adds jobs arriving within linger to batch, up to limit.
func (s *store) waitForMore(batch []*writeJob, limit int, linger time.Duration) []*writeJob {
	t := time.NewTimer(linger)
	defer t.Stop()
	for len(batch) < limit {
		select {
		case j, ok := <-s.jobs:
			if !ok {
				return batch
			}
			batch = append(batch, j)
		case <-t.C:
			return batch
		}
	}
	return batch
}

func (s *store) runBatch(batch []*writeJob) {
	ctx := context.Background()
	results := make([]error, len(batch))
	fail := func(err error) {
		if se := asStorageError(err, false); se != nil {
			se.file = s.path
			err = se
		}
		for _, j := range batch {
			j.done <- err
		}
	}
	// Jobs first run without savepoints, which would copy every page a job
	// changes into a sub-journal (~10% of a submit's writer time). That is
	// enough when every job succeeds, or fails before writing. A job that
	// fails after writing leaves writes to undo: alone, the transaction is
	// its undo; in a group, the transaction is undone and the batch runs
	// again, each job in a savepoint (hence jobs may run twice: see inTx).
	tx, err := s.begin(ctx, false)
	if err != nil {
		fail(err)
		return
	}
	again, err := s.runUnguarded(ctx, tx, batch, results)
	if err == nil && again {
		s.undo(tx)
		if tx, err = s.begin(ctx, true); err != nil {
			fail(err)
			return
		}
		err = s.runJobs(ctx, tx, batch, results)
	}
	if err != nil {
		s.undo(tx)
		fail(err)
		return
	}
	if len(batch) == 1 && results[0] != nil {
		// A job alone that failed: the transaction is its undo.
		s.undo(tx)
		if se := asStorageError(results[0], false); se != nil {
			se.file = s.path
			results[0] = se
		}
		batch[0].done <- results[0]
		return
	}
	// While the commit is in flight, snapshots take nothing it changed from
	// the caches (what was read just before it may already be stale).
	s.cache.beginCommit(tx.changed)
	err = tx.tx.Commit()
	// Before any caller hears of the commit: the next request must not see a
	// cached key, user or policy this batch deleted or changed.
	s.cache.invalidate(tx.changed)
	if err != nil {
		err = fmt.Errorf("commit: %w", err)
		if se := asStorageError(err, true); se != nil {
			err = se
		}
		fail(err)
		return
	}
	for i, j := range batch {
		j.done <- results[i]
	}
}

// undo rolls tx back and drops what the caches took from its writes.
func (s *store) undo(tx *txn) {
	tx.tx.Rollback()
	s.cache.invalidate(tx.changed)
}

// begin opens the writer's transaction; careful runs intents in savepoints.
func (s *store) begin(ctx context.Context, careful bool) (*txn, error) {
	sqlTx, err := s.writeDB.BeginTx(ctx, nil)
	if err != nil {
		return nil, fmt.Errorf("begin transaction: %w", err)
	}
	return &txn{tx: sqlTx, c: s.write, cache: s.cache, careful: careful}, nil
}

// runUnguarded runs the batch's jobs in tx without savepoints; results gets
// each job's error. It reports again when the batch must run again with
// savepoints: a job of a group failed after writing, or an intent failed
// after writing (errNeedsSavepoints).
func (s *store) runUnguarded(ctx context.Context, tx *txn, batch []*writeJob, results []error) (again bool, err error) {
	for i, j := range batch {
		before := tx.writes
		results[i] = runJob(j, tx)
		switch {
		case results[i] == nil:
		case asStorageError(results[i], false) != nil:
			return false, results[i] // the transaction may be gone: see runJobs
		case errors.Is(results[i], errNeedsSavepoints):
			return true, nil
		case tx.writes != before && len(batch) > 1:
			return true, nil
		}
	}
	return false, nil
}

// errNeedsSavepoints is returned by a job run without savepoints that
// must undo part of its own writes and carry on (an intent that failed after
// writing): the writer runs the batch again with savepoints.
var errNeedsSavepoints = errors.New("write job needs savepoints")

// runJobs runs a batch's jobs in tx, each in a savepoint (unless it runs
// alone: the transaction is then its undo) so that a failing job leaves no
// trace; results gets each job's error. An error returned means the
// transaction itself failed.
//
// A job that failed because the database could not be written (a full disk,
// an I/O error: asStorageError) fails the transaction: SQLite may have rolled
// it back by itself, and then there is no savepoint left to roll back to.
// Every caller of the batch then gets that job's error, which says why.
func (s *store) runJobs(ctx context.Context, tx *txn, batch []*writeJob, results []error) error {
	if len(batch) == 1 {
		results[0] = runJob(batch[0], tx)
		return nil
	}
	for i, j := range batch {
		if _, err := tx.ExecContext(ctx, `SAVEPOINT write_job`); err != nil {
			return fmt.Errorf("savepoint: %w", err)
		}
		results[i] = runJob(j, tx)
		if results[i] != nil {
			if asStorageError(results[i], false) != nil {
				return results[i]
			}
			if _, err := tx.ExecContext(ctx, `ROLLBACK TO write_job`); err != nil {
				// The job's error comes first in the log: it is the cause. It is
				// not wrapped: a refusal of that job is no answer to the others.
				return fmt.Errorf("undo a failed write: %v (the transaction was lost with it: %w)", results[i], err)
			}
		}
		if _, err := tx.ExecContext(ctx, `RELEASE write_job`); err != nil {
			return fmt.Errorf("release savepoint: %w", err)
		}
	}
	return nil
}

// runJob runs one job, turning a panic into an error so that one bad request
// cannot stop every write of the service.
func runJob(j *writeJob, tx *txn) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("write failed: panic: %v", r)
		}
	}()
	if err := j.ctx.Err(); err != nil {
		return err
	}
	return j.fn(tx)
}

// newID returns the ID of a new row: a time-ordered UUID (newHistoryID), so
// that a table keyed by its ID grows at its end like the history does (a
// read-only session's random UUIDv4 dirtied a random page of its index on every
// submit, 4 of a group commit's 44 pages; docs/performance.md).
func newID() string { return newHistoryID(time.Now()) }

// newHistoryID returns a time-ordered UUID (version 7: 48 bits of Unix
// milliseconds, then 74 random bits) for rows of the history (activities,
// votes with their policy evaluations). Their unique indexes, and the
// activity_id index of votes, then grow at their end like seq does: a
// group commit dirties a few tail pages of each instead of one random page
// per row, which was most of the WAL written per submit at 100,000 activities.
// The random bits keep the IDs as hard to guess as before to within a few bits.
func newHistoryID(now time.Time) string {
	var b [16]byte
	rand.Read(b[6:])
	ms := uint64(now.UnixMilli())
	b[0], b[1], b[2], b[3], b[4], b[5] = byte(ms>>40), byte(ms>>32), byte(ms>>24), byte(ms>>16), byte(ms>>8), byte(ms)
	b[6] = b[6]&0x0f | 0x70
	b[8] = b[8]&0x3f | 0x80
	h := hex.EncodeToString(b[:])
	return h[0:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:32]
}

func randomHex(n int) string {
	b := make([]byte, n)
	rand.Read(b)
	return hex.EncodeToString(b)
}

// getState and putState keep service-wide secrets and settings (key rings, issuer
// keys, the demo authority) in the database.
func getState(ctx context.Context, q querier, key string) ([]byte, bool, error) {
	var v []byte
	err := q.QueryRowContext(ctx, `SELECT value FROM service_state WHERE key = ?`, key).Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("read %s: %w", key, err)
	}
	return v, true, nil
}

func putState(ctx context.Context, q querier, key string, value []byte) error {
	if _, err := q.ExecContext(ctx, `INSERT INTO service_state(key, value) VALUES (?, ?)
		ON CONFLICT(key) DO UPDATE SET value = excluded.value`, key, value); err != nil {
		return fmt.Errorf("write %s: %w", key, err)
	}
	return nil
}

// uriPath escapes a file path for a SQLite "file:" URI, in which '?' starts
// the query, '#' ends the path and "%XX" is decoded: unescaped, SQLite would
// open a database other than the one vigil locked and checked. Nothing else
// in a path is syntax there; a leading "//" (an authority) cannot occur, as
// callers pass paths cleaned by filepath.Join.
func uriPath(p string) string {
	return strings.NewReplacer("%", "%25", "?", "%3F", "#", "%23").Replace(p)
}

// migrationFailure is the error of upgrading the schema of the database at
// path: a read-only or full disk says so and what to do, not only SQLite's
// words.
func migrationFailure(path string, err error) error {
	if damaged := damagedDatabase(path, err); damaged != nil {
		return damaged
	}
	if errors.Is(err, errDatabaseInUse) {
		// Refused before any upgrade: it may not have needed one.
		return fmt.Errorf("open %s: %w", path, err)
	}
	return fmt.Errorf("upgrade the schema of %s: %w", path, atStartup(err))
}
