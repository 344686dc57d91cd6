package screens

import (
	"crypto/rand"
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/proof"
)

// quorumLimit is the most members a quorum set and the most approvals an
// envelope may hold (proof refuses more).
const quorumLimit = 64

// borshWriter writes the little Borsh a QOS v0 manifest needs.
type borshWriter struct{ b []byte }

func (w *borshWriter) u8(v byte)    { w.b = append(w.b, v) }
func (w *borshWriter) u32(v uint32) { w.b = binary.LittleEndian.AppendUint32(w.b, v) }
func (w *borshWriter) bytes(v []byte) {
	w.u32(uint32(len(v)))
	w.b = append(w.b, v...)
}

// maximalHostileBootProof is the largest report a service can make the
// console draw: a Borsh v0 manifest whose manifest, share and patch sets have
// quorumLimit members each (130-byte keys, long aliases), an envelope with
// quorumLimit approvals that all fail, and a document that does not decode
// (none is needed). It was created at created.
func maximalHostileBootProof(t testing.TB, created time.Time) *api.BootProof {
	t.Helper()
	keys := make([][]byte, quorumLimit)
	for i := range keys {
		keys[i] = make([]byte, 130)
		if _, err := rand.Read(keys[i]); err != nil {
			t.Fatal(err)
		}
	}
	alias := func(i int) []byte { return fmt.Appendf(nil, "member-%02d-%s", i, strings.Repeat("x", 40)) }
	w := &borshWriter{}
	w.bytes([]byte("evil/signer"))
	w.u32(1)
	w.bytes(nil)                           // quorum key
	w.b = append(w.b, make([]byte, 32)...) // pivot hash
	w.u8(1)                                // restart Always
	w.u32(0)                               // args
	for range 2 {                          // manifest set, share set
		w.u32(2)
		w.u32(quorumLimit)
		for i, k := range keys {
			w.bytes(alias(i))
			w.bytes(k)
		}
	}
	for range 4 {
		w.bytes(make([]byte, 48)) // PCR0-3
	}
	w.bytes(nil) // aws root certificate
	w.bytes([]byte("qos"))
	w.u32(2) // patch set
	w.u32(quorumLimit)
	for _, k := range keys {
		w.bytes(k)
	}
	manifest := append([]byte(nil), w.b...)
	w.u32(quorumLimit)
	for i, k := range keys {
		w.bytes(make([]byte, 64)) // signature
		w.bytes(alias(i))
		w.bytes(k)
	}
	w.u32(0) // share-set approvals
	return &api.BootProof{EnclaveApp: "signer", AwsAttestationDocB64: "AAAA", CreatedAt: api.NewTime(created),
		QosManifestB64:         base64.StdEncoding.EncodeToString(manifest),
		QosManifestEnvelopeB64: base64.StdEncoding.EncodeToString(w.b)}
}

// openHostileReport opens the report of a maximal hostile boot proof on a
// console whose clock is *now.
func openHostileReport(t testing.TB, now *time.Time, created time.Time) *Root {
	t.Helper()
	r := openSignerReport(maximalHostileBootProof(t, created), func() time.Time { return *now })
	b := r.screens[1].(*BootProofs)
	if !b.open() || b.apps[0].report == nil || len(b.apps[0].report.Manifest.ManifestSet.Members) != quorumLimit {
		t.Fatalf("the hostile report is not open:\n%s", ansi.Strip(r.Render()))
	}
	return r
}

// The clock tick redraws the ages as they count up, and only then: a tick
// that changes no text does not rebuild the report, which for a hostile proof
// is every member and every reason, on the UI thread every 5 s.
func TestBootProofsClockTickRedrawsOnlyWhenAnAgeChanges(t *testing.T) {
	created := testNow.Add(-time.Hour)
	now := created.Add(10 * time.Second)
	r := openHostileReport(t, &now, created)
	b := r.screens[1].(*BootProofs)
	for range 100 { // to the service's labels at the end, where the creation time is
		r.Update(keyPress("f"))
	}
	if out := ansi.Strip(b.list.Pane.View()); !strings.Contains(out, "(10s ago)") {
		t.Fatalf("the report does not show the creation age:\n%s", out)
	}

	now = now.Add(5 * time.Second)
	r.Update(clockMsg{})
	if out := ansi.Strip(b.list.Pane.View()); !strings.Contains(out, "(15s ago)") {
		t.Errorf("after a tick the report's age did not count up to 15s:\n%s", out)
	}

	now = created.Add(10 * time.Minute)
	r.Update(clockMsg{})
	now = now.Add(5 * time.Second) // still "10m"
	allocs := testing.AllocsPerRun(20, func() { b.Update(clockMsg{}) })
	if allocs > 20 {
		t.Errorf("a clock tick that changes no age makes %.0f allocations: it rebuilt the report", allocs)
	}
	if out := ansi.Strip(b.list.Pane.View()); !strings.Contains(out, "(10m ago)") {
		t.Errorf("the report does not show the age of 10m:\n%s", out)
	}
}

// A clock tick with the report of the costliest boot proof the verifier lets
// through open: "unchanged" is the usual tick (no age text changed, nothing is
// rebuilt), "age changed" the tick that rebuilds the report; "+frame" adds the
// frame Bubble Tea draws after it.
//
//	go test -run '^$' -bench BenchmarkBootProofsClockTick -benchmem ./screens/
func BenchmarkBootProofsClockTick(b *testing.B) {
	created := testNow.Add(-10 * time.Minute)
	for _, bc := range []struct {
		name  string
		step  time.Duration // the clock moves by step and back, tick by tick
		frame bool
	}{
		{"unchanged", 0, false}, {"unchanged+frame", 0, true},
		{"age changed", time.Minute, false}, {"age changed+frame", time.Minute, true},
	} {
		b.Run(bc.name, func(b *testing.B) {
			now := testNow
			r := openHostileReport(b, &now, created)
			for i := 0; b.Loop(); i++ {
				now = testNow.Add(time.Duration(i%2) * bc.step)
				r.Update(clockMsg{})
				if bc.frame {
					_ = r.Render()
				}
			}
		})
	}
}

// The hostile report is checked, not passed: its approvals fail, and the
// reason lists the first problems only.
func TestMaximalHostileBootProofFails(t *testing.T) {
	now := testNow
	r := openHostileReport(t, &now, testNow.Add(-time.Minute))
	rep := r.screens[1].(*BootProofs).apps[0].report
	if rep.Verdict != proof.Failed {
		t.Errorf("verdict %s", rep.Verdict)
	}
	if c := rep.Check(proof.CheckApprovals); c.Status != proof.Fail || !strings.Contains(c.Reason, "more") || len(c.Reason) > 2000 {
		t.Errorf("approvals: %s, a %d-byte reason: %.300s", c.Status, len(c.Reason), c.Reason)
	}
}
