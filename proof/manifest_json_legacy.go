package proof

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/vigil-console/vigil/api"
)

// QOS stores v0 and v1 manifests and envelopes as serde JSON without a
// "version" key (tkhq/qos src/qos_core/src/protocol/services/boot/manifest.rs
// to_storage_vec, lines 279-289 and 500-509), while their hash stays SHA-256
// of their Borsh encoding (manifest_hash, manifest.rs:131: qos_hash of the
// decoded V1/V0). try_from_slice_compat (manifest.rs:259-271, 479-492) reads
// JSON with a top-level (or, in an envelope, manifest-level) "version" as v2,
// other JSON as v1 and then v0. vigil does the same: it decodes this "legacy
// JSON" form, writes the decoded manifest as Borsh and reads that back with
// the Borsh reader, so it is shown, bounded and hashed like a Borsh proof.

// manifestForm is how manifest or envelope bytes are read.
type manifestForm int

const (
	formBorsh      manifestForm = iota
	formJSONV2                  // JSON with a version: QOS ManifestV2, hashed as QOS canonical JSON
	formJSONLegacy              // JSON without one: QOS v1/v0, hashed as Borsh
)

// manifestFormOf picks the form of manifest bytes as try_from_slice_compat
// does (a top-level "version" key makes JSON v2). jsonV2 (the service's
// unattested qosManifestVersion) only makes vigil read the bytes as JSON.
func manifestFormOf(b []byte, jsonV2 bool) manifestForm {
	if !isJSON(b, jsonV2) {
		return formBorsh
	}
	if members, ok := jsonObject(b); ok && !hasMember(members, "version") {
		return formJSONLegacy
	}
	return formJSONV2
}

// envelopeFormOf is manifestFormOf for an envelope, whose manifest member
// carries the version (manifest.rs:63 enveloped_manifest_declares_a_version).
func envelopeFormOf(b []byte, jsonV2 bool) manifestForm {
	if !isJSON(b, jsonV2) {
		return formBorsh
	}
	if members, ok := jsonObject(b); ok {
		if inner, ok := jsonObject(memberValue(members, "manifest")); ok && !hasMember(inner, "version") {
			return formJSONLegacy
		}
	}
	return formJSONV2
}

// jsonObject lists the members of b when b is a valid JSON object.
func jsonObject(b []byte) ([]api.Member, bool) {
	if !json.Valid(b) {
		return nil, false
	}
	return api.ObjectMembers(b)
}

func hasMember(members []api.Member, key string) bool {
	return memberValue(members, key) != nil
}

func memberValue(members []api.Member, key string) []byte {
	for _, m := range members {
		if m.Key == key {
			return m.Value
		}
	}
	return nil
}

// requireMembers fails when raw lacks one of keys or holds null there: serde
// refuses a missing or null field the types have no default for, where
// encoding/json would leave a zero value that hashes as another manifest.
func requireMembers(raw []byte, path string, keys ...string) error {
	members, ok := jsonObject(raw)
	if !ok {
		return fmt.Errorf("%s is not a JSON object", path)
	}
	for _, k := range keys {
		v := memberValue(members, k)
		if v == nil || string(bytes.TrimSpace(v)) == "null" {
			return fmt.Errorf("%s has no %q (QOS's v0/v1 manifest JSON requires it)", path, k)
		}
	}
	return nil
}

type jsonU16 uint16

// UnmarshalJSON accepts a number or a decimal string (qos_json string_or_numeric).
func (u *jsonU16) UnmarshalJSON(b []byte) error {
	var v jsonU32
	if err := v.UnmarshalJSON(b); err != nil {
		return err
	}
	if v > 0xffff {
		return fmt.Errorf("%d is not a 16-bit port", v)
	}
	*u = jsonU16(v)
	return nil
}

// legacyManifest is QOS's serde shape of Manifest (v1) and ManifestV0
// (tkhq/qos src/qos_core/src/protocol/services/boot.rs:479-521): camelCase,
// qos_hex byte strings, numbers as numbers or decimal strings. A v0 pivot has
// no bridgeConfig or debugMode.
type legacyManifest struct {
	Namespace struct {
		Name      string   `json:"name"`
		Nonce     jsonU32  `json:"nonce"`
		QuorumKey HexBytes `json:"quorumKey"`
	} `json:"namespace"`
	Pivot struct {
		Hash         HexBytes       `json:"hash"`
		Restart      string         `json:"restart"`
		BridgeConfig []legacyBridge `json:"bridgeConfig"`
		DebugMode    bool           `json:"debugMode"`
		Args         []string       `json:"args"`
	} `json:"pivot"`
	ManifestSet jsonSet         `json:"manifestSet"`
	ShareSet    jsonSet         `json:"shareSet"`
	Enclave     jsonNitroConfig `json:"enclave"`
	PatchSet    struct {
		Threshold jsonU32 `json:"threshold"`
		Members   []struct {
			PubKey HexBytes `json:"pubKey"`
		} `json:"members"`
	} `json:"patchSet"`
}

// legacyBridge is QOS's BridgeConfig: internally tagged by "type" (boot.rs:146).
type legacyBridge struct {
	Type string  `json:"type"`
	Port jsonU16 `json:"port"`
	Host *string `json:"host"`
}

// decodeManifestLegacyJSON decodes QOS's JSON form of a v1 manifest (its
// pivot has bridgeConfig and debugMode) or else a v0 one, and returns it as
// read back from its Borsh encoding, the bytes QOS hashes.
func decodeManifestLegacyJSON(b []byte) (*Manifest, []byte, error) {
	pivot, _ := jsonObject(memberOf(b, "pivot"))
	return decodeLegacyManifest(b, hasMember(pivot, "bridgeConfig") || hasMember(pivot, "debugMode"))
}

func memberOf(b []byte, key string) []byte {
	members, _ := jsonObject(b)
	return memberValue(members, key)
}

func decodeLegacyManifest(b []byte, v1 bool) (*Manifest, []byte, error) {
	what := "manifest JSON v0 (QOS's storage form, without a version)"
	pivotKeys := []string{"hash", "restart", "args"}
	if v1 {
		what = "manifest JSON v1 (QOS's storage form, without a version)"
		pivotKeys = append(pivotKeys, "bridgeConfig", "debugMode")
	}
	if err := requireLegacyMembers(b, pivotKeys); err != nil {
		return nil, nil, fmt.Errorf("%s: %w", what, err)
	}
	if pivot, _ := jsonObject(memberOf(b, "pivot")); !v1 && (hasMember(pivot, "bridgeConfig") || hasMember(pivot, "debugMode")) {
		return nil, nil, fmt.Errorf("%s: pivot has bridgeConfig or debugMode, which a v0 manifest has not", what)
	}
	var j legacyManifest
	if err := strictJSON(b, &j); err != nil {
		return nil, nil, fmt.Errorf("%s: %w", what, err)
	}
	borsh, err := j.borsh(v1)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", what, err)
	}
	m, err := decodeManifestBorsh(borsh, v1)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", what, err)
	}
	// The hash covers the Borsh bytes, not the JSON: when they also read
	// whole as the other version, one hash names two manifests, as with
	// Borsh bytes that readBorshVersions refuses, and nothing attested says
	// which of them the enclave booted.
	if _, otherErr := decodeManifestBorsh(borsh, !v1); otherErr == nil || isOverLimit(otherErr) {
		return nil, nil, fmt.Errorf("%s: ambiguous Borsh encoding: its Borsh encoding, the bytes the manifest hash covers, reads whole both as a v1 and as a v0 manifest, which can differ in quorum sets and PCRs under one hash, so neither the attestation nor the approvals say which the enclave booted: do not trust this proof", what)
	}
	return m, borsh, nil
}

// requireLegacyMembers checks that every field of QOS's v0/v1 manifest is there.
func requireLegacyMembers(b []byte, pivotKeys []string) error {
	if err := requireMembers(b, "the manifest", "namespace", "pivot", "manifestSet", "shareSet", "enclave", "patchSet"); err != nil {
		return err
	}
	checks := []struct {
		key  string
		keys []string
	}{
		{"namespace", []string{"name", "nonce", "quorumKey"}},
		{"pivot", pivotKeys},
		{"manifestSet", []string{"threshold", "members"}},
		{"shareSet", []string{"threshold", "members"}},
		{"enclave", []string{"pcr0", "pcr1", "pcr2", "pcr3", "awsRootCertificate", "qosCommit"}},
		{"patchSet", []string{"threshold", "members"}},
	}
	for _, c := range checks {
		if err := requireMembers(memberOf(b, c.key), c.key, c.keys...); err != nil {
			return err
		}
	}
	return nil
}

// borsh writes the manifest in QOS's Borsh layout (v1, or v0 without the
// pivot's bridges and debug mode), the layout readManifest reads.
func (j *legacyManifest) borsh(v1 bool) ([]byte, error) {
	w := &borshWriter{}
	w.str(j.Namespace.Name)
	w.u32(uint32(j.Namespace.Nonce))
	w.bytes(j.Namespace.QuorumKey)
	if len(j.Pivot.Hash) != 32 {
		return nil, fmt.Errorf("pivot.hash is %d bytes, want 32", len(j.Pivot.Hash))
	}
	w.raw(j.Pivot.Hash)
	switch j.Pivot.Restart {
	case "Never":
		w.u8(0)
	case "Always":
		w.u8(1)
	default:
		return nil, fmt.Errorf("pivot.restart is %s, want \"Never\" or \"Always\"", strconv.Quote(clip(j.Pivot.Restart)))
	}
	if v1 {
		w.u32(uint32(len(j.Pivot.BridgeConfig)))
		for i, bc := range j.Pivot.BridgeConfig {
			switch bc.Type {
			case "server":
				if bc.Host == nil {
					return nil, fmt.Errorf("pivot.bridgeConfig[%d]: a server bridge needs a host", i)
				}
				w.u8(0)
				w.u16(uint16(bc.Port))
				w.str(*bc.Host)
			case "client":
				w.u8(1)
				w.u16(uint16(bc.Port))
				if bc.Host == nil {
					w.u8(0)
				} else {
					w.u8(1)
					w.str(*bc.Host)
				}
			default:
				return nil, fmt.Errorf("pivot.bridgeConfig[%d]: type is %s, want \"server\" or \"client\"", i, strconv.Quote(clip(bc.Type)))
			}
		}
		if j.Pivot.DebugMode {
			w.u8(1)
		} else {
			w.u8(0)
		}
	}
	w.strings(j.Pivot.Args)
	for _, s := range []jsonSet{j.ManifestSet, j.ShareSet} {
		w.u32(uint32(s.Threshold))
		w.u32(uint32(len(s.Members)))
		for _, mem := range s.Members {
			w.str(mem.Alias)
			w.bytes(mem.PubKey)
		}
	}
	for _, p := range []HexBytes{j.Enclave.PCR0, j.Enclave.PCR1, j.Enclave.PCR2, j.Enclave.PCR3, j.Enclave.AWSRootCertificate} {
		w.bytes(p)
	}
	w.str(j.Enclave.QOSCommit)
	w.u32(uint32(j.PatchSet.Threshold))
	w.u32(uint32(len(j.PatchSet.Members)))
	for _, mem := range j.PatchSet.Members {
		w.bytes(mem.PubKey)
	}
	return w.b, nil
}

// decodeEnvelopeLegacyJSON decodes QOS's JSON form of a v1 envelope
// (camelCase: manifestSetApprovals) or a v0 one (ManifestEnvelopeV0 has no
// rename, boot.rs:641: manifest_set_approvals), its manifest as
// decodeManifestLegacyJSON does.
func decodeEnvelopeLegacyJSON(b []byte) (*envelope, error) {
	members, _ := jsonObject(b)
	v1 := hasMember(members, "manifestSetApprovals")
	what := "manifest envelope JSON v0 (QOS's storage form, without a version)"
	approvalsKey, shareKey := "manifest_set_approvals", "share_set_approvals"
	if v1 {
		what = "manifest envelope JSON v1 (QOS's storage form, without a version)"
		approvalsKey, shareKey = "manifestSetApprovals", "shareSetApprovals"
	}
	if err := requireMembers(b, "the envelope", "manifest", approvalsKey, shareKey); err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	var j struct {
		Manifest             json.RawMessage `json:"manifest"`
		ManifestSetApprovals []jsonApproval  `json:"manifestSetApprovals"`
		ShareSetApprovals    []*jsonApproval `json:"shareSetApprovals"`
	}
	var err error
	if v1 {
		err = strictJSON(b, &j)
	} else {
		var j0 struct {
			Manifest             json.RawMessage `json:"manifest"`
			ManifestSetApprovals []jsonApproval  `json:"manifest_set_approvals"`
			ShareSetApprovals    []*jsonApproval `json:"share_set_approvals"`
		}
		err = strictJSON(b, &j0)
		j.Manifest, j.ManifestSetApprovals, j.ShareSetApprovals = j0.Manifest, j0.ManifestSetApprovals, j0.ShareSetApprovals
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	if n := len(j.ManifestSetApprovals); n > maxSetMembers {
		return nil, fmt.Errorf("%s: %s: %w", what, approvalsKey, tooMany(n, "approvals"))
	}
	if n := len(j.ShareSetApprovals); n > maxSetMembers {
		return nil, fmt.Errorf("%s: %s: %w", what, shareKey, tooMany(n, "approvals"))
	}
	for i, a := range j.ShareSetApprovals {
		if a == nil {
			return nil, fmt.Errorf("%s: %s[%d] is null, want {\"signature\", \"member\"}", what, shareKey, i)
		}
	}
	m, borsh, err := decodeLegacyManifest(j.Manifest, v1)
	if err != nil {
		return nil, fmt.Errorf("manifest envelope: %w", err)
	}
	e := &envelope{manifest: m, manifestBytes: borsh, shareApprovals: len(j.ShareSetApprovals)}
	for _, a := range j.ManifestSetApprovals {
		e.approvals = append(e.approvals, rawApproval{signature: a.Signature, member: Member{Alias: a.Member.Alias, PubKey: a.Member.PubKey}})
	}
	return e, nil
}
