package screens

import (
	"fmt"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/proof"
)

// shownArgs is a pivot's args for the report, bounded (each arg to
// proof.MaxShownConfig, the line by proof.ShownArgs): a hostile manifest's
// may fill a megabyte, and the report is rebuilt on every key. The caller
// cleans the result.
func shownArgs(args []string) string {
	clipped := make([]string, len(args))
	for i, a := range args {
		clipped[i] = api.ClipBytes(a, proof.MaxShownConfig)
	}
	shown, more := proof.ShownArgs(clipped)
	line := quoteEach(shown)
	if more > 0 {
		line += fmt.Sprintf(" … and %d more", more)
	}
	return line
}
