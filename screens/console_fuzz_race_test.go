//go:build race

package screens

// Under the race detector every step costs about five times as much: fewer
// keep `go test -race ./...` within CI's time (about 20 s and 10 s). Seed 5
// stays in (console_fuzz_norace_test.go).
const (
	fuzzSeeds, fuzzSteps = 6, 300
	thousandsSteps       = 100
)

// TestConsoleUnderHostileReplies' default run under the race detector,
// about 5 s (a step costs about eight times as much). Too short for every
// class of mutation to find a reply it fits (few replies are about one
// activity): the run without -race checks that each ran.
const (
	hostileReplySeeds, hostileReplySteps = 2, 70
	hostileReplyEveryClass               = false
)
