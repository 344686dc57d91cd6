package screens

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/vigil-console/vigil/proof"
	"github.com/vigil-console/vigil/ui"
	"github.com/vigil-console/vigil/ui/theme"
)

// dateSetClock is a service whose replies' Date header says whatever it likes.
type dateSetClock struct{ at, machine time.Time }

func (h dateSetClock) ServiceNow() time.Time { return h.at }
func (h dateSetClock) ClockSkew() (time.Duration, bool) {
	return h.at.Sub(h.machine), true
}

// A boot proof checks the service without trusting it, so its age (the only
// freshness signal the screen gives) is measured by this machine's clock: a
// hostile service replaying an old genuine attestation with a Date header
// minutes after it does not make the proof look minutes old.
func TestBootProofAgeIsByThisMachinesClockNotTheServicesDate(t *testing.T) {
	bp := fixtureBootProof(t)
	docTime := proof.VerifyBootProof(*bp, proof.Options{}).DocumentTime
	machine := docTime.Add(400 * 24 * time.Hour)
	fake := proofFake(t)
	r := NewRoot(Options{Reader: fake, Submitter: fake, Profile: "demo", Theme: theme.Options{Dark: true, NoColor: true},
		Clock:      dateSetClock{at: docTime.Add(5 * time.Minute), machine: machine}, // "attested 5 minutes ago"
		MachineNow: func() time.Time { return machine },
		Static:     true, Tick: func(time.Duration, func(time.Time) tea.Msg) tea.Cmd { return nil },
		Proofs: ProofSettings{Apps: []string{"signer"}}})
	h := &harness{t: t, root: r, fake: fake}
	h.send(tea.WindowSizeMsg{Width: 100, Height: 30})
	h.run(r.Init())
	h.key("2")
	row := rowOf(t, h.plain(), "signer")
	if want := ui.Ago(machine, docTime); !strings.Contains(row, want) || strings.Contains(row, "5m") {
		t.Errorf("a proof attested %v ago by this machine's clock does not show as %s old (the service's Date says 5m):\n%s",
			machine.Sub(docTime), want, row)
	}
	if a := h.bootProofs().apps[0].report.Age; a != machine.Sub(docTime) {
		t.Errorf("report.Age = %v; the document is %v old by this machine's clock", a, machine.Sub(docTime))
	}
	h.key("enter")
	if detail := h.plain(); strings.Contains(detail, "(5m old)") {
		t.Errorf("the detail gives the service's age of the proof:\n%s", detail)
	}
}
