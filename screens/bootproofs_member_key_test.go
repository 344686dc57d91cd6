package screens

import (
	"bytes"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"encoding/hex"
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
	point := func() []byte {
		k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
		if err != nil {
			t.Fatal(err)
		}
		b, err := k.PublicKey.Bytes()
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	enc, signing := point(), point()
	genuine := append(append([]byte{}, enc...), signing...)
	forged := append(append([]byte{}, enc...), point()...)
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
		if want := "signing " + hex.EncodeToString(signing)[:24] + "…"; !strings.Contains(g, want) {
			t.Errorf("%s: the member key is not shown by its signing half %q:\n%s", place, want, g)
		}
	}
}

// A member key one byte longer than 130 (an operator's real key with a
// byte appended) can sign no approval: each set and the approvals mark it
// malformed, by its length, and never show its first bytes (the
// operator's public encryption half) as if it were a normal member's key.
func TestBootProofMalformedMemberKeyIsMarked(t *testing.T) {
	enc := bytes.Repeat([]byte{0x04, 0xab}, 33)[:65]
	long := append(append(append([]byte{}, enc...), bytes.Repeat([]byte{0x11}, 65)...), 0x00)
	set := proof.QuorumSet{Threshold: 1, Members: []proof.Member{{Alias: "alice", PubKey: long}}}
	for place, m := range map[string]*proof.Manifest{
		"manifest set": {ManifestSet: set},
		"share set":    {ShareSet: set},
		"patch set":    {PatchSet: &set},
		"approvals":    {Approvals: []proof.Approval{{Alias: "alice", PubKey: long, Reason: "bad key"}}},
	} {
		th := theme.New(theme.Options{})
		w := &reportWriter{db: ui.NewDetailBuilder(th), th: th}
		w.manifest(m)
		w.approvals(m)
		out := ansi.Strip(w.db.String())
		if strings.Contains(out, "04ab04ab") {
			t.Errorf("%s: a 131-byte member key is shown by its first bytes, the encryption half:\n%s", place, out)
		}
		if !strings.Contains(out, `"alice"  ⚠ malformed key: 131 bytes, not a 130-byte QOS key`) {
			t.Errorf("%s: a 131-byte member key is not marked malformed by its length:\n%s", place, out)
		}
	}
}

// A 130-byte member key whose halves are not both P-256 points can sign no
// approval either (QOS refuses it): it is marked malformed, saying which
// half, not shown by its signing half as a normal member's key.
func TestBootProofMemberKeyNotAPointIsMarked(t *testing.T) {
	enc := append([]byte{0x04}, bytes.Repeat([]byte{0xff}, 64)...)
	key := append(append([]byte{}, enc...), enc...)
	set := proof.QuorumSet{Threshold: 1, Members: []proof.Member{{Alias: "carol", PubKey: key}}}
	th := theme.New(theme.Options{})
	w := &reportWriter{db: ui.NewDetailBuilder(th), th: th}
	w.manifest(&proof.Manifest{ManifestSet: set})
	out := ansi.Strip(w.db.String())
	if !strings.Contains(out, `"carol"  ⚠ malformed key: encryption half is not an uncompressed P-256 point`) || strings.Contains(out, "signing 04ffff") {
		t.Errorf("a 130-byte member key that is not two P-256 points is not marked malformed:\n%s", out)
	}
}
