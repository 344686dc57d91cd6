package screens

import (
	"bytes"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/vigil-console/vigil/proof"
	"github.com/vigil-console/vigil/ui"
	"github.com/vigil-console/vigil/ui/theme"
)

// A QOS member key is encryption half (65 bytes) ‖ signing half (65 bytes),
// and approvals are checked with the signing half. A manifest whose members
// keep the operators' aliases and (public) encryption halves but carry
// another party's signing halves must not render as the operators' own:
// in each set the Boot proofs detail lists, and in its approvals.
func TestBootProofMemberKeyShowsItsSigningHalf(t *testing.T) {
	enc := bytes.Repeat([]byte{0x04, 0xab}, 33)[:65]
	genuine := append(append([]byte{}, enc...), bytes.Repeat([]byte{0x11}, 65)...)
	forged := append(append([]byte{}, enc...), bytes.Repeat([]byte{0x22}, 65)...)
	set := func(key []byte) proof.QuorumSet {
		return proof.QuorumSet{Threshold: 1, Members: []proof.Member{{Alias: "alice", PubKey: key}}}
	}
	places := map[string]func(key []byte) *proof.Manifest{
		"manifest set": func(key []byte) *proof.Manifest { return &proof.Manifest{ManifestSet: set(key)} },
		"share set":    func(key []byte) *proof.Manifest { return &proof.Manifest{ShareSet: set(key)} },
		"patch set": func(key []byte) *proof.Manifest {
			s := set(key)
			return &proof.Manifest{PatchSet: &s}
		},
		"approvals": func(key []byte) *proof.Manifest {
			return &proof.Manifest{Approvals: []proof.Approval{{Alias: "alice", PubKey: key, Valid: true, Member: true}}}
		},
	}
	for place, manifest := range places {
		render := func(key []byte) string {
			th := theme.New(theme.Options{})
			w := &reportWriter{db: ui.NewDetailBuilder(th), th: th}
			m := manifest(key)
			w.manifest(m)
			w.approvals(m)
			return ansi.Strip(w.db.String())
		}
		g, f := render(genuine), render(forged)
		if g == f {
			t.Errorf("%s: a member who signs with another key renders identically:\n%s", place, g)
		}
		// The shown digits are the signing half's, as the CLI prints it in full.
		if want := "signing " + strings.Repeat("11", 12) + "…"; !strings.Contains(g, want) {
			t.Errorf("%s: the member key is not shown by its signing half %q:\n%s", place, want, g)
		}
	}
}
