package api

import (
	"bytes"
	"encoding/json"
	"errors"
	"maps"
	"reflect"
)

// A Result is read less strictly than an Intent. An intent is read exactly
// so that a member approves what was sent and nothing else; nobody votes on
// a result, and refusing one whole because the service added a member would
// only hide what it reports (the API key an oauth activity made, the id of a
// tag). So the members of a known result that match a field exactly are read
// as encoding/json reads them, and the others are kept aside, in
// UnknownFields, to be shown after them. Only the exact name fills a field:
// encoding/json would also let "CREDENTIALBUNDLE" replace "credentialBundle".

// UnmarshalJSON decodes each result key this client knows into its field,
// keeping the members it has no field for in UnknownFields, and keeps every
// other key, and a known one that cannot be read one way (a member sent
// twice, a value of the wrong type), in Other.
func (r *Result) UnmarshalJSON(data []byte) error {
	type fields Result // the same fields, without these methods
	var known fields
	var unknown []Member
	var sent map[string]json.RawMessage
	other, err := decodeOneOf(data, &known, func(key string, raw []byte, dst any) error {
		extra, err := readKnownMembers(raw, dst, key)
		if err != nil {
			return err
		}
		if len(extra) > 0 {
			unknown = append(unknown, extra...)
			if sent == nil {
				sent = map[string]json.RawMessage{}
			}
			sent[key] = raw
		}
		return nil
	})
	if err != nil {
		return err
	}
	*r = Result(known)
	r.Other, r.UnknownFields, r.sent = other, unknown, sent
	return nil
}

// MarshalJSON encodes the known fields as usual and then the kept keys; a
// known key read with members this client does not know is encoded as it was
// sent, so that nothing the service sent is lost, and an app proof's hash of
// the result (proof.ResultHash) covers those members too.
func (r Result) MarshalJSON() ([]byte, error) {
	type fields Result
	known := fields(r)
	if len(r.sent) == 0 {
		return encodeOneOf(known, r.Other)
	}
	all := maps.Clone(r.Other)
	if all == nil {
		all = map[string]json.RawMessage{}
	}
	v := reflect.ValueOf(&known).Elem()
	for _, f := range jsonFields(v.Type()) {
		if raw, ok := r.sent[f.name]; ok {
			v.Field(f.index).SetZero()
			all[f.name] = raw
		}
	}
	return encodeOneOf(known, all)
}

// readKnownMembers decodes raw into the value dst points to as
// json.Unmarshal does, except that a member of an object decoding into a
// struct is read only when its key is exactly a field's JSON name; the others
// are returned, each with its path under prefix, and not decoded. raw that
// cannot be read one way (CheckStrictJSON: a key twice, a lone surrogate,
// nested too deep) or not as dst's type is refused with a StrictJSONError.
func readKnownMembers(raw []byte, dst any, prefix string) ([]Member, error) {
	if err := CheckStrictJSON(raw); err != nil {
		return nil, err
	}
	var unknown []Member
	exact := exactMembers(raw, reflect.TypeOf(dst).Elem(), prefix, &unknown)
	if err := json.Unmarshal(exact, dst); err != nil {
		reflect.ValueOf(dst).Elem().SetZero() // a wrong type may have filled part of it
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			return nil, &StrictJSONError{Kind: JSONWrongType, Path: joinPath(prefix, te.Field), Problem: "expected " + wantKind(te.Type) + ", got JSON " + te.Value}
		}
		return nil, &StrictJSONError{Kind: JSONMalformed, Path: prefix, Problem: err.Error()}
	}
	return unknown, nil
}

// exactMembers is raw without the members, at any depth, whose key names no
// field of the struct they decode into exactly; those are appended to
// unknown. raw must be valid JSON.
func exactMembers(raw []byte, t reflect.Type, path string, unknown *[]Member) []byte {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if !hasKeys(t) || decodesItself(t) {
		return raw
	}
	switch t.Kind() {
	case reflect.Struct, reflect.Map:
		obj, ok := ObjectMembers(raw)
		if !ok {
			return raw // not an object: json.Unmarshal reports the type
		}
		var fields []jsonField
		if t.Kind() == reflect.Struct {
			fields = jsonFields(t)
		}
		var b bytes.Buffer
		b.WriteByte('{')
		for _, m := range obj {
			// A map's member decodes into its element, a struct's into the
			// field of exactly its name; a struct's other members are unknown.
			var elem reflect.Type
			if t.Kind() == reflect.Map {
				elem = t.Elem()
			} else if f := fieldNamed(fields, m.Key); f != nil {
				elem = f.typ
			} else {
				*unknown = append(*unknown, Member{Key: joinPath(path, m.Key), Value: m.Value})
				continue
			}
			if b.Len() > 1 {
				b.WriteByte(',')
			}
			key, _ := json.Marshal(m.Key)
			b.Write(key)
			b.WriteByte(':')
			b.Write(exactMembers(m.Value, elem, joinPath(path, m.Key), unknown))
		}
		b.WriteByte('}')
		return b.Bytes()
	case reflect.Slice, reflect.Array:
		i := skipSpaces(raw, 0)
		if i >= len(raw) || raw[i] != '[' {
			return raw
		}
		var b bytes.Buffer
		b.WriteByte('[')
		for n, i := 0, i+1; ; n++ {
			i = skipSpaces(raw, i)
			if i >= len(raw) || raw[i] == ']' {
				break
			}
			end := skipValue(raw, i)
			if n > 0 {
				b.WriteByte(',')
			}
			b.Write(exactMembers(raw[i:end], t.Elem(), indexPath(path, n), unknown))
			if i = skipSpaces(raw, end); i < len(raw) && raw[i] == ',' {
				i++
			}
		}
		b.WriteByte(']')
		return b.Bytes()
	}
	return raw
}
