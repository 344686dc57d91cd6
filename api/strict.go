package api

import (
	"bytes"
	"encoding"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// Kinds of StrictJSONError, also the errorCode of the service's 400 reply.
const (
	JSONMalformed      = "MALFORMED_JSON"
	JSONDuplicateKey   = "DUPLICATE_KEY"
	JSONKeyCase        = "KEY_CASE_MISMATCH"
	JSONInvalidUTF8    = "INVALID_UTF8"
	JSONLoneSurrogate  = "LONE_SURROGATE"
	JSONUnknownField   = "UNKNOWN_FIELD"
	JSONWrongType      = "WRONG_TYPE"
	maxStrictJSONDepth = 64
)

// StrictJSONError says why a request body cannot be read exactly one way.
// Path is where in the document ("parameters.effect", "" for the top level).
type StrictJSONError struct {
	Kind    string // one of the JSON* kinds
	Path    string
	Problem string
}

func (e *StrictJSONError) Error() string {
	if e.Path == "" {
		return e.Problem
	}
	return e.Path + ": " + e.Problem
}

// Is makes a StrictJSONError match ErrInvalidArgument: the service answers 400.
func (e *StrictJSONError) Is(target error) bool { return target == ErrInvalidArgument }

// CheckStrictJSON reports the first thing in body that two JSON parsers could
// read differently: a key duplicated within one object (at any depth), text that
// is not UTF-8, or a \u escape of a lone UTF-16 surrogate. Go's encoding/json
// keeps the last duplicate and turns the others into U+FFFD silently; a stamp
// covers bytes, so the service refuses such bodies instead (DESIGN.md §4).
func CheckStrictJSON(body []byte) error { return checkStrictJSON(body, maxStrictJSONDepth) }

// checkStrictJSON is CheckStrictJSON with nesting allowed down to maxDepth.
func checkStrictJSON(body []byte, maxDepth int) error {
	if !utf8.Valid(body) {
		off := invalidUTF8Offset(body)
		return &StrictJSONError{Kind: JSONInvalidUTF8, Problem: fmt.Sprintf("the body is not valid UTF-8 (first bad byte at offset %d); send text encoded as UTF-8", off)}
	}
	if !json.Valid(body) {
		var v any
		err := json.Unmarshal(body, &v)
		var se *json.SyntaxError
		if errors.As(err, &se) {
			return &StrictJSONError{Kind: JSONMalformed, Problem: fmt.Sprintf("malformed JSON at byte %d: %v", se.Offset, se)}
		}
		return &StrictJSONError{Kind: JSONMalformed, Problem: "malformed JSON; send one JSON object"}
	}
	sc := strictScanner{b: body, maxDepth: maxDepth}
	return sc.value()
}

type strictScanner struct {
	b        []byte
	i        int
	depth    int
	maxDepth int
	// steps lead from the top to the value being scanned. The path is
	// joined from them only for an error: joining it at every level costs
	// memory quadratic in the depth, and a reply may nest 10,000 deep.
	steps []pathStep
}

// pathStep is an object's key, or an array's index when key is "" and
// index >= 0.
type pathStep struct {
	key   string
	index int
}

// path is where the scanner is, as joinPath and indexPath spell it.
func (s *strictScanner) path() string {
	var p strings.Builder
	for _, st := range s.steps {
		switch {
		case st.index >= 0:
			p.WriteString("[" + strconv.Itoa(st.index) + "]")
		case p.Len() > 0:
			p.WriteString("." + st.key)
		default:
			p.WriteString(st.key)
		}
	}
	return p.String()
}

func (s *strictScanner) skipSpace() { s.i = skipSpaces(s.b, s.i) }

// value scans one JSON value at s.i; the document is known to be valid JSON.
func (s *strictScanner) value() error {
	s.skipSpace()
	if s.i >= len(s.b) {
		return nil
	}
	switch s.b[s.i] {
	case '{':
		return s.object()
	case '[':
		return s.array()
	case '"':
		_, err := s.str()
		return err
	}
	s.i = skipLiteral(s.b, s.i)
	return nil
}

func (s *strictScanner) enter() error {
	s.depth++
	if s.depth > s.maxDepth {
		return &StrictJSONError{Kind: JSONMalformed, Path: s.path(), Problem: fmt.Sprintf("nested more than %d levels deep", s.maxDepth)}
	}
	return nil
}

func (s *strictScanner) object() error {
	if err := s.enter(); err != nil {
		return err
	}
	s.i++ // {
	seen := map[string]bool{}
	for {
		s.skipSpace()
		if s.b[s.i] == '}' {
			s.i++
			s.depth--
			return nil
		}
		key, err := s.str()
		if err != nil {
			return err
		}
		shown := strconv.QuoteToASCII(truncateKey(key))
		if seen[key] {
			return &StrictJSONError{Kind: JSONDuplicateKey, Path: s.path(),
				Problem: fmt.Sprintf("key %s appears more than once in one object; send each key once", shown)}
		}
		seen[key] = true
		s.skipSpace()
		s.i++ // :
		s.steps = append(s.steps, pathStep{key: truncateKey(key), index: -1})
		if err := s.value(); err != nil {
			return err
		}
		s.steps = s.steps[:len(s.steps)-1]
		s.skipSpace()
		if s.b[s.i] == ',' {
			s.i++
		}
	}
}

func (s *strictScanner) array() error {
	if err := s.enter(); err != nil {
		return err
	}
	s.i++ // [
	for n := 0; ; n++ {
		s.skipSpace()
		if s.b[s.i] == ']' {
			s.i++
			s.depth--
			return nil
		}
		s.steps = append(s.steps, pathStep{index: n})
		if err := s.value(); err != nil {
			return err
		}
		s.steps = s.steps[:len(s.steps)-1]
		s.skipSpace()
		if s.b[s.i] == ',' {
			s.i++
		}
	}
}

// str reads a string literal at s.i and returns its decoded value, refusing
// escapes of lone surrogates (the bytes are already known to be UTF-8).
func (s *strictScanner) str() (string, error) {
	start := s.i
	s.i++ // opening quote
	escaped := false
	for s.b[s.i] != '"' {
		if s.b[s.i] != '\\' {
			s.i++
			continue
		}
		escaped = true
		if s.b[s.i+1] != 'u' {
			s.i += 2
			continue
		}
		r := hexRune(s.b[s.i+2 : s.i+6])
		s.i += 6
		switch {
		case utf16.IsSurrogate(r) && r < 0xDC00:
			if s.i+6 <= len(s.b) && s.b[s.i] == '\\' && s.b[s.i+1] == 'u' {
				if low := hexRune(s.b[s.i+2 : s.i+6]); low >= 0xDC00 && low <= 0xDFFF {
					s.i += 6
					continue
				}
			}
			fallthrough
		case utf16.IsSurrogate(r):
			return "", &StrictJSONError{Kind: JSONLoneSurrogate, Path: s.path(),
				Problem: fmt.Sprintf("the escape \\u%04X is half of a UTF-16 surrogate pair with no other half; escape the whole character (a high surrogate followed by a low one) or send it as UTF-8", r)}
		}
	}
	s.i++ // closing quote
	raw := s.b[start:s.i]
	if !escaped {
		return string(raw[1 : len(raw)-1]), nil
	}
	var out string
	if err := json.Unmarshal(raw, &out); err != nil {
		return "", &StrictJSONError{Kind: JSONMalformed, Path: s.path(), Problem: "malformed string: " + err.Error()}
	}
	return out, nil
}

func hexRune(h []byte) rune {
	n, err := strconv.ParseUint(string(h), 16, 32)
	if err != nil {
		return utf8.RuneError
	}
	return rune(n)
}

func invalidUTF8Offset(b []byte) int {
	for i := 0; i < len(b); {
		r, size := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && size <= 1 {
			return i
		}
		i += size
	}
	return len(b)
}

func truncateKey(k string) string { return ClipBytes(k, 64) }

// StrictUnmarshal decodes body into v, which must be a pointer to a struct of
// wire records, reading it exactly one way: CheckStrictJSON's rules, keys that
// match a field exactly (encoding/json alone would take "OrganizationId" for
// "organizationId"), no unknown keys and nothing after the value. Fields of
// type json.RawMessage are left to their own decoder (ValidateParams matches
// keys exactly too).
func StrictUnmarshal(body []byte, v any) error {
	if len(bytes.TrimSpace(body)) == 0 {
		return &StrictJSONError{Kind: JSONMalformed, Problem: "the body is empty; send a JSON object"}
	}
	checked, err := CheckStrict(body)
	if err != nil {
		return err
	}
	return checked.Unmarshal(v)
}

// StrictBody is a body that CheckStrictJSON accepted. Only CheckStrict makes
// one, so a reader handed a StrictBody knows it was checked once and need
// not check it again (a server reads a body's envelope before it
// authenticates the request and decodes it all after).
type StrictBody struct {
	b []byte
	// members are the top-level object's, read once for every reader of the
	// body (the server's envelope, then the operation's decoder).
	members  []Member
	isObject bool
}

// CheckStrict checks body with CheckStrictJSON and, when it passes, returns
// it as a StrictBody.
func CheckStrict(body []byte) (StrictBody, error) {
	if err := CheckStrictJSON(body); err != nil {
		return StrictBody{}, err
	}
	members, isObject := ObjectMembers(body)
	return StrictBody{b: body, members: members, isObject: isObject}, nil
}

// Members are the body's top-level members, by key, as ObjectMembers gives
// them; ok is false when the body is not a JSON object.
func (s StrictBody) Members() (members []Member, ok bool) { return s.members, s.isObject }

// Bytes is the body as received (callers must not modify it).
func (s StrictBody) Bytes() []byte { return s.b }

// Unmarshal is StrictUnmarshal of a body already checked: keys matching a
// field exactly, no unknown keys, the types of v.
func (s StrictBody) Unmarshal(v any) error {
	body := s.b
	if len(bytes.TrimSpace(body)) == 0 {
		return &StrictJSONError{Kind: JSONMalformed, Problem: "the body is empty; send a JSON object"}
	}
	t := reflect.TypeOf(v)
	if t == nil || t.Kind() != reflect.Pointer {
		return fmt.Errorf("StrictUnmarshal: want a pointer, got %T", v)
	}
	top := t.Elem()
	for top.Kind() == reflect.Pointer {
		top = top.Elem()
	}
	if top.Kind() == reflect.Struct && s.isObject {
		fields := jsonFields(top)
		if err := checkStructFields("", s.members, fields, false); err != nil {
			return err
		}
		if rv := reflect.ValueOf(v); t.Elem() == top && !rv.IsNil() && setPlainStrings(rv.Elem(), s.members, fields) {
			return nil
		}
	} else if err := checkExactKeys("", body, t.Elem(), false); err != nil {
		return err
	}
	// Unknown keys were refused above, at every depth a struct decodes, and
	// CheckStrictJSON refused anything after the value.
	if err := json.Unmarshal(body, v); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			return &StrictJSONError{Kind: JSONWrongType, Path: te.Field, Problem: fmt.Sprintf("expected %s, got JSON %s", wantKind(te.Type), te.Value)}
		}
		return &StrictJSONError{Kind: JSONMalformed, Problem: err.Error()}
	}
	return nil
}

// checkExactKeys walks raw against t and refuses a key that names a field only
// case-insensitively, or no field at all unless unknownOK (a reply's: a newer
// service may add some, and every reader keeps them apart).
func checkExactKeys(path string, raw []byte, t reflect.Type, unknownOK bool) error {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == rawMessageType {
		return nil
	}
	switch t.Kind() {
	case reflect.Struct:
		obj, ok := ObjectMembers(raw)
		if !ok {
			return nil // not an object: the decoder reports the type error
		}
		return checkStructFields(path, obj, jsonFields(t), unknownOK)
	case reflect.Slice:
		i := skipSpaces(raw, 0)
		if i >= len(raw) || raw[i] != '[' || !hasKeys(t.Elem()) {
			return nil
		}
		for n, i := 0, i+1; ; n++ {
			i = skipSpaces(raw, i)
			if i >= len(raw) || raw[i] == ']' {
				return nil
			}
			end := skipValue(raw, i)
			if err := checkExactKeys(indexPath(path, n), raw[i:end], t.Elem(), unknownOK); err != nil {
				return err
			}
			if i = skipSpaces(raw, end); i < len(raw) && raw[i] == ',' {
				i++
			}
		}
	case reflect.Map:
		obj, ok := ObjectMembers(raw)
		if !ok {
			return nil
		}
		for _, m := range obj {
			if err := checkExactKeys(joinPath(path, m.Key), m.Value, t.Elem(), unknownOK); err != nil {
				return err
			}
		}
	}
	return nil
}

// checkStructFields is checkExactKeys for the members obj of an object that
// decodes into a struct with these fields.
func checkStructFields(path string, obj []Member, fields []jsonField, unknownOK bool) error {
	for _, m := range obj {
		k := m.Key
		if match := fieldNamed(fields, k); match != nil {
			if hasKeys(match.typ) {
				if err := checkExactKeys(joinPath(path, k), m.Value, match.typ, unknownOK); err != nil {
					return err
				}
			}
			continue
		}
		for _, f := range fields {
			if strings.EqualFold(f.name, k) {
				sentToo := slices.ContainsFunc(obj, func(o Member) bool { return o.Key == f.name })
				return &StrictJSONError{Kind: JSONKeyCase, Path: path,
					Problem: fmt.Sprintf("key %s is not a field; %s", strconv.QuoteToASCII(truncateKey(k)), miscasedKeyAdvice(f.name, sentToo))}
			}
		}
		if unknownOK {
			continue
		}
		known := make([]string, 0, len(fields))
		for _, f := range fields {
			known = append(known, f.name)
		}
		problem := fmt.Sprintf("key %s is not a known field; remove it", strconv.QuoteToASCII(truncateKey(k)))
		if len(known) == 0 {
			problem += " (send an empty object)"
		} else {
			problem += " (known fields: " + strings.Join(known, ", ") + ")"
		}
		return &StrictJSONError{Kind: JSONUnknownField, Path: path, Problem: problem}
	}
	return nil
}

// setPlainStrings decodes the members obj, whose keys checkStructFields
// matched exactly, into the struct v when every one of them is a string going
// into a string field, as json.Unmarshal would (most request bodies are only
// that); it reports false, having set nothing, for anything else.
func setPlainStrings(v reflect.Value, obj []Member, fields []jsonField) bool {
	if len(obj) > 8 {
		return false
	}
	var idx [8]int
	var vals [8]string
	for i, m := range obj {
		f := fieldNamed(fields, m.Key)
		if f == nil || f.quoted || f.typ.Kind() != reflect.String || decodesItself(f.typ) {
			return false
		}
		s, ok := StringValue(m.Value)
		if !ok {
			return false
		}
		idx[i], vals[i] = f.index, s
	}
	for i := range obj {
		v.Field(idx[i]).SetString(vals[i])
	}
	return true
}

// decodesItself tells whether encoding/json would hand a value of type t to
// its own UnmarshalJSON or UnmarshalText.
func decodesItself(t reflect.Type) bool {
	p := reflect.PointerTo(t)
	return p.Implements(jsonUnmarshalerType) || p.Implements(textUnmarshalerType)
}

var (
	jsonUnmarshalerType = reflect.TypeFor[json.Unmarshaler]()
	textUnmarshalerType = reflect.TypeFor[encoding.TextUnmarshaler]()
)

func fieldNamed(fields []jsonField, name string) *jsonField {
	for i := range fields {
		if fields[i].name == name {
			return &fields[i]
		}
	}
	return nil
}

// StringValue is the string the JSON value raw (from a body CheckStrictJSON
// accepted) holds; ok is false when raw is not a string.
func StringValue(raw []byte) (s string, ok bool) {
	if len(raw) < 2 || raw[0] != '"' {
		return "", false
	}
	if bytes.IndexByte(raw, '\\') < 0 { // no escapes: the bytes are the string
		return string(raw[1 : len(raw)-1]), true
	}
	return s, json.Unmarshal(raw, &s) == nil
}

// hasKeys tells whether checkExactKeys has keys to check in a value of type t.
func hasKeys(t reflect.Type) bool {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Struct, reflect.Slice, reflect.Map:
		return t != rawMessageType
	}
	return false
}

// Member is a key of a JSON object with its value's bytes.
type Member struct {
	Key   string
	Value []byte
}

// ObjectMembers lists the members of the JSON object raw, by key (so that
// the first problem reported does not depend on the order the client wrote
// them in); ok is false when raw is not an object. raw must be a body that
// CheckStrictJSON accepted (valid UTF-8 JSON, no duplicate keys): it is
// walked without being parsed again.
func ObjectMembers(raw []byte) (obj []Member, ok bool) {
	i := skipSpaces(raw, 0)
	if i >= len(raw) || raw[i] != '{' {
		return nil, false
	}
	for i++; ; {
		i = skipSpaces(raw, i)
		if i >= len(raw) || raw[i] == '}' {
			break
		}
		end := skipString(raw, i)
		var key string
		if bytes.IndexByte(raw[i:end], '\\') < 0 {
			key = string(raw[i+1 : end-1])
		} else if json.Unmarshal(raw[i:end], &key) != nil {
			return nil, false
		}
		i = skipSpaces(raw, end) + 1 // the colon
		i = skipSpaces(raw, i)
		vend := skipValue(raw, i)
		obj = append(obj, Member{key, raw[i:vend]})
		if i = skipSpaces(raw, vend); i < len(raw) && raw[i] == ',' {
			i++
		}
	}
	slices.SortFunc(obj, func(a, b Member) int { return strings.Compare(a.Key, b.Key) })
	return obj, true
}

func skipSpaces(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// skipString returns the index just past the string literal at b[i].
func skipString(b []byte, i int) int {
	for i++; i < len(b); i++ {
		switch b[i] {
		case '\\':
			i++
		case '"':
			return i + 1
		}
	}
	return i
}

// skipValue returns the index just past the JSON value at b[i].
func skipValue(b []byte, i int) int {
	if i >= len(b) {
		return i
	}
	switch b[i] {
	case '"':
		return skipString(b, i)
	case '{', '[':
		depth := 0
		for i < len(b) {
			switch b[i] {
			case '"':
				i = skipString(b, i)
				continue
			case '{', '[':
				depth++
			case '}', ']':
				if depth--; depth == 0 {
					return i + 1
				}
			}
			i++
		}
		return i
	}
	return skipLiteral(b, i)
}

// skipLiteral returns the index just past the number, true, false or null at b[i].
func skipLiteral(b []byte, i int) int {
	for i < len(b) && !strings.ContainsRune(" \t\r\n,]}", rune(b[i])) {
		i++
	}
	return i
}

// miscasedKeyAdvice says what to do about a key that is the field name only
// when case is ignored. When the field is sent too, "use it" would be advice
// already followed: the miscased copy is the one to remove.
func miscasedKeyAdvice(name string, sentToo bool) string {
	if sentToo {
		return fmt.Sprintf("field names are case-sensitive, and %q is sent too: remove this one", name)
	}
	return fmt.Sprintf("field names are case-sensitive: use %q", name)
}
