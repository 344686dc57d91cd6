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
