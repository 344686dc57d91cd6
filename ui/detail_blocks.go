package ui

import "strings"

// A builder's additions are kept apart as blocks, so that a pane given
// Blocks wraps again only what changed: a record refreshed every few
// seconds whose intent holds 10,000 characters wraps them once.

// end marks the end of an addition.
func (db *DetailBuilder) end() {
	if n := db.b.Len(); len(db.ends) == 0 || db.ends[len(db.ends)-1] != n {
		db.ends = append(db.ends, n)
	}
}

// Blocks is String cut into the builder's additions, for Detail.SetBlocks:
// joined with newlines, they are String.
func (db *DetailBuilder) Blocks() []string {
	s := db.b.String()
	out := make([]string, 0, len(db.ends)+1)
	start := 0
	for _, e := range db.ends {
		out = append(out, strings.TrimSuffix(s[start:e], "\n"))
		start = e
	}
	if start < len(s) {
		out = append(out, strings.TrimSuffix(s[start:], "\n"))
	}
	// String drops the trailing newlines: so do the blocks.
	for len(out) > 0 && strings.TrimRight(out[len(out)-1], "\n") == "" {
		out = out[:len(out)-1]
	}
	if n := len(out); n > 0 {
		out[n-1] = strings.TrimRight(out[n-1], "\n")
	}
	return out
}

// Append adds what another builder built, as its blocks: a screen keeps a
// costly part built once (an intent's JSON) and appends it on each render.
// Its text was cleaned when it was added to other.
func (db *DetailBuilder) Append(other *DetailBuilder) {
	start := db.b.Len()
	db.b.WriteString(other.b.String())
	for _, e := range other.ends {
		db.ends = append(db.ends, start+e)
	}
	db.end()
}
