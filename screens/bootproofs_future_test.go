package screens

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/vigil-console/vigil/proof"
	"github.com/vigil-console/vigil/ui/theme"
)

// This machine's clock is two days behind the document's signed timestamp
// (the wrong clock docs/console.md warns about). The proof must not read as
// the freshest there is ("0s"): the list and the report say it is dated in
// the future, as the CLI does, and the report asks to check the clock.
func TestBootProofDatedAfterThisMachinesClockSaysSoAndAsksToCheckIt(t *testing.T) {
	bp := fixtureBootProof(t)
	docTime := proof.VerifyBootProof(*bp, proof.Options{}).DocumentTime
	machine := docTime.Add(-48 * time.Hour)
	fake := proofFake(t)
	r := NewRoot(Options{Reader: fake, Submitter: fake, Profile: "demo", Theme: theme.Options{Dark: true, NoColor: true},
		Clock:      dateSetClock{at: machine, machine: machine},
		MachineNow: func() time.Time { return machine },
		Static:     true, Tick: func(time.Duration, func(time.Time) tea.Msg) tea.Cmd { return nil },
		Proofs: ProofSettings{Apps: []string{"signer"}}})
	h := &harness{t: t, root: r, fake: fake}
	h.send(tea.WindowSizeMsg{Width: 120, Height: 40})
	h.run(r.Init())
	h.key("2")
	row := rowOf(t, h.plain(), "signer")
	h.key("enter")
	detail := h.plain()
	h.key("pgdown")
	detail += h.plain()
	if strings.Contains(detail, "(0s old)") || !strings.Contains(detail, "(in the future by 48h0m0s)") ||
		!strings.Contains(detail, "check this machine's clock") {
		t.Errorf("a document dated 48h after this machine's clock is shown as fresh, with no word of the clock:\n%s", detail)
	}
	if !strings.Contains(row, "future 2d") {
		t.Errorf("the list shows a document dated 48h ahead as if it were not: %s", row)
	}
}
