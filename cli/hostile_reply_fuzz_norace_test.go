//go:build !race

package cli

// TestCLIUnderHostileReplies' default run, about 5 s, in which every class
// of mutation finds a reply it fits.
const (
	hostileReplySeeds, hostileReplySteps = 5, 60
	hostileReplyEveryClass               = true
)
