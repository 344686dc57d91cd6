package cli

import (
	"bytes"
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/vigil-console/vigil/proof"
)

// qosKeyLen is a QOS public key: an uncompressed P-256 encryption key then an
// uncompressed P-256 signing key.
const qosKeyLen = 130

// maxSetPinMembers bounds a pinned manifest set, as the verifier bounds a
// manifest's (real sets are a handful of operators).
const maxSetPinMembers = 64

func parseHexLen(s string, n int) ([]byte, bool) {
	b, err := hex.DecodeString(strings.TrimPrefix(strings.TrimSpace(s), "0x"))
	return b, err == nil && len(b) == n
}

// parsePivotPin reads a pinned pivot hash: the app binary's SHA-256.
func parsePivotPin(s string) ([]byte, error) {
	b, ok := parseHexLen(s, 32)
	if !ok {
		return nil, errors.New("must be 64 hex digits (the SHA-256 of the app binary, the manifest's pivot hash)")
	}
	return b, nil
}

// parseQuorumKeyPin reads a pinned quorum public key.
func parseQuorumKeyPin(s string) ([]byte, error) {
	b, ok := parseHexLen(s, qosKeyLen)
	if !ok {
		return nil, fmt.Errorf("must be %d hex digits (a QOS quorum public key, as the manifest's namespace names it)", 2*qosKeyLen)
	}
	return b, nil
}

// manifestSetPin makes a pinned manifest set: threshold from 1 to the number
// of members, each member a QOS key, none twice.
func manifestSetPin(threshold int64, members []string) (*proof.QuorumSet, error) {
	if len(members) == 0 {
		return nil, fmt.Errorf("no members: list the public keys (%d hex digits each) of the operators who may approve the manifest", 2*qosKeyLen)
	}
	if len(members) > maxSetPinMembers {
		return nil, fmt.Errorf("%d members, over the %d a manifest set may hold", len(members), maxSetPinMembers)
	}
	set := &proof.QuorumSet{}
	for i, m := range members {
		b, ok := parseHexLen(m, qosKeyLen)
		if !ok {
			return nil, fmt.Errorf("member %d must be %d hex digits (a manifest-set member's QOS public key)", i+1, 2*qosKeyLen)
		}
		for j, prev := range set.Members {
			if bytes.Equal(prev.PubKey, b) {
				return nil, fmt.Errorf("members %d and %d are the same key; list each operator once", j+1, i+1)
			}
		}
		set.Members = append(set.Members, proof.Member{PubKey: b})
	}
	if threshold < 1 || threshold > int64(len(members)) {
		return nil, fmt.Errorf("threshold %d: give the fewest approvals the manifest set must require, from 1 to the %d members listed", threshold, len(members))
	}
	set.Threshold = uint32(threshold)
	return set, nil
}

// inlineSetRE is --expect-manifest-set's inline form, THRESHOLD:KEY,KEY….
var inlineSetRE = regexp.MustCompile(`^([0-9]+):(.*)$`)

// parseManifestSetFlag reads --expect-manifest-set: THRESHOLD:KEY[,KEY…]
// inline, or else a FILE (- for standard input) holding the manifest set as
// --json prints it ({"threshold":2,"members":[{"alias":…,"pubKey":…}]}), so
// the set of a proof verified once can be pinned with jq .manifest.manifestSet.
func parseManifestSetFlag(ctx context.Context, c proc, v string) (*proof.QuorumSet, error) {
	if m := inlineSetRE.FindStringSubmatch(v); m != nil {
		t, err := strconv.ParseInt(m[1], 10, 64)
		if err != nil {
			return nil, fmt.Errorf("threshold %q is not a number", m[1])
		}
		return manifestSetPin(t, strings.Split(m[2], ","))
	}
	b, _, err := readInput(ctx, c, v, "the manifest set", 1<<20)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w (give THRESHOLD:KEY,KEY… or a file holding the manifest set as --json prints it)", v, err)
	}
	var set struct {
		Threshold *int64 `json:"threshold"`
		Members   []struct {
			PubKey string `json:"pubKey"`
		} `json:"members"`
	}
	if err := json.Unmarshal(b, &set); err != nil || set.Threshold == nil {
		return nil, fmt.Errorf("%s is not a manifest set as --json prints it ({\"threshold\":2,\"members\":[{\"pubKey\":\"04…\"}]})", v)
	}
	keys := make([]string, len(set.Members))
	for i, m := range set.Members {
		keys[i] = m.PubKey
	}
	s, err := manifestSetPin(*set.Threshold, keys)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", v, err)
	}
	return s, nil
}
