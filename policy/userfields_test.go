package policy

import (
	"strings"
	"testing"
)

// The real service's User has id, tags, email and alias
// (features/policies/language.mdx, "Struct"): a consensus reading an
// approver's name works on vigil's local service only, so it is warned, at
// the read; the documented fields are not.
func TestConsensusReadingUserNameIsWarned(t *testing.T) {
	consensus := "approvers.count() >= 1 && approvers.any(u, u.name == 'alice')"
	if _, err := Compile("", consensus); err != nil {
		t.Fatalf("a stored policy reading name must still compile: %v", err)
	}
	ws := Warnings(Source{Consensus: consensus})
	if len(ws) != 1 {
		t.Fatalf("warnings %v, want one about .name", ws)
	}
	w := ws[0]
	if w.Field != FieldConsensus || w.Line != 1 || w.Column != 45 || !strings.Contains(w.Message, "write .alias") {
		t.Errorf("warning %+v, want the consensus's column 45 (the dot of .name) advising .alias", w)
	}
	for _, documented := range []string{
		"approvers.any(u, u.alias == 'alice' && u.email != '' && u.id != '' && u.tags.contains('t'))",
		"approvers.any(name, name.alias == 'alice')",
		"credentials.any(c, c.id == 'name')",
	} {
		if ws := Warnings(Source{Consensus: documented}); len(ws) != 0 {
			t.Errorf("%s: warned %v, yet it reads only documented fields", documented, ws)
		}
	}
}

// The texts every reader of a proposed policy is shown name the part each
// warning is of: a consensus's read of .name is the consensus's, at its
// column, after the condition's own.
func TestPolicyWarningTextsNameTheConsensus(t *testing.T) {
	ws := PolicyWarningTexts("activity.action == 'delete'", "approvers.any(u, u.name == 'alice')", asWritten)
	if len(ws) != 2 {
		t.Fatalf("warnings %+v, want the condition's and the consensus's", ws)
	}
	if ws[0].Part() != "the policy's condition" || !strings.HasPrefix(ws[0].Text, "column 20: ") {
		t.Errorf("first %+v (%s), want the condition's, at column 20 (the literal)", ws[0], ws[0].Part())
	}
	if ws[1].Part() != "the policy's consensus" || !strings.HasPrefix(ws[1].Text, "column 19: .name: ") || !strings.Contains(ws[1].Text, "write .alias") {
		t.Errorf("second %+v (%s), want the consensus's .name at column 19", ws[1], ws[1].Part())
	}
}

// A warning in an expression of several lines says its line as well: the
// readers are shown such an expression one source line per line, and a
// column alone would send them to the first. "  activity.action == " and
// "  approvers.any(u, u" are 21 and 20 characters, so the literal and .name
// are at column 22 and 21 of line 2.
func TestPolicyWarningTextsOfSeveralLinesSayTheLine(t *testing.T) {
	ws := PolicyWarningTexts("activity.resource == 'WALLET' &&\n  activity.action == 'delete'", "approvers.count() >= 1 &&\n  approvers.any(u, u.name == 'alice')", asWritten)
	if len(ws) != 2 {
		t.Fatalf("warnings %+v, want the condition's and the consensus's", ws)
	}
	if ws[0].Part() != "the policy's condition" || !strings.HasPrefix(ws[0].Text, `line 2, column 22: "delete" `) {
		t.Errorf("first %+v (%s), want the condition's, at line 2, column 22 (the literal)", ws[0], ws[0].Part())
	}
	if ws[1].Part() != "the policy's consensus" || !strings.HasPrefix(ws[1].Text, "line 2, column 21: .name: ") {
		t.Errorf("second %+v (%s), want the consensus's .name at line 2, column 21", ws[1], ws[1].Part())
	}
}

// asWritten shows a source line as it is: columns count in the source.
func asWritten(line string) string { return line }
