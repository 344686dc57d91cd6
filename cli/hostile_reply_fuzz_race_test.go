//go:build race

package cli

// TestCLIUnderHostileReplies' default run under the race detector, about
// 5 s (a step costs several times as much). Too short for every class of
// mutation to find a reply it fits: the run without -race checks that
// each ran.
const (
	hostileReplySeeds, hostileReplySteps = 1, 30
	hostileReplyEveryClass               = false
)
