package screens

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/vigil-console/vigil/proof"
	"github.com/vigil-console/vigil/ui"
	"github.com/vigil-console/vigil/ui/theme"
)

// A manifest approval's alias is the signer's to choose: one with a
// look-alike letter ("\u0430lice", a Cyrillic а) must not read as the member
// alice in the Boot proofs detail, as it does not in `vigil proof`.
func TestBootProofApprovalAliasFlagsLookalikes(t *testing.T) {
	th := theme.New(theme.Options{})
	w := &reportWriter{db: ui.NewDetailBuilder(th), th: th}
	w.approvals(&proof.Manifest{Approvals: []proof.Approval{{Alias: "\u0430lice", PubKey: proof.HexBytes{1, 2, 3}, Valid: true, Member: true}}})
	out := ansi.Strip(w.db.String())
	if strings.Contains(out, "\u0430lice") || !strings.Contains(out, `\u0430lice`) {
		t.Errorf("the look-alike alias is shown bare, not escaped:\n%s", out)
	}
}

// A quorum set member's alias is the manifest author's to choose: quoted in
// the manifest, share and patch sets as in the approvals and the CLI, a
// look-alike shows escaped, and an alias spelled "(no alias)" cannot pass
// for a member without one.
func TestBootProofSetAliasesAreQuoted(t *testing.T) {
	th := theme.New(theme.Options{})
	w := &reportWriter{db: ui.NewDetailBuilder(th), th: th}
	set := func(alias string) proof.QuorumSet {
		return proof.QuorumSet{Threshold: 1, Members: []proof.Member{{Alias: alias, PubKey: proof.HexBytes{1, 2, 3}}}}
	}
	patch := set("(no alias)")
	w.manifest(&proof.Manifest{ManifestSet: set("\u0430lice"), ShareSet: set("\u0432ob"), PatchSet: &patch})
	out := ansi.Strip(w.db.String())
	for _, want := range []string{`"\u0430lice"`, `"\u0432ob"`, `"(no alias)"`} {
		if !strings.Contains(out, want) {
			t.Errorf("the set member is not shown quoted as %s:\n%s", want, out)
		}
	}
	if strings.Contains(out, "\u0430lice") || strings.Contains(out, "\u0432ob") {
		t.Errorf("a look-alike alias is shown bare:\n%s", out)
	}
}
