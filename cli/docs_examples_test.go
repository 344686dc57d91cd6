package cli

import (
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"os"
	"strconv"
)

// Drift checks of the docs against the command line. They run
// vigil in process with -h appended: flags are parsed (an unknown flag, a
// repeated single-value flag, a bad value are refused) before -h shows the
// help, and nothing is sent.

// docCommand is one "vigil …" command line of a doc.
type docCommand struct {
	where string // file:line
	line  string
}

var (
	inlineVigil = regexp.MustCompile("`(vigil [^`]*)`")
	segSplit    = regexp.MustCompile(`\s\|\s|;|&&|\$\(|\)"?\s`)
	vigilStart  = regexp.MustCompile(`(?:^|\s)(vigil\s.*)$`)
	trailingCmt = regexp.MustCompile(`\s#\s.*$`)
	redirect    = regexp.MustCompile(`\s*[<>]\s*\S+`)
)

// docCommands extracts the vigil command lines of the markdown file: code
// block lines (continuations joined, pipes and $(…) split) and inline code.
func docCommands(t *testing.T, file string) []docCommand {
	t.Helper()
	text, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var raw []docCommand
	inBlock, buf, start := false, "", 0
	for i, l := range strings.Split(string(text), "\n") {
		if strings.HasPrefix(strings.TrimSpace(l), "```") {
			inBlock = !inBlock
			continue
		}
		where := filepath.Base(file) + ":"
		if inBlock {
			if buf == "" {
				buf, start = l, i+1
			} else {
				buf += " " + strings.TrimSpace(l)
			}
			if strings.HasSuffix(buf, `\`) {
				buf = strings.TrimSuffix(buf, `\`)
				continue
			}
			raw = append(raw, docCommand{where + itoa(start), buf})
			buf = ""
			continue
		}
		for _, m := range inlineVigil.FindAllStringSubmatch(l, -1) {
			raw = append(raw, docCommand{where + itoa(i+1), m[1]})
		}
	}
	var out []docCommand
	for _, c := range raw {
		s := trailingCmt.ReplaceAllString(c.line, "")
		for _, seg := range segSplit.Split(s, -1) {
			m := vigilStart.FindStringSubmatch(strings.TrimSpace(seg))
			if m == nil {
				continue
			}
			// A synopsis line's description follows after a run of spaces.
			cmd := regexp.MustCompile(`\s{3,}`).Split(strings.TrimSpace(m[1]), 2)[0]
			out = append(out, docCommand{c.where, cmd})
		}
	}
	return out
}

func itoa(n int) string { return strconv.Itoa(n) }

// splitWords splits a command line as a POSIX shell would for plain words
// and '…' / "…" quoting (enough for the docs' examples).
func splitWords(s string) ([]string, bool) {
	var words []string
	var cur strings.Builder
	in, quote := false, rune(0)
	for _, r := range s {
		switch {
		case quote != 0 && r == quote:
			quote = 0
		case quote != 0:
			cur.WriteRune(r)
		case r == '\'' || r == '"':
			quote, in = r, true
		case r == ' ' || r == '\t':
			if in {
				words = append(words, cur.String())
				cur.Reset()
				in = false
			}
		default:
			cur.WriteRune(r)
			in = true
		}
	}
	if quote != 0 {
		return nil, false
	}
	if in {
		words = append(words, cur.String())
	}
	return words, true
}

// Every vigil command line of README.md and docs/*.md that names a command
// parses: each flag exists with the spelling shown, takes the value shown,
// and is given no more often than it may be.
func TestDocsCommandLinesParse(t *testing.T) {
	files, _ := filepath.Glob("../docs/*.md")
	files = append([]string{"../README.md"}, files...)
	checked := 0
	for _, f := range files {
		for _, c := range docCommands(t, f) {
			// Synopses ([--flag], a|b alternatives, …) and prose are not run.
			if strings.ContainsAny(c.line, "[<") || strings.Contains(c.line, "|") {
				continue
			}
			words, ok := splitWords(strings.ReplaceAll(redirect.ReplaceAllString(c.line, ""), "…", "X"))
			if !ok || len(words) < 2 {
				continue
			}
			args := words[1:]
			if !strings.HasPrefix(args[0], "-") && !slices.Contains(commandNames(), args[0]) {
				continue // "vigil DEMO — NOT AWS" and other prose
			}
			if last := args[len(args)-1]; len(last) > 1 && strings.HasPrefix(last, "-") && !strings.Contains(last, "=") {
				// `vigil stamp --verify`: a flag named in prose, its value left out.
				args = args[:len(args)-1]
			}
			checked++
			code, _, errOut := runVigil(t, map[string]string{}, "", append(args, "-h")...)
			if code != 0 {
				t.Errorf("%s: `%s` does not parse (exit %d): %s", c.where, c.line, code, firstLine(errOut))
			}
		}
	}
	if checked < 100 {
		t.Fatalf("only %d command lines checked; has the extraction broken?", checked)
	}
}

func firstLine(s string) string { l, _, _ := strings.Cut(strings.TrimSpace(s), "\n"); return l }

// verbPaths are every command and subcommand, read from the group's help.
func verbPaths(t *testing.T) [][]string {
	var paths [][]string
	for _, name := range commandNames() {
		if name == "help" || name == "version" {
			continue
		}
		_, out, _ := runVigil(t, map[string]string{}, "", name, "-h")
		re := regexp.MustCompile(`(?m)^\s+vigil ` + regexp.QuoteMeta(name) + ` ([a-z][a-z-]*)`)
		subs := map[string]bool{}
		for _, m := range re.FindAllStringSubmatch(out, -1) {
			subs[m[1]] = true
		}
		if len(subs) == 0 {
			paths = append(paths, []string{name})
		}
		for s := range subs {
			paths = append(paths, []string{name, s})
		}
	}
	return paths
}

var helpFlag = regexp.MustCompile(`(?m)^\s+--?([a-z][a-z0-9-]*)( [A-Z'][^\n]*| string| int| value| duration)`)

// docs/cli.md lists the flags that may be given more than once ("The flags
// documented as repeatable collect every value: …"). The list is the flags
// vigil really collects: every other value flag given twice is refused.
func TestDocsRepeatableFlagsListed(t *testing.T) {
	doc, err := os.ReadFile("../docs/cli.md")
	if err != nil {
		t.Fatal(err)
	}
	_, list, ok := strings.Cut(string(doc), "The flags documented as repeatable collect every value:")
	if !ok {
		t.Fatal("docs/cli.md no longer has the list of repeatable flags")
	}
	list, _, _ = strings.Cut(list, "A boolean flag")
	documented := map[string]bool{}
	for _, m := range regexp.MustCompile("--([a-z][a-z0-9-]*)").FindAllStringSubmatch(list, -1) {
		documented[m[1]] = true
	}
	found := map[string][]string{}
	for _, p := range verbPaths(t) {
		_, out, _ := runVigil(t, map[string]string{}, "", append(slices.Clone(p), "-h")...)
		seen := map[string]bool{}
		for _, m := range helpFlag.FindAllStringSubmatch(out, -1) {
			f := m[1]
			if seen[f] || f == "h" {
				continue
			}
			seen[f] = true
			for _, v := range [][2]string{{"1", "2"}, {"1s", "2s"}} {
				code, _, errOut := runVigil(t, map[string]string{}, "", append(slices.Clone(p), "--"+f, v[0], "--"+f, v[1], "-h")...)
				if code == 0 {
					found[f] = append(found[f], strings.Join(p, " "))
					break
				}
				if strings.Contains(errOut, "given twice") {
					break
				}
			}
		}
	}
	var missing, extra []string
	for f, where := range found {
		if !documented[f] {
			missing = append(missing, "--"+f+" ("+strings.Join(where, ", ")+")")
		}
	}
	for f := range documented {
		if _, ok := found[f]; !ok {
			extra = append(extra, "--"+f)
		}
	}
	sort.Strings(missing)
	sort.Strings(extra)
	if len(missing) > 0 {
		t.Errorf("repeatable flags docs/cli.md does not list as repeatable: %s", strings.Join(missing, "; "))
	}
	if len(extra) > 0 {
		t.Errorf("docs/cli.md lists as repeatable flags that are refused when given twice: %s", strings.Join(extra, ", "))
	}
}
