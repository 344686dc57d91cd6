package profile

import (
	"strconv"
	"strings"

	"github.com/BurntSushi/toml"
)

// Where a key stands in the config text, so every error names its line.

// joinKey writes a key path as a dotted TOML key.
func joinKey(path []string) string {
	quoted := make([]string, len(path))
	for i, p := range path {
		quoted[i] = quoteKeyPart(p)
	}
	return strings.Join(quoted, ".")
}

// quoteKeyPart writes one part of a dotted TOML key, quoted when it is not bare.
func quoteKeyPart(s string) string {
	if s != "" && !strings.ContainsFunc(s, func(r rune) bool { return !isBareKeyRune(r) }) {
		return s
	}
	return strconv.Quote(s)
}

func isBareKeyRune(r rune) bool {
	return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-'
}

// findKeyLine returns the 1-based line where key is defined in text, or
// where its deepest defined parent is (for keys inside inline tables); 0 when
// nothing matches. It understands table headers, dotted and quoted keys,
// enough to locate keys for error messages.
func findKeyLine(text string, key toml.Key) int {
	var table []string
	best, bestLen := 0, 0
	consider := func(path []string, line int) {
		n := 0
		for n < len(path) && n < len(key) && path[n] == key[n] {
			n++
		}
		if n == len(path) && n > bestLen { // path is a prefix of key (or key itself)
			best, bestLen = line, n
		}
	}
	for i, raw := range strings.Split(text, "\n") {
		line := strings.TrimSpace(raw)
		switch {
		case line == "" || line[0] == '#':
			continue
		case strings.HasPrefix(line, "["):
			inner := strings.TrimLeft(line, "[")
			end := strings.Index(inner, "]")
			if end < 0 {
				continue
			}
			if parts, ok := splitTOMLKey(inner[:end]); ok {
				table = parts
				consider(table, i+1)
			}
		default:
			eq := strings.Index(line, "=")
			if eq < 0 {
				continue
			}
			if parts, ok := splitTOMLKey(line[:eq]); ok {
				consider(append(append([]string(nil), table...), parts...), i+1)
			}
		}
	}
	return best
}

// splitTOMLKey splits a dotted TOML key (bare or quoted parts) into parts.
func splitTOMLKey(s string) ([]string, bool) {
	var parts []string
	s = strings.TrimSpace(s)
	for s != "" {
		var part string
		switch s[0] {
		case '"':
			end := 1
			for end < len(s) && s[end] != '"' {
				if s[end] == '\\' {
					end++
				}
				end++
			}
			if end >= len(s) {
				return nil, false
			}
			uq, err := strconv.Unquote(s[:end+1])
			if err != nil {
				return nil, false
			}
			part, s = uq, s[end+1:]
		case '\'':
			end := strings.IndexByte(s[1:], '\'')
			if end < 0 {
				return nil, false
			}
			part, s = s[1:end+1], s[end+2:]
		default:
			end := strings.IndexFunc(s, func(r rune) bool { return !isBareKeyRune(r) })
			if end < 0 {
				end = len(s)
			}
			if end == 0 {
				return nil, false
			}
			part, s = s[:end], s[end:]
		}
		parts = append(parts, part)
		s = strings.TrimSpace(s)
		if s == "" {
			break
		}
		if s[0] != '.' {
			return nil, false
		}
		s = strings.TrimSpace(s[1:])
	}
	return parts, len(parts) > 0
}
