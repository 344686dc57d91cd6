package profile

import (
	"encoding/hex"
	"fmt"
	"slices"
	"strings"
)

// qosKeyHexLen is a QOS public key in hex: 130 bytes, an uncompressed P-256
// encryption key then an uncompressed P-256 signing key.
const qosKeyHexLen = 260

// checkContentPins validates and lower-cases the pins of a manifest's
// content: expected_pivot_hashes, expected_manifest_sets and
// expected_quorum_keys, each per app.
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
			v := strings.ToLower(strings.TrimSpace(h))
			if b, err := hex.DecodeString(v); err != nil || len(b) != 32 {
				return bad(key, "entry %d must be 64 hex digits (the SHA-256 of the app binary, the manifest's pivot hash)", i+1)
			}
			list[i] = v
		}
	}
	for _, app := range sortedKeys(p.ExpectedQuorumKeys) {
		v := strings.ToLower(strings.TrimSpace(p.ExpectedQuorumKeys[app]))
		if b, err := hex.DecodeString(v); err != nil || len(b) != qosKeyHexLen/2 {
			return bad([]string{"expected_quorum_keys", app}, "must be %d hex digits (a QOS quorum public key, as the manifest's namespace names it)", qosKeyHexLen)
		}
		p.ExpectedQuorumKeys[app] = v
	}
	for _, app := range sortedKeys(p.ExpectedManifestSets) {
		set := p.ExpectedManifestSets[app]
		if len(set.Members) == 0 {
			return bad([]string{"expected_manifest_sets", app, "members"}, "is empty; list the public keys (%d hex digits each) of the operators who may approve the manifest", qosKeyHexLen)
		}
		for i, k := range set.Members {
			v := strings.ToLower(strings.TrimSpace(k))
			if b, err := hex.DecodeString(v); err != nil || len(v) != qosKeyHexLen || len(b) == 0 {
				return bad([]string{"expected_manifest_sets", app, "members"}, "entry %d must be %d hex digits (a manifest-set member's QOS public key)", i+1, qosKeyHexLen)
			}
			if first := slices.Index(set.Members[:i], v); first >= 0 {
				return bad([]string{"expected_manifest_sets", app, "members"}, "entries %d and %d are the same key; list each operator once", first+1, i+1)
			}
			set.Members[i] = v
		}
		if set.Threshold < 1 || set.Threshold > int64(len(set.Members)) {
			return bad([]string{"expected_manifest_sets", app, "threshold"}, "%d: give the fewest approvals the manifest set must require, from 1 to the %d members listed", set.Threshold, len(set.Members))
		}
	}
	return nil
}
