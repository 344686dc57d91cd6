package proof

import (
	"bytes"
	"encoding/binary"
	"strings"
	"testing"

	"github.com/fxamacker/cbor/v2"
)

// coseWith wraps a payload in an untagged COSE_Sign1 with an ES384 protected
// header and a dummy signature: enough to reach the payload decoder.
func coseWith(t *testing.T, payload []byte) []byte {
	t.Helper()
	b, err := cbor.Marshal([]any{[]byte{0xa1, 0x01, 0x38, 0x22}, map[any]any{}, payload, make([]byte, 96)})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestHostileAttestationPayloads(t *testing.T) {
	good := map[string]any{
		"module_id": "i-1", "digest": "SHA384", "timestamp": uint64(1),
		"pcrs": map[uint64][]byte{0: make([]byte, 48)}, "certificate": []byte{1},
		"cabundle": [][]byte{{1}}, "public_key": nil, "user_data": nil, "nonce": nil,
	}
	with := func(k string, v any) map[string]any {
		m := map[string]any{}
		for kk, vv := range good {
			m[kk] = vv
		}
		if v == nil {
			delete(m, k)
		} else {
			m[k] = v
		}
		return m
	}
	manyPCRs := map[uint64][]byte{}
	for i := range 33 {
		manyPCRs[uint64(i)] = make([]byte, 48)
	}
	cases := map[string]struct {
		payload any
		want    string
	}{
		"pcrs as array":       {with("pcrs", []any{1, 2}), "pcrs"},
		"timestamp as string": {with("timestamp", "now"), "timestamp"},
		"digest SHA256":       {with("digest", "SHA256"), "digest"},
		"no module id":        {with("module_id", nil), "module_id"},
		"33 PCRs":             {with("pcrs", manyPCRs), "PCRs"},
		"PCR index 40":        {with("pcrs", map[uint64][]byte{40: make([]byte, 48)}), "out of range"},
		"PCR of 7 bytes":      {with("pcrs", map[uint64][]byte{0: make([]byte, 7)}), "7 bytes"},
		"unknown field":       {with("extra", 1), "unknown field"},
		"cabundle empty":      {with("cabundle", [][]byte{}), "cabundle"},
		"certificate garbage": {good, "certificate"},
		"user_data oversized": {with("user_data", make([]byte, 2000)), "1024"},
		"payload not a map":   {[]int{1, 2, 3}, "payload"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			p, err := cbor.Marshal(tc.payload)
			if err != nil {
				t.Fatal(err)
			}
			_, err = parseAttestation(coseWith(t, p))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want one mentioning %q", err, tc.want)
			}
			rep := VerifyAttestation(coseWith(t, p), Options{})
			if rep.Verdict != Failed || rep.Check(CheckCOSE).Status != Fail {
				t.Errorf("verdict %s", rep.Verdict)
			}
		})
	}
	// Structure-level hostility.
	for name, doc := range map[string][]byte{
		"empty":             {},
		"array of 3":        {0x83, 0x40, 0xa0, 0x40},
		"huge length claim": {0x84, 0x5b, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
		"deep nesting":      bytes.Repeat([]byte{0x81}, 10000),
		"oversized":         make([]byte, maxDocumentSize+1),
		"duplicate keys":    coseWith(t, []byte{0xa2, 0x61, 0x61, 0x01, 0x61, 0x61, 0x02}),
	} {
		if _, err := parseAttestation(doc); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

func TestHostileBorsh(t *testing.T) {
	// A namespace name claiming 4 GiB must be an error, not an allocation.
	huge := binary.LittleEndian.AppendUint32(nil, 0xffffffff)
	if _, err := decodeManifest(append(huge, 'a'), false); err == nil || !strings.Contains(err.Error(), "exceeds") {
		t.Errorf("huge string: %v", err)
	}
	// A member vector claiming 2^32-1 elements.
	w := &borshWriter{}
	w.str("n")
	w.u32(1)
	w.bytes(nil)
	w.raw(make([]byte, 32))
	w.u8(0)
	w.u32(0)          // args
	w.u32(1)          // threshold
	w.u32(0xffffffff) // members
	if _, err := decodeManifest(w.b, false); err == nil || !strings.Contains(err.Error(), "cannot fit") {
		t.Errorf("huge vector: %v", err)
	}
	// Invalid UTF-8 and a bad restart policy.
	for name, b := range map[string][]byte{
		"bad utf8": append(binary.LittleEndian.AppendUint32(nil, 1), 0xff),
		"restart 7": func() []byte {
			w := &borshWriter{}
			w.str("n")
			w.u32(1)
			w.bytes(nil)
			w.raw(make([]byte, 32))
			w.u8(7)
			return w.b
		}(),
		"truncated": {1, 0},
	} {
		if _, err := decodeManifest(b, false); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}
