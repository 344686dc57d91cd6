package proof

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"testing"
	"time"
)

// fuzzDemoEnclave is a demo authority and an enclave it attested, whose boot
// proof seeds the fuzz targets beside the production one.
func fuzzDemoEnclave(f *testing.F) (*DemoAuthority, *DemoEnclave) {
	f.Helper()
	auth, err := NewDemoAuthority(time.Unix(1_700_000_000, 0))
	if err != nil {
		f.Fatal(err)
	}
	enc, err := NewDemoEnclave(auth, "fuzz", "o", "l", time.Unix(1_700_000_000, 0))
	if err != nil {
		f.Fatal(err)
	}
	return auth, enc
}

// FuzzParseAttestation feeds hostile COSE/CBOR to the document parser and the
// signature check: they must return errors, never panic or allocate unboundedly.
func FuzzParseAttestation(f *testing.F) {
	bp, _ := fixturePair(f)
	prod, _ := base64.StdEncoding.DecodeString(bp.AwsAttestationDocB64)
	blocky := readFixture(f, "nitro_attestation_blocky.cbor")
	auth, enc := fuzzDemoEnclave(f)
	demo, _ := base64.StdEncoding.DecodeString(enc.BootProof.AwsAttestationDocB64)
	for _, seed := range [][]byte{prod, blocky, demo, prod[:len(prod)/2], append([]byte{0xd2}, blocky...), {0x84}, {}} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		a, err := parseAttestation(data)
		if err != nil {
			return
		}
		_ = a.verifySignature()
		_ = VerifyAttestation(data, Options{Roots: []Root{auth.Root()}})
	})
}

// FuzzDecodeManifest feeds hostile bytes to the Borsh and JSON manifest and
// envelope decoders: no panic, and a Borsh v0 manifest round-trips.
func FuzzDecodeManifest(f *testing.F) {
	bp, _ := fixturePair(f)
	m, _ := base64.StdEncoding.DecodeString(bp.QosManifestB64)
	e, _ := base64.StdEncoding.DecodeString(bp.QosManifestEnvelopeB64)
	_, enc := fuzzDemoEnclave(f)
	demo, _ := base64.StdEncoding.DecodeString(enc.BootProof.QosManifestB64)
	for _, seed := range [][]byte{m, e, demo, m[:100], e[len(m):], []byte(`{"version":"v2"}`), []byte(`{"manifest":{}}`), {}} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, jsonV2 := range []bool{false, true} {
			man, err := decodeManifest(data, jsonV2)
			if err == nil && man == nil {
				t.Fatal("nil manifest without error")
			}
			// A Borsh v0 manifest is all it shows: written back from its
			// fields, it is the same bytes (so the same hash). The AWS root
			// is kept as a flag only, so only a manifest without one is
			// written back.
			if err == nil && man.Version == "v0" && manifestFormOf(data, jsonV2) == formBorsh && !man.Enclave.AWSRootCert {
				if back := encodeManifestV0(man); !bytes.Equal(back, data) {
					t.Fatalf("v0 manifest %x is written back as %x", data, back)
				}
				if sum := sha256.Sum256(data); !bytes.Equal(man.SHA256, sum[:]) {
					t.Fatalf("manifest hash %x, want %x", man.SHA256, sum)
				}
			}
			if env, err := decodeEnvelope(data, jsonV2); err == nil && (env == nil || env.manifest == nil) {
				t.Fatal("nil envelope without error")
			}
		}
	})
}
