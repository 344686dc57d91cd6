//go:build !race

package screens

// TestConsoleUnderTransportFaults' default run, about 5 s; the VIGIL_FUZZ_*
// knobs run longer.
const (
	transportFuzzSeeds, transportFuzzSteps = 1, 30
	transportFuzzVotes                     = 6
)
