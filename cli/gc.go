package cli

import (
	"runtime/debug"
)

// serviceGCPercent and serviceMemoryLimit tune the garbage collector for the
// local service. Its live heap is a few megabytes (SQLite's page caches live
// outside it), so Go's default GOGC=100 collected about 50 times a second
// under load and took 15–20% of a list request's CPU with the scavenger
// (docs/performance.md). Collecting at five times the live heap, with a soft
// cap on the Go heap, keeps RSS bounded while most requests allocate into
// room the previous collection left.
const (
	serviceGCPercent   = 400
	serviceMemoryLimit = 96 << 20
)

// tuneGCForService applies the service's GC settings unless the operator set
// GOGC or GOMEMLIMIT, and returns a function that puts back what was there.
func tuneGCForService(getenv func(string) string) (restore func()) {
	var undo []func()
	if getenv("GOGC") == "" {
		prev := debug.SetGCPercent(serviceGCPercent)
		undo = append(undo, func() { debug.SetGCPercent(prev) })
	}
	if getenv("GOMEMLIMIT") == "" {
		prev := debug.SetMemoryLimit(serviceMemoryLimit)
		undo = append(undo, func() { debug.SetMemoryLimit(prev) })
	}
	return func() {
		for _, f := range undo {
			f()
		}
	}
}
