//go:build race

package cli

// TestCLIUnderTransportFaults' default run under the race detector: every
// verb once.
const transportFuzzSteps = 7
