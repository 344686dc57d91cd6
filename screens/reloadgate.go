package screens

// reloadGate keeps reloads from piling up: while one runs, another asked for
// is not started but remembered, and starts when the running one lands (it
// may have read before the change that asked). Starting one at once would
// make the running one stale, and changes arriving faster than a load takes
// would keep every load from landing.
type reloadGate struct {
	running bool // a reload is in flight
	again   bool // another was asked for meanwhile
}

// begin reports whether a reload may start now; while one runs, it records
// that another is wanted and reports false.
func (g *reloadGate) begin() bool {
	if g.running {
		g.again = true
		return false
	}
	g.running = true
	return true
}

// end records that the running reload landed and reports whether another
// was asked for meanwhile (the caller starts it).
func (g *reloadGate) end() (again bool) {
	again = g.running && g.again
	g.running, g.again = false, false
	return again
}
