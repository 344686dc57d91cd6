package server

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"

	_ "modernc.org/sqlite" // registers the "sqlite" driver
)

// DatabaseFile is the SQLite file inside Config.DataDir.
const DatabaseFile = "vigil.db"

// store is the SQLite database behind the service. Writes go through one
// connection under writeMu, so every write transaction is serialized (votes on one
// activity cannot interleave); reads use their own pool.
type store struct {
	write   *sql.DB
	read    *sql.DB
	writeMu sync.Mutex
}

// querier is what both *sql.DB and *sql.Tx offer; store helpers take one so the same
// code runs inside and outside a transaction.
type querier interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

var memoryDBs atomic.Int64

func openStore(ctx context.Context, dataDir string) (*store, error) {
	const pragmas = "_pragma=journal_mode(WAL)&_pragma=synchronous(FULL)&_pragma=busy_timeout(10000)&_pragma=foreign_keys(ON)"
	if dataDir == "" {
		// A private in-memory database: one connection, shared by readers and the
		// writer (each new connection to :memory: would be a new, empty database).
		name := fmt.Sprintf("file:vigil-mem-%d-%s?mode=memory&_pragma=foreign_keys(ON)", memoryDBs.Add(1), randomHex(4))
		db, err := sql.Open("sqlite", name)
		if err != nil {
			return nil, fmt.Errorf("open in-memory database: %w", err)
		}
		db.SetMaxOpenConns(1)
		if err := migrate(ctx, db); err != nil {
			db.Close()
			return nil, err
		}
		return &store{write: db, read: db}, nil
	}
	if err := os.MkdirAll(dataDir, 0o700); err != nil {
		return nil, fmt.Errorf("create data directory: %w", err)
	}
	path := filepath.Join(dataDir, DatabaseFile)
	dsn := "file:" + path + "?" + pragmas
	w, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	w.SetMaxOpenConns(1)
	if err := w.PingContext(ctx); err != nil {
		w.Close()
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	if err := migrate(ctx, w); err != nil {
		w.Close()
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	// The database holds the service's private keys (TLS fetcher, webhook ring).
	for _, f := range []string{path, path + "-wal", path + "-shm"} {
		if err := os.Chmod(f, 0o600); err != nil && !errors.Is(err, os.ErrNotExist) {
			w.Close()
			return nil, fmt.Errorf("restrict %s: %w", f, err)
		}
	}
	r, err := sql.Open("sqlite", dsn+"&_pragma=query_only(ON)")
	if err != nil {
		w.Close()
		return nil, fmt.Errorf("open %s for reading: %w", path, err)
	}
	r.SetMaxOpenConns(8)
	return &store{write: w, read: r}, nil
}

func (s *store) close() error {
	err := s.write.Close()
	if s.read != s.write {
		err = errors.Join(err, s.read.Close())
	}
	return err
}

// inTx runs fn in a write transaction; all writes of the service are serialized.
func (s *store) inTx(ctx context.Context, fn func(tx *sql.Tx) error) error {
	s.writeMu.Lock()
	defer s.writeMu.Unlock()
	tx, err := s.write.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("begin transaction: %w", err)
	}
	if err := fn(tx); err != nil {
		tx.Rollback()
		return err
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("commit: %w", err)
	}
	return nil
}

// newID returns a random UUID (version 4) string.
func newID() string {
	var b [16]byte
	rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
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
