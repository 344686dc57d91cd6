//go:build race

package cli

import "time"

// TestServeKeepsEveryAcknowledgedWriteAcrossKills' default run under the
// race detector: one round, as every request costs several times as much.
const (
	killFuzzRounds  = 1
	killFuzzTraffic = 400 * time.Millisecond
)
