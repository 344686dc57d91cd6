package proof

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"strings"
	"testing"

	"github.com/fxamacker/cbor/v2"

	"github.com/vigil-console/vigil/api"
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

// hostileQuorum is a Borsh v0 manifest whose manifest set has members members
// (valid QOS keys), and its envelope with approvals approvals by those members
// (round robin), each signed by the member's key over the wrong message, so
// that every one costs a full P-256 verification and fails.
func hostileQuorum(t testing.TB, members, approvals int) (manifest, envelope []byte) {
	t.Helper()
	m := &Manifest{
		Namespace: Namespace{Name: "evil/signer", Nonce: 1},
		Pivot:     Pivot{Hash: make([]byte, 32), Restart: "Always"},
		Enclave:   NitroConfig{PCR0: make([]byte, 48), PCR1: make([]byte, 48), PCR2: make([]byte, 48), PCR3: make([]byte, 48)},
	}
	m.ManifestSet.Threshold = 1
	var sigs [][]byte
	for i := range members {
		sign, pub, _, err := newQOSKey()
		if err != nil {
			t.Fatal(err)
		}
		sig, err := signP256(sign, []byte("not the manifest hash"))
		if err != nil {
			t.Fatal(err)
		}
		m.ManifestSet.Members = append(m.ManifestSet.Members, Member{Alias: fmt.Sprintf("m%d", i), PubKey: pub})
		sigs = append(sigs, sig)
	}
	manifest = encodeManifestV0(m)
	var aps []rawApproval
	for i := range approvals {
		aps = append(aps, rawApproval{signature: sigs[i%members], member: m.ManifestSet.Members[i%members]})
	}
	return manifest, encodeEnvelope(manifest, aps)
}

// hostileBootProof ships a manifest and envelope with a document that does not
// decode: no genuine attestation is needed to make the verifier check the
// approvals (it falls back to the manifest's own hash).
func hostileBootProof(manifest, envelope []byte) api.BootProof {
	return api.BootProof{EnclaveApp: "signer", AwsAttestationDocB64: "AAAA",
		QosManifestB64:         base64.StdEncoding.EncodeToString(manifest),
		QosManifestEnvelopeB64: base64.StdEncoding.EncodeToString(envelope)}
}

// jsonManifestWithMembers is a v2 manifest whose manifest set has n members.
func jsonManifestWithMembers(n int) string {
	var ms []string
	for i := range n {
		ms = append(ms, fmt.Sprintf(`{"alias":"m%d","pubKey":"%02x"}`, i, i))
	}
	return `{"version":"v2","namespace":{"name":"evil/signer","nonce":1,"quorumKey":"01"},"pivot":{"hash":"` + strings.Repeat("09", 32) +
		`","restart":"Always","bridgeConfig":[],"debugMode":false,"args":[]},"manifestSet":{"threshold":1,"members":[` + strings.Join(ms, ",") + `]},` +
		`"shareSet":{"threshold":1,"members":[]},"enclave":{"pcr0":"00","pcr1":"01","pcr2":"02","pcr3":"03","awsRootCertificate":"","qosCommit":"c"}}`
}

// A quorum set or an envelope over maxSetMembers is refused when it is
// decoded, with a reason that says so; one at the limit is read.
func TestQuorumSetsAndApprovalsAreBounded(t *testing.T) {
	limit := fmt.Sprintf("over the limit of %d", maxSetMembers)

	atLimit, env := hostileQuorum(t, maxSetMembers, maxSetMembers)
	if _, err := decodeManifest(atLimit, false); err != nil {
		t.Errorf("a manifest set of %d members: %v", maxSetMembers, err)
	}
	if _, err := decodeEnvelope(env, false); err != nil {
		t.Errorf("an envelope of %d approvals: %v", maxSetMembers, err)
	}
	if _, err := decodeManifest([]byte(jsonManifestWithMembers(maxSetMembers)), true); err != nil {
		t.Errorf("a v2 manifest set of %d members: %v", maxSetMembers, err)
	}

	over, _ := hostileQuorum(t, maxSetMembers+1, 0)
	_, tooManyApprovals := hostileQuorum(t, 1, maxSetMembers+1)
	v2 := jsonManifestWithMembers(maxSetMembers + 1)
	v2Env := `{"manifest":` + jsonManifestWithMembers(1) + `,"manifestSetApprovals":[` +
		strings.TrimSuffix(strings.Repeat(`{"signature":"00","member":{"alias":"m0","pubKey":"00"}},`, maxSetMembers+1), ",") +
		`],"shareSetApprovals":[]}`

	for _, tc := range []struct {
		name          string
		manifest, env []byte
		v2            bool
		check         string // the check whose reason must give the limit
		want          string
	}{
		{"Borsh manifest set", over, nil, false, CheckManifestDecode, fmt.Sprintf("%d members, %s", maxSetMembers+1, limit)},
		{"Borsh approvals", nil, tooManyApprovals, false, CheckApprovals, fmt.Sprintf("%d approvals, %s", maxSetMembers+1, limit)},
		{"JSON manifest set", []byte(v2), nil, true, CheckManifestDecode, fmt.Sprintf("manifestSet: %d members, %s", maxSetMembers+1, limit)},
		{"JSON approvals", nil, []byte(v2Env), true, CheckApprovals, fmt.Sprintf("manifestSetApprovals: %d approvals, %s", maxSetMembers+1, limit)},
	} {
		bp := hostileBootProof(tc.manifest, tc.env)
		if tc.v2 {
			bp.QosManifestVersion = "v2"
		}
		rep := VerifyBootProof(bp, Options{})
		c := rep.Check(tc.check)
		if c.Status != Fail || !strings.Contains(c.Reason, tc.want) {
			t.Errorf("%s: %s is %s %q, want a failure saying %q", tc.name, tc.check, c.Status, c.Reason, tc.want)
		}
	}
}

// An envelope whose every approval fails lists the first few problems in the
// reason and counts the rest, and still records every approval for the report.
func TestApprovalsReasonListsTheFirstProblems(t *testing.T) {
	manifest, env := hostileQuorum(t, 2, maxSetMembers)
	rep := VerifyBootProof(hostileBootProof(manifest, env), Options{})
	c := rep.Check(CheckApprovals)
	more := fmt.Sprintf("; … and %d more", maxSetMembers-maxProblemsListed)
	if c.Status != Fail || !strings.HasSuffix(c.Reason, more) || strings.Count(c.Reason, "approval ") != maxProblemsListed {
		t.Errorf("approvals: %s %q, want %d problems then %q", c.Status, c.Reason, maxProblemsListed, more)
	}
	if rep.Manifest == nil || len(rep.Manifest.Approvals) != maxSetMembers {
		t.Fatalf("the report does not hold the %d approvals: %+v", maxSetMembers, rep.Manifest)
	}
	for i, ap := range rep.Manifest.Approvals {
		if ap.Valid || !ap.Member || ap.Reason == "" {
			t.Errorf("approval %d: %+v, want a member's invalid signature with its reason", i+1, ap)
		}
	}
}

// An approval by a key that is not a member is refused without checking its
// signature: a member's alias with another key, or its key with another alias.
func TestApprovalByANonMember(t *testing.T) {
	manifest, env := hostileQuorum(t, 1, 1)
	e, err := decodeEnvelope(env, false)
	if err != nil {
		t.Fatal(err)
	}
	real := e.approvals[0].member
	_, other, _, err := newQOSKey()
	if err != nil {
		t.Fatal(err)
	}
	for name, m := range map[string]Member{
		"another key":   {Alias: real.Alias, PubKey: other},
		"another alias": {Alias: real.Alias + "x", PubKey: real.PubKey},
	} {
		forged := encodeEnvelope(manifest, []rawApproval{{signature: e.approvals[0].signature, member: m}})
		rep := VerifyBootProof(hostileBootProof(manifest, forged), Options{})
		c := rep.Check(CheckApprovals)
		if c.Status != Fail || !strings.Contains(c.Reason, "is not from a manifest-set member") {
			t.Errorf("%s: approvals %s %q", name, c.Status, c.Reason)
		}
		if ap := rep.Manifest.Approvals[0]; ap.Member || ap.Valid {
			t.Errorf("%s: approval recorded as %+v", name, ap)
		}
	}
}

// The costliest boot proof the limits let through: a manifest set of
// maxSetMembers members and as many approvals, each a member's, each a full
// P-256 verification that fails.
//
//	go test -run '^$' -bench BenchmarkVerifyHostileMaximalBootProof -benchmem ./proof/
func BenchmarkVerifyHostileMaximalBootProof(b *testing.B) {
	manifest, env := hostileQuorum(b, maxSetMembers, maxSetMembers)
	bp := hostileBootProof(manifest, env)
	for b.Loop() {
		if rep := VerifyBootProof(bp, Options{App: "signer"}); rep.Check(CheckApprovals).Status != Fail {
			b.Fatal("the hostile approvals passed")
		}
	}
}
