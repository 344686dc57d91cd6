package api

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
)

// An Intent or Result holds one key, named after its operation. The real
// service has many more operations than this client knows (its
// v1ActivityType lists about 150); an activity of any of them may be listed
// and voted on. encoding/json would drop such a key silently, and a member
// would be asked to approve an activity whose intent no screen can show, so
// the keys this client does not know are kept, exactly as sent, in Other.

// UnmarshalJSON decodes the keys the client knows into their fields, each
// under its exact wire name, and keeps every other key in Other.
func (in *Intent) UnmarshalJSON(data []byte) error {
	type fields Intent // the same fields, without these methods
	var known fields
	other, err := decodeOneOf(data, &known, func(_ string, raw []byte, dst any) error {
		return StrictUnmarshal(raw, dst)
	})
	if err != nil {
		return err
	}
	*in = Intent(known)
	in.Other = other
	return nil
}

// MarshalJSON encodes the known fields as usual and then the kept keys.
func (in Intent) MarshalJSON() ([]byte, error) {
	type fields Intent
	return encodeOneOf(fields(in), in.Other)
}

// UnknownKeys are the keys of an intent this client does not know, sorted.
func (in Intent) UnknownKeys() []string { return sortedKeys(in.Other) }

// decodeOneOf decodes the object data into the struct dst points to: a key
// equal to a field's JSON name fills that field when read decodes its value
// into it (Intent's: StrictUnmarshal, no member it has no field for, none
// matching only in another case, none twice, nothing nested deeper than the
// strict limit); any other key, and a known key whose value read refuses
// with a StrictJSONError, is returned as it was sent. encoding/json alone would drop an
// unknown member and let "APIKEYIDS" replace "apiKeyIds", so what a person
// reads would not be what was sent; kept raw, it is shown field by field.
// A key sent twice is refused: only one of the two could be kept. null
// leaves dst empty.
func decodeOneOf(data []byte, dst any, read func(key string, raw []byte, dst any) error) (map[string]json.RawMessage, error) {
	if bytes.Equal(bytes.TrimSpace(data), []byte("null")) {
		return nil, nil
	}
	members, err := orderedMembers(data)
	if err != nil {
		return nil, err
	}
	v := reflect.ValueOf(dst).Elem()
	byName := map[string]int{}
	for i := range v.NumField() {
		name, _, _ := strings.Cut(v.Type().Field(i).Tag.Get("json"), ",")
		if name != "" && name != "-" {
			byName[name] = i
		}
	}
	var other map[string]json.RawMessage
	keep := func(key string, raw json.RawMessage) {
		if other == nil {
			other = map[string]json.RawMessage{}
		}
		other[key] = raw
	}
	for _, m := range members {
		i, ok := byName[m.Key]
		if !ok {
			keep(m.Key, m.Value)
			continue
		}
		field := v.Field(i)
		if err := read(m.Key, m.Value, field.Addr().Interface()); err != nil {
			var strict *StrictJSONError
			if !errors.As(err, &strict) {
				return nil, fmt.Errorf("%s: %w", m.Key, err)
			}
			field.SetZero() // a wrong type may have filled part of it
			keep(m.Key, m.Value)
		}
	}
	return other, nil
}

// orderedMembers are the members of the JSON object data in the order sent,
// each value as sent; a key sent twice is an error.
func orderedMembers(data []byte) ([]Member, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	if tok, err := dec.Token(); err != nil {
		return nil, err
	} else if tok != json.Delim('{') {
		return nil, fmt.Errorf("want a JSON object, got %s", ClipBytes(fmt.Sprint(tok), 64))
	}
	var members []Member
	seen := map[string]bool{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		key, _ := tok.(string)
		if seen[key] {
			return nil, fmt.Errorf("key %s is sent twice; only one of them could be kept", Quote(truncateKey(key)))
		}
		seen[key] = true
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil, fmt.Errorf("%s: %w", Quote(truncateKey(key)), err)
		}
		members = append(members, Member{Key: key, Value: raw})
	}
	if _, err := dec.Token(); err != nil { // the closing brace
		return nil, err
	}
	return members, nil
}

// KnowsIntentKey reports whether key names an operation this client knows.
// A key in Intent.Other that it knows was kept because its value does not
// read exactly as that operation's parameters (a member this client does not
// know, a name in another case, one sent twice): its shape is unknown.
func KnowsIntentKey(key string) bool {
	t := reflect.TypeFor[Intent]()
	for i := range t.NumField() {
		if name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ","); name == key && name != "-" {
			return true
		}
	}
	return false
}

// encodeOneOf encodes known (a struct) and adds the keys of other after its
// own, in sorted order. Marshal leaves <, > and & bare: the encoder that
// called MarshalJSON escapes them if it is told to, and one told not to (a
// detail showing ">= 2") must get them bare.
func encodeOneOf(known any, other map[string]json.RawMessage) ([]byte, error) {
	b, err := Marshal(known)
	if err != nil || len(other) == 0 {
		return b, err
	}
	out := bytes.NewBuffer(b[:len(b)-1]) // without its closing brace
	first := len(b) == 2
	for _, key := range sortedKeys(other) {
		name, err := Marshal(key)
		if err != nil {
			return nil, err
		}
		if !first {
			out.WriteByte(',')
		}
		first = false
		out.Write(name)
		out.WriteByte(':')
		out.Write(other[key])
	}
	out.WriteByte('}')
	return out.Bytes(), nil
}

func sortedKeys(m map[string]json.RawMessage) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
