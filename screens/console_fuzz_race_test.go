//go:build race

package screens

// Under the race detector every step costs about five times as much: fewer
// keep `go test -race ./...` within CI's time (about 20 s and 10 s). Seed 5
// stays in (console_fuzz_norace_test.go).
const (
	fuzzSeeds, fuzzSteps = 6, 300
	thousandsSteps       = 100
)
