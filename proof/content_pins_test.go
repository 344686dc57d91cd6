package proof

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
	"strings"
	"testing"
	"time"

	"github.com/vigil-console/vigil/api"
)

// v0Content is what a Borsh v0 manifest (the production fixture's layout,
// and the demo's) says of its namespace, pivot and manifest set, read here
// by hand from the field layout rather than by the decoder under test.
type v0Content struct {
	quorumKey, pivot []byte
	threshold        uint32
	members          [][]byte
}

func readV0Content(t *testing.T, bp api.BootProof) v0Content {
	t.Helper()
	b, err := base64.StdEncoding.DecodeString(bp.QosManifestB64)
	if err != nil {
		t.Fatal(err)
	}
	u32 := func() uint32 {
		if len(b) < 4 {
			t.Fatal("manifest too short")
		}
		v := binary.LittleEndian.Uint32(b)
		b = b[4:]
		return v
	}
	take := func(n int) []byte {
		if len(b) < n {
			t.Fatal("manifest too short")
		}
		v := b[:n]
		b = b[n:]
		return v
	}
	var c v0Content
	take(int(u32()))               // namespace.name
	u32()                          // namespace.nonce
	c.quorumKey = take(int(u32())) // namespace.quorum_key
	c.pivot = take(32)             // pivot.hash
	take(1)                        // pivot.restart
	for n := u32(); n > 0; n-- {   // pivot.args
		take(int(u32()))
	}
	c.threshold = u32()
	for n := u32(); n > 0; n-- {
		take(int(u32())) // alias
		c.members = append(c.members, bytes.Clone(take(int(u32()))))
	}
	return c
}

func (c v0Content) set() *QuorumSet {
	s := &QuorumSet{Threshold: c.threshold}
	for _, k := range c.members {
		s.Members = append(s.Members, Member{PubKey: k})
	}
	return s
}

func pinResult(rep *Report, pin string) *PinResult {
	for i := range rep.Pins {
		if rep.Pins[i].Pin == pin {
			return &rep.Pins[i]
		}
	}
	return nil
}

// The production proof with its pivot hash and manifest set pinned (no
// manifest hash, which the next deploy changes) is VERIFIED with no caveat;
// the pivot alone, or the quorum key, keeps a caveat.
func TestContentPinsProduction(t *testing.T) {
	bp, _ := fixturePair(t)
	c := readV0Content(t, bp)
	if len(c.members) != 2 || c.threshold != 2 {
		t.Fatalf("fixture's manifest set read as %d of %d members, FIXTURES.md says 2-of-2", c.threshold, len(c.members))
	}

	full := Options{ExpectedPivotHashes: [][]byte{c.pivot}, ExpectedManifestSet: c.set(), ExpectedQuorumKey: c.quorumKey}
	rep := VerifyBootProof(bp, full)
	if rep.Verdict != Verified || rep.Caveat != "" {
		t.Fatalf("pivot, set and quorum key pinned: verdict %s, caveat %q\n%s", rep.Verdict, rep.Caveat, dump(rep))
	}
	for _, pin := range []string{PinPivotHash, PinManifestSet, PinQuorumKey} {
		if p := pinResult(rep, pin); p == nil || p.Status != Pass {
			t.Errorf("pin %s: %+v, want pass", pin, p)
		}
	}

	// A rotation that drops an operator and keeps the threshold met by the
	// rest is what "only pinned members" allows: pin a superset.
	_, extra, _, err := newQOSKey()
	if err != nil {
		t.Fatal(err)
	}
	wider := c.set()
	wider.Members = append(wider.Members, Member{PubKey: extra})
	if rep := VerifyBootProof(bp, Options{ExpectedPivotHashes: [][]byte{c.pivot}, ExpectedManifestSet: wider}); rep.Verdict != Verified || rep.Caveat != "" {
		t.Errorf("manifest set within a wider pinned set: verdict %s, caveat %q\n%s", rep.Verdict, rep.Caveat, dump(rep))
	}

	for name, o := range map[string]Options{
		"pivot only":      {ExpectedPivotHashes: [][]byte{c.pivot}},
		"set only":        {ExpectedManifestSet: c.set()},
		"quorum key only": {ExpectedQuorumKey: c.quorumKey},
	} {
		if rep := VerifyBootProof(bp, o); rep.Verdict != Verified || rep.Caveat != PartialPinsCaveat {
			t.Errorf("%s: verdict %s, caveat %q, want VERIFIED with %q", name, rep.Verdict, rep.Caveat, PartialPinsCaveat)
		}
	}
}

// A pin that does not match fails the pins check, naming what differed.
func TestContentPinsMismatchFails(t *testing.T) {
	bp, _ := fixturePair(t)
	c := readV0Content(t, bp)
	otherPivot := bytes.Clone(c.pivot)
	otherPivot[0] ^= 1
	_, otherKey, _, err := newQOSKey()
	if err != nil {
		t.Fatal(err)
	}
	missing := &QuorumSet{Threshold: 1, Members: []Member{{PubKey: c.members[0]}}}
	higher := c.set()
	higher.Threshold = 3

	for _, tc := range []struct {
		name, pin string
		opts      Options
		want      []string
	}{
		{"pivot", PinPivotHash, Options{ExpectedPivotHashes: [][]byte{otherPivot}, ExpectedManifestSet: c.set()},
			[]string{"pivot hash " + hex.EncodeToString(c.pivot), "not among the 1 pinned"}},
		{"set member", PinManifestSet, Options{ExpectedPivotHashes: [][]byte{c.pivot}, ExpectedManifestSet: missing},
			[]string{"is not in the pinned set", hex.EncodeToString(c.members[1][:4])}},
		{"set threshold", PinManifestSet, Options{ExpectedPivotHashes: [][]byte{c.pivot}, ExpectedManifestSet: higher},
			[]string{"threshold is 2, below the pinned 3"}},
		{"quorum key", PinQuorumKey, Options{ExpectedQuorumKey: otherKey},
			[]string{"quorum key is " + hex.EncodeToString(c.quorumKey[:4]), "pinned " + hex.EncodeToString(otherKey[:4])}},
	} {
		rep := VerifyBootProof(bp, tc.opts)
		pins := rep.Check(CheckPins)
		if rep.Verdict != Failed || pins.Status != Fail {
			t.Errorf("%s: verdict %s, pins %s, want FAILED\n%s", tc.name, rep.Verdict, pins.Status, dump(rep))
			continue
		}
		if got := rep.FailedChecks(); len(got) != 1 {
			t.Errorf("%s: failed checks %v, want only pins", tc.name, got)
		}
		for _, w := range tc.want {
			if !strings.Contains(pins.Reason, w) {
				t.Errorf("%s: pins reason %q does not say %q", tc.name, pins.Reason, w)
			}
		}
		if p := pinResult(rep, tc.pin); p == nil || p.Status != Fail {
			t.Errorf("%s: pin %s is %+v, want fail", tc.name, tc.pin, p)
		}
	}
}

// A manifest that runs the genuine app's binary under a manifest set of its
// own, approved by that set, passes every check but the set pin: approvals
// are counted against the manifest's own set, the pin against yours.
func TestManifestSetPinRefusesSelfApprovingSet(t *testing.T) {
	now := time.Now()
	auth, genuine := demoSigner(t, now)
	c := readV0Content(t, genuine.BootProof)
	pins := Options{Roots: []Root{auth.Root()}, App: "signer", ExpectedPivotHashes: [][]byte{c.pivot}, ExpectedManifestSet: c.set()}

	if rep := VerifyBootProof(genuine.BootProof, pins); rep.Verdict != Verified || rep.Caveat != "" {
		t.Fatalf("genuine: verdict %s, caveat %q\n%s", rep.Verdict, rep.Caveat, dump(rep))
	}
	rogue := rogueEnclaveRunning(t, auth, genuine, now, c.pivot)
	unpinned := pins
	unpinned.ExpectedManifestSet = nil
	if rep := VerifyBootProof(rogue, unpinned); rep.Verdict != Verified {
		t.Fatalf("the rogue manifest should pass without a set pin (its own set approved it):\n%s", dump(rep))
	}
	rep := VerifyBootProof(rogue, pins)
	if got := rep.FailedChecks(); rep.Verdict != Failed || len(got) != 1 || got[0] != CheckPins {
		t.Fatalf("rogue, set pinned: verdict %s, failed %v, want only pins\n%s", rep.Verdict, got, dump(rep))
	}
	if p := pinResult(rep, PinManifestSet); p == nil || p.Status != Fail || !strings.Contains(p.Reason, `member "mallory"`) {
		t.Errorf("set pin: %+v, want a failure naming mallory", p)
	}
	if p := pinResult(rep, PinPivotHash); p == nil || p.Status != Pass {
		t.Errorf("pivot pin: %+v, want pass (the rogue runs the genuine binary)", p)
	}
}

// A bare attestation document has no manifest: a content pin asked for
// cannot be checked, and fails rather than pass unchecked.
func TestContentPinsWithoutManifestFail(t *testing.T) {
	now := time.Now()
	auth, genuine := demoSigner(t, now)
	doc, _ := base64.StdEncoding.DecodeString(genuine.BootProof.AwsAttestationDocB64)
	c := readV0Content(t, genuine.BootProof)
	rep := VerifyAttestation(doc, Options{Roots: []Root{auth.Root()}, ExpectedPivotHashes: [][]byte{c.pivot}})
	if rep.Verdict != Failed || rep.Check(CheckPins).Status != Fail || !strings.Contains(rep.Check(CheckPins).Reason, "no manifest") {
		t.Errorf("verdict %s:\n%s", rep.Verdict, dump(rep))
	}
}
