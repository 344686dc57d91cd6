//go:build !race

package cli

// TestCLIUnderTransportFaults' default run: seven verbs, most twice, under 5 s.
const transportFuzzSteps = 12
