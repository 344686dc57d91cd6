package policy

import "github.com/vigil-console/vigil/api"

// IDKind is what an id in an expression names.
type IDKind int

// What an id names: a tag or a user of the lists given, or neither.
const (
	IDUnknown IDKind = iota // id-shaped, yet neither a known tag nor a known user
	IDTag
	IDUser
)

// IDRef is an id an expression holds in a string literal, with the name it
// resolves to. Name is as the lists hold it: the caller shows it through
// api.NameText or api.Quote.
type IDRef struct {
	ID   string
	Kind IDKind
	Name string
}

// ReferencedIDs resolves the ids an expression names in string literals (a
// consensus such as user.tags.contains('01a2…') says nothing to a reader)
// against tags and users (id -> name), once each, in the order they appear.
// A literal that is neither a known tag nor a known user is listed as
// IDUnknown only when it is written as an id (api.UUIDShaped): it may name a
// tag or user the lists lack, or none at all, and a reader should know.
func ReferencedIDs(src string, tags, users map[string]string) []IDRef {
	var out []IDRef
	seen := map[string]bool{}
	for _, t := range Tokens(src) {
		// An unterminated literal (Tokens runs it to the end) holds no id.
		if t.Kind != TokenString || len(t.Text) < 2 || t.Text[len(t.Text)-1] != t.Text[0] {
			continue
		}
		id := t.Text[1 : len(t.Text)-1]
		if seen[id] {
			continue
		}
		seen[id] = true
		if n, ok := tags[id]; ok {
			out = append(out, IDRef{ID: id, Kind: IDTag, Name: n})
		} else if n, ok := users[id]; ok {
			out = append(out, IDRef{ID: id, Kind: IDUser, Name: n})
		} else if api.UUIDShaped(id) {
			out = append(out, IDRef{ID: id, Kind: IDUnknown})
		}
	}
	return out
}
