//go:build !race

package cli

import "time"

// TestServeKeepsEveryAcknowledgedWriteAcrossKills' default run, a few
// seconds: rounds of traffic killed at a random moment within traffic.
const (
	killFuzzRounds  = 2
	killFuzzTraffic = 500 * time.Millisecond
)
