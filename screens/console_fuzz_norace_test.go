//go:build !race

package screens

// The default run of TestConsoleUnderRandomInput, about 7 s. Seed 5 is the
// first to click in the gap before an asked-for vote dialog arrives (fixed in
// 048c3cc): keep it in.
const fuzzSeeds, fuzzSteps = 10, 300

// thousandsSteps is TestThousandsOfHostileActivities' keys, about 3 s.
const thousandsSteps = 300

// TestConsoleUnderHostileReplies' default run, about 5 s, in which every
// class of mutation finds a reply it fits.
const (
	hostileReplySeeds, hostileReplySteps = 4, 200
	hostileReplyEveryClass               = true
)
