// Statement faults: a way for tests to make chosen statements fail, as a
// disk that returns an I/O error would, to check that a transient storage
// error is never recorded as an outcome.

package server

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"sync/atomic"
)

// statementFault, when set on a cachedDB, is asked before each statement
// runs (query is its SQL text, args its arguments); a non-nil error is that statement's result,
// and the statement does not run. Only tests set one (faults.set):
// no Config field reaches it.
type statementFault func(query string, args []any) error

// faults holds a cachedDB's statementFault. It is atomic because tests turn
// faults on and off while the service's goroutines query.
type faults struct {
	fn atomic.Pointer[statementFault]
}

// injected is the error the fault gives query, or nil: without a fault,
// one nil check.
func (f *faults) injected(query string, args []any) error {
	if fn := f.fn.Load(); fn != nil {
		return (*fn)(query, args)
	}
	return nil
}

// set makes fault decide every statement from now on; nil removes it. A
// store's read pool (store.read) and its write transactions (store.write)
// each have their own.
func (f *faults) set(fault statementFault) {
	if fault == nil {
		f.fn.Store(nil)
		return
	}
	f.fn.Store(&fault)
}

// failedRow is a *sql.Row whose Scan returns err: database/sql builds Rows
// only from a driver's answer, so it comes from a database whose every
// connection fails with err.
func failedRow(ctx context.Context, err error) *sql.Row {
	db := sql.OpenDB(failingConnector{err})
	defer db.Close() // the Row holds no connection: it failed to get one
	return db.QueryRowContext(ctx, "")
}

// failingConnector is a driver.Connector that connects to nothing.
type failingConnector struct{ err error }

func (c failingConnector) Connect(context.Context) (driver.Conn, error) { return nil, c.err }
func (c failingConnector) Driver() driver.Driver                        { return failingDriver(c) }

type failingDriver failingConnector

func (d failingDriver) Open(string) (driver.Conn, error) { return nil, d.err }
