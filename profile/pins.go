package profile

import (
	"bytes"
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Sizes of the pins of a manifest's content.
const (
	pivotHashLen    = 32 // the app binary's SHA-256
	manifestHashLen = 32 // a QOS manifest's SHA-256
	// pcrLen is a Nitro PCR: a SHA-384, the only digest the verifier takes.
	pcrLen = 48
	// MaxPCRIndex is the highest PCR an attestation document may hold.
	MaxPCRIndex = 31
	// qosKeyLen is a QOS public key: an uncompressed P-256 encryption key
	// then an uncompressed P-256 signing key.
	qosKeyLen = 130
	// MaxManifestSetMembers bounds a pinned manifest set as the verifier
	// bounds a manifest's (proof.MaxSetMembers): a manifest with more
	// members fails to decode, so a bigger pin could only be a mistake.
	MaxManifestSetMembers = 64
)

// The parsers below are the one reading of the pins, for the profile (check,
// checkContentPins) and for the flags (--expect-pcr, --allow-manifest,
// --expect-pivot, --expect-quorum-key, --expect-manifest-set), so a value is
// read the same way in both. Their
// errors never quote the value: the caller names the flag or the config key
// and line.

// parseHex reads n bytes of hex, either case, with or without 0x, as
// 'proof verify --json' and block explorers print them.
func parseHex(s string, n int) ([]byte, bool) {
	s = strings.TrimPrefix(strings.ToLower(strings.TrimSpace(s)), "0x")
	if len(s) != 2*n {
		return nil, false
	}
	b, err := hex.DecodeString(s)
	return b, err == nil
}

// ParsePCR reads a pinned PCR: its index, a plain decimal number from 0 to
// MaxPCRIndex (so "3" and "03" cannot pin one PCR twice), and its value.
func ParsePCR(index, value string) (int, []byte, error) {
	n, err := strconv.Atoi(index)
	if err != nil || n < 0 || n > MaxPCRIndex || strconv.Itoa(n) != index {
		return 0, nil, fmt.Errorf("PCR index must be a number from 0 to %d, written plainly (3, not 03 or +3)", MaxPCRIndex)
	}
	b, ok := parseHex(value, pcrLen)
	if !ok {
		return 0, nil, fmt.Errorf("PCR value must be %d hex digits (a Nitro PCR is a %d-byte SHA-384 value)", 2*pcrLen, pcrLen)
	}
	return n, b, nil
}

// ParseManifestHash reads an allowed manifest hash: a QOS manifest's SHA-256.
func ParseManifestHash(s string) ([]byte, error) {
	b, ok := parseHex(s, manifestHashLen)
	if !ok {
		return nil, fmt.Errorf("must be %d hex digits (the SHA-256 of a QOS manifest)", 2*manifestHashLen)
	}
	return b, nil
}

// ParsePivotHash reads a pinned pivot hash: the app binary's SHA-256.
func ParsePivotHash(s string) ([]byte, error) {
	b, ok := parseHex(s, pivotHashLen)
	if !ok {
		return nil, fmt.Errorf("must be %d hex digits (the SHA-256 of the app binary, the manifest's pivot hash)", 2*pivotHashLen)
	}
	return b, nil
}

// ParseQuorumKey reads a pinned quorum public key.
func ParseQuorumKey(s string) ([]byte, error) {
	b, ok := parseHex(s, qosKeyLen)
	if !ok {
		return nil, fmt.Errorf("must be %d hex digits (a QOS quorum public key, as the manifest's namespace names it)", 2*qosKeyLen)
	}
	return b, nil
}

// SetPinError is a pinned manifest set's problem. Field is the part at
// fault, "threshold" or "members": a config error points at its line.
type SetPinError struct {
	Field string
	Msg   string
}

func (e *SetPinError) Error() string { return e.Field + ": " + e.Msg }

// ParseManifestSet reads a pinned manifest set: at most
// MaxManifestSetMembers members, each a QOS public key, none twice, and a
// threshold from 1 to the number of members. Its errors are *SetPinError.
func ParseManifestSet(threshold int64, members []string) (uint32, [][]byte, error) {
	bad := func(field, format string, args ...any) (uint32, [][]byte, error) {
		return 0, nil, &SetPinError{Field: field, Msg: fmt.Sprintf(format, args...)}
	}
	if len(members) == 0 {
		return bad("members", "is empty; list the public keys (%d hex digits each) of the operators who may approve the manifest", 2*qosKeyLen)
	}
	if len(members) > MaxManifestSetMembers {
		return bad("members", "lists %d keys, over the %d a manifest set may hold (the verifier refuses a larger set); list only the operators who may approve the manifest", len(members), MaxManifestSetMembers)
	}
	keys := make([][]byte, 0, len(members))
	for i, m := range members {
		b, ok := parseHex(m, qosKeyLen)
		if !ok {
			return bad("members", "entry %d must be %d hex digits (a manifest-set member's QOS public key)", i+1, 2*qosKeyLen)
		}
		for j, prev := range keys {
			if bytes.Equal(prev, b) {
				return bad("members", "entries %d and %d are the same key; list each operator once", j+1, i+1)
			}
		}
		keys = append(keys, b)
	}
	if threshold < 1 || threshold > int64(len(keys)) {
		return bad("threshold", "is %d; give the fewest approvals the manifest set must require, from 1 to the %d members listed", threshold, len(keys))
	}
	return uint32(threshold), keys, nil
}

// checkContentPins validates the pins of a manifest's content
// (expected_pivot_hashes, expected_manifest_sets and expected_quorum_keys,
// each per app) and rewrites them as plain lower-case hex.
func checkContentPins(p *Profile) *configError {
	bad := func(key []string, format string, args ...any) *configError {
		return &configError{keyPath: key, msg: fmt.Sprintf(format, args...)}
	}
	for _, app := range sortedKeys(p.ExpectedPivotHashes) {
		key := []string{"expected_pivot_hashes", app}
		list := p.ExpectedPivotHashes[app]
		if len(list) == 0 {
			return bad(key, "is empty; give the SHA-256 of the app binary (64 hex digits) the manifest may name, or remove the line")
		}
		for i, h := range list {
			b, err := ParsePivotHash(h)
			if err != nil {
				return bad(key, "entry %d %v", i+1, err)
			}
			list[i] = hex.EncodeToString(b)
		}
	}
	for _, app := range sortedKeys(p.ExpectedQuorumKeys) {
		b, err := ParseQuorumKey(p.ExpectedQuorumKeys[app])
		if err != nil {
			return bad([]string{"expected_quorum_keys", app}, "%v", err)
		}
		p.ExpectedQuorumKeys[app] = hex.EncodeToString(b)
	}
	for _, app := range sortedKeys(p.ExpectedManifestSets) {
		set := p.ExpectedManifestSets[app]
		_, keys, err := ParseManifestSet(set.Threshold, set.Members)
		if err != nil {
			key := []string{"expected_manifest_sets", app}
			if se := (*SetPinError)(nil); errors.As(err, &se) {
				return bad(append(key, se.Field), "%s", se.Msg)
			}
			return bad(key, "%v", err)
		}
		for i, k := range keys {
			set.Members[i] = hex.EncodeToString(k)
		}
	}
	return nil
}
