package proof

import (
	"bytes"
	"encoding/hex"
	"fmt"
	"slices"
	"strings"
)

// Pin names, as PinResult.Pin carries them (--json's pins[].pin). A PCR pin
// is "pcrN".
const (
	PinManifestHash = "manifest-hash"
	PinPivotHash    = "pivot-hash"
	PinManifestSet  = "manifest-set"
	PinQuorumKey    = "quorum-key"
)

// PinResult is one configured pin as the pins check compared it.
type PinResult struct {
	Pin    string `json:"pin"`
	Status Status `json:"status"` // pass or fail
	Reason string `json:"reason"`
}

// contentPinned reports whether the pins tie the proof to the app: the
// manifest hash matched, or both the pivot hash (the app binary) and the
// manifest set (who approved it) did. The set pin makes the approvals, which
// the approvals check counts against the manifest's own set, approvals by
// the pinned operators, so they approved everything else in the manifest
// (quorum key, args, env); the pivot pin also refuses an older manifest
// they once approved with another binary. Either alone leaves a gap: a pivot
// pin passes your binary under a manifest anyone approved.
func (r *Report) contentPinned() bool {
	passed := func(name string) bool {
		return slices.ContainsFunc(r.Pins, func(p PinResult) bool { return p.Pin == name && p.Status == Pass })
	}
	return passed(PinManifestHash) || (passed(PinPivotHash) && passed(PinManifestSet))
}

// pcrPinsOnly reports whether every pin checked is a PCR pin.
func (r *Report) pcrPinsOnly() bool {
	return !slices.ContainsFunc(r.Pins, func(p PinResult) bool { return !strings.HasPrefix(p.Pin, "pcr") })
}

// contentPinsSet reports whether a pin of the manifest's content is configured.
func (o Options) contentPinsSet() bool {
	return len(o.ExpectedPivotHashes) > 0 || o.ExpectedManifestSet != nil || len(o.ExpectedQuorumKey) > 0
}

// contentPins compares the manifest's pivot hash, manifest set and quorum
// key with the configured ones. m is the manifest shipped in the boot proof,
// which the user-data check binds to the attested hash; nil when there is
// none (a bare attestation document) or it did not decode, and then every
// content pin fails: a pin asked for and not checked must not pass.
func (v *verifier) contentPins(m *Manifest) []PinResult {
	o := v.opts
	var out []PinResult
	add := func(pin string, err error, ok string) {
		if err != nil {
			out = append(out, PinResult{Pin: pin, Status: Fail, Reason: err.Error()})
			return
		}
		out = append(out, PinResult{Pin: pin, Status: Pass, Reason: ok})
	}
	noManifest := fmt.Errorf("cannot check: no manifest (none was given, or it did not decode)")
	if len(o.ExpectedPivotHashes) > 0 {
		switch {
		case m == nil:
			add(PinPivotHash, fmt.Errorf("pivot hash %w", noManifest), "")
		case slices.ContainsFunc(o.ExpectedPivotHashes, func(h []byte) bool { return bytes.Equal(h, m.Pivot.Hash) }):
			add(PinPivotHash, nil, "pivot hash "+hex.EncodeToString(m.Pivot.Hash)+" is pinned")
		default:
			add(PinPivotHash, fmt.Errorf("pivot hash %s (the app binary) is not among the %d pinned (%s)", hexOrNone(m.Pivot.Hash), len(o.ExpectedPivotHashes), shortHexes(o.ExpectedPivotHashes)), "")
		}
	}
	if o.ExpectedManifestSet != nil {
		if m == nil {
			add(PinManifestSet, fmt.Errorf("manifest set %w", noManifest), "")
		} else {
			err := setWithin(m.ManifestSet, *o.ExpectedManifestSet)
			add(PinManifestSet, err, fmt.Sprintf("manifest set (%d of %d) holds only pinned members, threshold at least the pinned %d",
				m.ManifestSet.Threshold, len(m.ManifestSet.Members), o.ExpectedManifestSet.Threshold))
		}
	}
	if len(o.ExpectedQuorumKey) > 0 {
		switch {
		case m == nil:
			add(PinQuorumKey, fmt.Errorf("quorum key %w", noManifest), "")
		case bytes.Equal(m.Namespace.QuorumKey, o.ExpectedQuorumKey):
			add(PinQuorumKey, nil, "quorum key is the pinned one")
		default:
			add(PinQuorumKey, fmt.Errorf("quorum key is %s, pinned %s", shortHex(m.Namespace.QuorumKey), shortHex(o.ExpectedQuorumKey)), "")
		}
	}
	return out
}

// setWithin checks a manifest set against a pinned one: every member's key
// is a pinned member's key (aliases are labels and are not compared), and
// its threshold is at least the pinned threshold. Then the approvals that
// meet the manifest's threshold come from at least the pinned threshold of
// pinned operators, while a rotation that drops an operator still passes. A
// set of the manifest's own choosing (a self-approving one) fails.
func setWithin(got, pinned QuorumSet) error {
	var bad []string
	for _, m := range got.Members {
		if !slices.ContainsFunc(pinned.Members, func(p Member) bool { return bytes.Equal(p.PubKey, m.PubKey) }) {
			bad = append(bad, fmt.Sprintf("member %q (key %s) is not in the pinned set", clip(m.Alias), shortHex(m.PubKey)))
		}
	}
	if got.Threshold < pinned.Threshold {
		bad = append(bad, fmt.Sprintf("threshold is %d, below the pinned %d", got.Threshold, pinned.Threshold))
	}
	if len(bad) > 0 {
		return fmt.Errorf("manifest set (%d of %d) differs from the pinned set (%d of %d): %s",
			got.Threshold, len(got.Members), pinned.Threshold, len(pinned.Members), joinFirst(bad, maxProblemsListed))
	}
	return nil
}

// shortHex is a key's first and last 8 hex digits: enough to tell keys apart
// in a reason; --json's manifest has them whole.
func shortHex(b []byte) string {
	h := hexOrNone(b)
	if len(h) <= 24 {
		return h
	}
	return h[:8] + "…" + h[len(h)-8:]
}

func shortHexes(list [][]byte) string {
	s := make([]string, 0, len(list))
	for _, b := range list {
		s = append(s, shortHex(b))
	}
	return joinFirst(s, maxProblemsListed)
}
