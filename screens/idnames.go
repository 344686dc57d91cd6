package screens

import (
	"regexp"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/policy"
	"github.com/vigil-console/vigil/ui"
	"github.com/vigil-console/vigil/ui/theme"
)

// exprName is a line naming an id a policy's expression holds: a consensus
// like user.tags.contains('01a2…') says nothing to a reader, and a policy
// titled "Ops may …" naming the "operator" tag must not read like one naming
// "ops". Unknown is a warning: an id-shaped literal that names no tag or
// user the console knows (a typo, or a tag nobody created), or a tag's or
// user's name written where its id is expected, never equal to it.
type exprName struct {
	text    string
	unknown bool
}

// exprNames names the ids src holds, once each, in order, from the tags and
// users the console loaded (policy.IDRefs resolves them, as for the CLI).
func exprNames(c *Common, src string) []exprName {
	var out []exprName
	for _, r := range policy.IDRefs(src, c.Org.TagNames, c.Org.UserNames) {
		id := api.SanitizeID(r.ID)
		switch {
		case r.Meant != "":
			out = append(out, exprName{text: "⚠ " + r.String(), unknown: true})
		case r.Kind == "tag":
			out = append(out, exprName{text: id + " is tag " + api.NameText(r.Name)})
		case r.Kind == "user":
			out = append(out, exprName{text: id + " is user " + api.NameText(r.Name)})
		default:
			text := "⚠ " + id + " is not a tag or user this console knows"
			if !c.Org.TagNamesComplete {
				text += " (not every tag could be read)"
			}
			out = append(out, exprName{text: text, unknown: true})
		}
	}
	return out
}

// writeExprNames writes names under the expression they name, indented; the
// unknown ones in the warning style.
func writeExprNames(b *ui.DetailBuilder, th *theme.Theme, names []exprName) {
	writeExprNamesOf(b, th, "", names)
}

// writeExprNamesOf is writeExprNames where the expression is not right above:
// each line says which field's expression it names ("consensus: …").
func writeExprNamesOf(b *ui.DetailBuilder, th *theme.Theme, field string, names []exprName) {
	if field != "" {
		field += ": "
	}
	for _, n := range names {
		style := th.Muted
		if n.unknown {
			style = th.Warn
		}
		b.Styled(style.Render(ui.Clean("  " + field + n.text)))
	}
}

// exprNameLines appends names to lines, indented under the line of their
// expression, marking the unknown ones in warn (the dialogs' warning lines).
func exprNameLines(lines []string, warn map[int]bool, names []exprName) []string {
	for _, n := range names {
		if n.unknown {
			warn[len(lines)] = true
		}
		lines = append(lines, "  "+n.text)
	}
	return lines
}

// idPattern matches an id as the service writes them (api.UUIDShaped).
var idPattern = regexp.MustCompile(`[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}`)

// withPolicyNames names, after each policy id a server message holds ("denied
// by policy 01a2…"), the policy the console knows by that id, quoted.
func withPolicyNames(c *Common, msg string) string {
	return idPattern.ReplaceAllStringFunc(msg, func(id string) string {
		if n, ok := c.Org.PolicyNames[id]; ok {
			return id + " (" + api.Quote(n) + ")"
		}
		return id
	})
}
