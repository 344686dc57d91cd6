package proof

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"unicode/utf16"

	"github.com/vigil-console/vigil/api"
)

// qosCanonicalJSON re-encodes the JSON value b as QOS canonical JSON, the
// bytes a v2 manifest's hash is taken over (tkhq/qos src/qos_json/src/lib.rs,
// write_value and what it calls):
//   - an integer is written as a decimal string (7 and "7" hash alike), and
//     any other number is refused;
//   - an object member whose value is null is dropped ({"dns":null} hashes as
//     {}), a null elsewhere stays null;
//   - object keys are sorted by their UTF-16 code units;
//   - strings are written as serde_json writes them: only '"', '\' and the C0
//     controls are escaped, so U+2028 and U+2029 stay raw.
//
// QOS hashes its typed reading of the bytes, re-serialized; re-encoding the
// value is the same for every manifest QOS's decoder accepts and vigil's
// strict one reads, except hex written in capitals or with 0x (QOS
// re-encodes it lowercase): such a manifest fails user-data, never passes
// with a hash QOS did not compute.
func qosCanonicalJSON(b []byte) ([]byte, error) {
	v, err := qosJSONValue(b)
	if err != nil {
		return nil, err
	}
	return qosJSONBytes(v)
}

// qosJSONValue reads b as one JSON value, numbers kept as written, refusing
// what two parsers could read differently (api.CheckStrictJSON).
func qosJSONValue(b []byte) (any, error) {
	if err := api.CheckStrictJSON(b); err != nil {
		return nil, err
	}
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return nil, err
	}
	if d.More() {
		return nil, fmt.Errorf("more than one JSON value")
	}
	return v, nil
}

// qosJSONBytes writes a value read by qosJSONValue as QOS canonical JSON.
func qosJSONBytes(v any) ([]byte, error) {
	var out bytes.Buffer
	if err := writeQOSJSON(&out, v); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}

func writeQOSJSON(out *bytes.Buffer, v any) error {
	switch v := v.(type) {
	case nil:
		out.WriteString("null")
	case bool:
		out.WriteString(strconv.FormatBool(v))
	case json.Number:
		s, err := qosInteger(v)
		if err != nil {
			return err
		}
		writeSerdeString(out, s)
	case string:
		writeSerdeString(out, v)
	case []any:
		out.WriteByte('[')
		for i, e := range v {
			if i > 0 {
				out.WriteByte(',')
			}
			if err := writeQOSJSON(out, e); err != nil {
				return err
			}
		}
		out.WriteByte(']')
	case map[string]any:
		keys := make([]string, 0, len(v))
		for k, e := range v {
			if e != nil {
				keys = append(keys, k)
			}
		}
		slices.SortFunc(keys, func(a, b string) int {
			return slices.Compare(utf16.Encode([]rune(a)), utf16.Encode([]rune(b)))
		})
		out.WriteByte('{')
		for i, k := range keys {
			if i > 0 {
				out.WriteByte(',')
			}
			writeSerdeString(out, k)
			out.WriteByte(':')
			if err := writeQOSJSON(out, v[k]); err != nil {
				return err
			}
		}
		out.WriteByte('}')
	default:
		return fmt.Errorf("unexpected JSON value %T", v)
	}
	return nil
}

// qosInteger is n as serde_json prints an integer it read (a u64 or an i64):
// its decimal digits, "-0" as "0". A fraction, an exponent or an integer
// outside both ranges is a float to serde_json, which qos_json refuses.
func qosInteger(n json.Number) (string, error) {
	s := n.String()
	if u, err := strconv.ParseUint(s, 10, 64); err == nil {
		return strconv.FormatUint(u, 10), nil
	}
	if i, err := strconv.ParseInt(s, 10, 64); err == nil {
		return strconv.FormatInt(i, 10), nil
	}
	return "", fmt.Errorf("number %s is not an integer QOS canonical JSON can write (it refuses non-integer numbers)", clip(s))
}

// writeSerdeString writes s as a JSON string the way serde_json does:
// '"' and '\' escaped, \b \f \n \r \t for those controls, \u00xx (lowercase
// hex) for the other C0 controls, everything else as its UTF-8 bytes.
func writeSerdeString(out *bytes.Buffer, s string) {
	const hexDigits = "0123456789abcdef"
	out.WriteByte('"')
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '"':
			out.WriteString(`\"`)
		case c == '\\':
			out.WriteString(`\\`)
		case c == '\b':
			out.WriteString(`\b`)
		case c == '\f':
			out.WriteString(`\f`)
		case c == '\n':
			out.WriteString(`\n`)
		case c == '\r':
			out.WriteString(`\r`)
		case c == '\t':
			out.WriteString(`\t`)
		case c < 0x20:
			out.WriteString(`\u00`)
			out.WriteByte(hexDigits[c>>4])
			out.WriteByte(hexDigits[c&0xf])
		default:
			out.WriteByte(c)
		}
	}
	out.WriteByte('"')
}

// qosManifestV2Canonical is the QOS canonical JSON of a v2 manifest, the
// bytes of its hash (manifest.rs:50 canonical_json_hash).
func qosManifestV2Canonical(b []byte) ([]byte, error) {
	v, err := qosManifestV2Value(b)
	if err != nil {
		return nil, err
	}
	return qosJSONBytes(v)
}

// qosManifestV2Value is a v2 manifest read as the value its hash is taken
// over: qosJSONBytes of it is qosManifestV2Canonical. QOS hashes its typed
// reading, so an empty pivot env, which PivotConfigV2 skips when serializing
// (manifest/v2.rs:40, skip_serializing_if PivotEnv::is_empty), is dropped.
// What vigil shows of the manifest's free-form parts (bridges, env, dns) is
// written from this value, so it cannot differ from what was hashed.
func qosManifestV2Value(b []byte) (any, error) {
	v, err := qosJSONValue(b)
	if err != nil {
		return nil, err
	}
	if m, ok := v.(map[string]any); ok {
		if pivot, ok := m["pivot"].(map[string]any); ok {
			if env, ok := pivot["env"].(map[string]any); ok && len(env) == 0 {
				delete(pivot, "env")
			}
		}
	}
	return v, nil
}
