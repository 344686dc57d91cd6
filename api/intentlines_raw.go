package api

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"unicode/utf8"
)

// appendUnknown appends the lines of an intent key this client does not
// know: the key, then its JSON walked field by field in wire order, under
// the conventions of the known intents' lines (text quoted, ids as
// SanitizeID shows them, secrets named, only free text shortened).
func (l *intentLister) appendUnknown(key string, raw json.RawMessage) {
	node, err := parseJSONNode(raw)
	if err != nil {
		// The reply as a whole was valid JSON, so this cannot happen; were it
		// to, say so rather than show nothing.
		l.doubt("part of it cannot be read")
		l.add(shortLabel(key) + ": (cannot be read; see the activity's JSON)")
		return
	}
	if KnowsIntentKey(key) {
		l.add(UnknownShapeNote(key))
	}
	if utf8.RuneCountInString(key) > maxLabelRunes {
		l.doubt(fmt.Sprintf("a key is longer than %d characters", maxLabelRunes))
	}
	l.appendNode(shortLabel(key)+":", "", key, node, 0)
}

// UnknownShapeNote is the line that warns, above a known operation's key
// kept as sent (KnowsIntentKey), that vigil does not know this shape of it.
func UnknownShapeNote(key string) string {
	return "(" + KeyLabel(key) + " is an operation vigil knows, but not in this shape: it holds a field vigil does not know, a name in another case, or one sent twice; every field as sent)"
}

// appendNode appends the line(s) of one JSON value, as appendValue does for
// a typed one.
func (l *intentLister) appendNode(head, pad, name string, n jsonNode, depth int) {
	if l.full {
		return
	}
	if depth >= maxShownDepth && (n.kind == nodeObject && len(n.keys) > 0 || n.kind == nodeArray && len(n.items) > 0) {
		l.doubt(fmt.Sprintf("it is nested deeper than %d levels", maxShownDepth))
		l.add(head + pad + fmt.Sprintf(" (nested deeper than %d levels; not shown: the rest is in the activity's JSON)", maxShownDepth))
		return
	}
	switch n.kind {
	case nodeObject:
		if len(n.keys) == 0 {
			l.add(head + pad + " (none)")
			return
		}
		l.add(head)
		l.appendMembers(n, depth+1)
	case nodeArray:
		if len(n.items) == 0 {
			l.add(head + pad + " (none)")
			return
		}
		l.add(head + pad + fmt.Sprintf(" (%d)", len(n.items)))
		indent := indentOf(depth + 1)
		for i, item := range n.items {
			if l.full {
				return
			}
			label := fmt.Sprintf("%s[%d]", indent, i+1)
			if item.kind == nodeObject && len(item.keys) > 0 {
				l.add(label)
				l.appendMembers(item, depth+2)
				continue
			}
			l.appendNode(label, "", name, item, depth+1)
		}
	case nodeString:
		l.addText(head+pad+" ", name, n.text, rawFieldText)
		if name == "oidcToken" && n.text != "" {
			l.appendTokenClaims(n.text, depth)
		}
	case nodeNull:
		l.add(head + pad + " (none)")
	default: // a number or boolean, as sent: JSON spells them in plain ASCII
		l.add(head + pad + " " + n.text)
	}
}

// appendMembers appends a line for each member of the object n, the labels
// aligned, in the order they were sent.
func (l *intentLister) appendMembers(n jsonNode, depth int) {
	labels := make([]string, len(n.keys))
	width := 0
	for i, k := range n.keys {
		if utf8.RuneCountInString(k) > maxLabelRunes {
			l.doubt(fmt.Sprintf("a key is longer than %d characters", maxLabelRunes))
		}
		labels[i] = shortLabel(k)
		width = max(width, utf8.RuneCountInString(labels[i]))
	}
	indent := indentOf(depth)
	for i, k := range n.keys {
		if l.full {
			return
		}
		l.appendNode(indent+labels[i]+":", padTo(width, utf8.RuneCountInString(labels[i])), k, n.values[i], depth)
		if n.again[i] {
			// The service keeps one of them (most readers the last): the
			// voter may be reading the other.
			l.doubt("a field (" + labels[i] + ") is sent twice in one object")
			l.add("WARNING: " + labels[i] + " (above) is sent twice in this object; the service acts on one of them, and vigil cannot tell which")
		}
	}
}

// KeyLabel is a key chosen by the sender as a label: bare when it is a plain
// name (letters, digits, underscores), quoted otherwise, so that it cannot
// pass for a line of its own or for another field.
func KeyLabel(key string) string {
	if key == "" {
		return `""`
	}
	for i := 0; i < len(key); i++ {
		c := key[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_') {
			return Quote(key)
		}
	}
	return key
}

// rawFieldText is fieldText for a field of an unknown intent, whose name may
// be anything the sender chose (even empty).
func rawFieldText(name, s string) string {
	if name == "" {
		if s == "" {
			return "(none)"
		}
		return Quote(s)
	}
	if enumFields[name] && isEnumValue(s) {
		return s
	}
	return fieldText(name, s)
}

// jsonNode is a JSON value with its object members in wire order.
type jsonNode struct {
	kind   nodeKind
	text   string // a string's value; a number's or boolean's JSON
	keys   []string
	values []jsonNode // values[i] is keys[i]'s
	again  []bool     // again[i]: keys[i] was sent before in this object
	items  []jsonNode
}

type nodeKind int

const (
	nodeNull nodeKind = iota
	nodeString
	nodeNumber
	nodeBool
	nodeObject
	nodeArray
)

// parseJSONNode reads one JSON value, keeping the order of object members
// (a map would sort them).
func parseJSONNode(raw []byte) (jsonNode, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	n, err := readNode(dec)
	if err != nil {
		return jsonNode{}, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return jsonNode{}, fmt.Errorf("more than one JSON value")
	}
	return n, nil
}

func readNode(dec *json.Decoder) (jsonNode, error) {
	tok, err := dec.Token()
	if err != nil {
		return jsonNode{}, err
	}
	switch t := tok.(type) {
	case nil:
		return jsonNode{kind: nodeNull}, nil
	case string:
		return jsonNode{kind: nodeString, text: t}, nil
	case json.Number:
		return jsonNode{kind: nodeNumber, text: t.String()}, nil
	case bool:
		return jsonNode{kind: nodeBool, text: fmt.Sprint(t)}, nil
	case json.Delim:
		n := jsonNode{kind: nodeArray}
		var seen map[string]bool // an object's keys so far
		if t == '{' {
			n.kind, seen = nodeObject, map[string]bool{}
		}
		for dec.More() {
			if n.kind == nodeObject {
				k, err := dec.Token()
				if err != nil {
					return jsonNode{}, err
				}
				key, _ := k.(string)
				n.keys = append(n.keys, key)
				n.again = append(n.again, seen[key])
				seen[key] = true
			}
			v, err := readNode(dec)
			if err != nil {
				return jsonNode{}, err
			}
			if n.kind == nodeObject {
				n.values = append(n.values, v)
			} else {
				n.items = append(n.items, v)
			}
		}
		if _, err := dec.Token(); err != nil { // the closing delimiter
			return jsonNode{}, err
		}
		return n, nil
	}
	return jsonNode{}, fmt.Errorf("unexpected JSON token %v", tok)
}
