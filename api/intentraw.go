package api

import (
	"bytes"
	"encoding/json"
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
	other, err := decodeOneOf(data, &known)
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

// UnmarshalJSON decodes as Intent.UnmarshalJSON does.
func (r *Result) UnmarshalJSON(data []byte) error {
	type fields Result
	var known fields
	other, err := decodeOneOf(data, &known)
	if err != nil {
		return err
	}
	*r = Result(known)
	r.Other = other
	return nil
}

// MarshalJSON encodes as Intent.MarshalJSON does.
func (r Result) MarshalJSON() ([]byte, error) {
	type fields Result
	return encodeOneOf(fields(r), r.Other)
}

// UnknownKeys are the keys of an intent this client does not know, sorted.
func (in Intent) UnknownKeys() []string { return sortedKeys(in.Other) }

// decodeOneOf decodes the object data into the struct dst points to: a key
// equal to a field's JSON name fills that field; any other key is returned
// as it was sent. null leaves dst empty.
func decodeOneOf(data []byte, dst any) (map[string]json.RawMessage, error) {
	if bytes.Equal(bytes.TrimSpace(data), []byte("null")) {
		return nil, nil
	}
	var keys map[string]json.RawMessage
	if err := json.Unmarshal(data, &keys); err != nil {
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
	for key, raw := range keys {
		i, ok := byName[key]
		if !ok {
			if other == nil {
				other = map[string]json.RawMessage{}
			}
			other[key] = raw
			continue
		}
		if err := json.Unmarshal(raw, v.Field(i).Addr().Interface()); err != nil {
			return nil, fmt.Errorf("%s: %w", key, err)
		}
	}
	return other, nil
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
