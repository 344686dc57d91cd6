package screens

import (
	"github.com/charmbracelet/x/ansi"

	"github.com/vigil-console/vigil/ui"
)

// maxProbeWhy bounds why a look for older or newer activities failed, as a
// heading says it: one line, whatever the service or the network said.
const maxProbeWhy = 160

// probeWhy is why a look for older or newer activities failed (see
// api.ActivitiesFollow), cleaned and cut: whether any follow is unknown
// then, which is never said as "none".
func probeWhy(err error) string {
	return ansi.Truncate(ui.Clean(errorText(err)), maxProbeWhy, "…")
}
