//go:build race

package screens

// TestConsoleUnderTransportFaults' default run under the race detector,
// where every step costs several times as much.
const (
	transportFuzzSeeds, transportFuzzSteps = 1, 15
	transportFuzzVotes                     = 3
)
