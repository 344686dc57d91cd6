package proof

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"
)

// pivotPolyglot is bytes that are a Borsh v1 manifest with 17 bridges whose
// sets are aliased "attacker" (QOS's reading: it has no bridge limit and reads
// v1 first) and also a v0 manifest with 17 args whose sets are aliased
// "operator": v0 reads args where v1 reads bridges, and its 17th arg swallows
// the v1 sets.
func pivotPolyglot(t *testing.T) []byte {
	t.Helper()
	set := func(w *borshWriter, alias string, key []byte) {
		w.u32(1) // threshold
		w.u32(1) // members
		w.str(alias)
		w.bytes(key)
	}
	enclave := func(w *borshWriter, pcr byte, commit string) {
		for range 4 {
			w.bytes(bytes.Repeat([]byte{pcr}, 48))
		}
		w.bytes(nil)
		w.str(commit)
	}
	// The v0 reading's tail; its length, the v1 reading's last patch key
	// length, must also be UTF-8 inside the 17th v0 arg.
	var v0Tail []byte
	for pad := 0; v0Tail == nil; pad++ {
		w := &borshWriter{}
		set(w, "operator", bytes.Repeat([]byte{0xee}, 130))
		set(w, "operator", bytes.Repeat([]byte{0xee}, 130))
		enclave(w, 0xaa, "good-commit"+strings.Repeat("p", pad))
		w.u32(0) // patch set threshold
		w.u32(0) // patch set members
		if utf8.Valid(binary.LittleEndian.AppendUint32(nil, uint32(len(w.b)))) {
			v0Tail = w.b
		}
	}
	// The v1 reading's tail, ASCII so the v0 reading takes it as a string.
	w1 := &borshWriter{}
	set(w1, "attacker", bytes.Repeat([]byte{'k'}, 100))
	set(w1, "attacker", bytes.Repeat([]byte{'k'}, 100))
	enclave(w1, 'p', "evil")
	w1.u32(1)                   // patch set threshold
	w1.u32(1)                   // patch set members
	w1.u32(uint32(len(v0Tail))) // the patch member's key is the v0 tail
	if !utf8.Valid(w1.b) {
		t.Fatal("the v1 tail is not UTF-8")
	}

	w := &borshWriter{}
	w.str("ns")
	w.u32(1)
	w.bytes(nil)
	w.raw(make([]byte, 32))
	w.u8(0)
	w.u32(maxBridges + 1) // v1: bridges; v0: args
	// v1: 17 Server bridges of 7 zero bytes, debug_mode, 0 args (124 bytes);
	// v0: 16 empty args, then the 17th arg's length (bytes 64-67) spans the
	// rest of these bytes and the v1 tail.
	body := make([]byte, 7*(maxBridges+1)+1+4)
	binary.LittleEndian.PutUint16(body[64:], uint16(len(body)-68+len(w1.b)))
	w.raw(body)
	w.raw(w1.b)
	w.raw(v0Tail)
	return w.b
}

// Bytes that are a v1 manifest over vigil's pivot limits and also a v0
// manifest (other sets and PCRs, under the same hash) are refused as
// ambiguous, as QOS refuses them: neither reading is shown.
func TestOverLimitV1ThatIsAlsoV0IsAmbiguous(t *testing.T) {
	b := pivotPolyglot(t)
	v0, err := decodeManifestBorsh(b, false)
	if err != nil || v0.ManifestSet.Members[0].Alias != "operator" {
		t.Fatalf("the bytes are not the v0 manifest the test needs: %v", err)
	}
	envelope := binary.LittleEndian.AppendUint64(append([]byte(nil), b...), 0) // no approvals

	rep := VerifyBootProof(hostileBootProof(b, envelope), Options{})
	c := rep.Check(CheckManifestDecode)
	if c.Status != Fail || !strings.Contains(c.Reason, "ambiguous Borsh encoding") {
		t.Errorf("manifest-decode is %s %q, want a failure naming the ambiguous Borsh encoding", c.Status, c.Reason)
	}
	if rep.Manifest != nil {
		t.Errorf("a manifest is shown (%s, manifest set %q) for bytes QOS refuses as ambiguous", rep.Manifest.Version, rep.Manifest.ManifestSet.Members[0].Alias)
	}
	_, err = decodeEnvelope(envelope, false)
	if err == nil || !strings.Contains(err.Error(), "ambiguous Borsh encoding") {
		t.Errorf("the envelope: %v, want an ambiguous Borsh encoding error", err)
	}
}

// A v0 manifest with more args than v1 allows bridges starts like a v1
// manifest over the bridge limit; QOS reads it as v0 (it is not v1 read to the
// end), and so does vigil.
func TestV0WithManyArgsIsReadAsV0(t *testing.T) {
	m := &Manifest{
		Namespace: Namespace{Name: "ns", Nonce: 1},
		Pivot:     Pivot{Hash: make([]byte, 32), Restart: "Always"},
		Enclave:   NitroConfig{PCR0: make([]byte, 48), PCR1: make([]byte, 48), PCR2: make([]byte, 48), PCR3: make([]byte, 48)},
	}
	for i := range maxBridges + 4 {
		m.Pivot.Args = append(m.Pivot.Args, fmt.Sprintf("--flag-%d", i))
	}
	got, err := decodeManifest(encodeManifestV0(m), false)
	if err != nil {
		t.Fatalf("a v0 manifest with %d args: %v", len(m.Pivot.Args), err)
	}
	if got.Version != "v0" || strings.Join(got.Pivot.Args, " ") != strings.Join(m.Pivot.Args, " ") {
		t.Errorf("read as %s with args %q, want v0 with %q", got.Version, got.Pivot.Args, m.Pivot.Args)
	}
}
