package proof

import (
	"fmt"
	"strings"
)

// NoPinsCaveat is the caveat of a report that did not fail with no pins set.
const NoPinsCaveat = "no pins set: any enclave under this root would pass (its PCRs and manifest hash were not compared with expected values)"

// PCRPinsOnlyCaveat is the caveat of a report whose pins are PCRs alone.
// Under QOS, PCR0–3 measure the QOS enclave image (and PCR3 its IAM role),
// not the app: the app binary (the pivot hash) and the operators who approve
// it (the manifest set) are in the manifest, whose approvals are checked
// against the manifest's own set. Whoever can boot that public image can
// write and approve a manifest of their own, so only a manifest pin (its
// hash, or its pivot and manifest set) ties the proof to your app and your
// operators.
const PCRPinsOnlyCaveat = "PCR pins only: they fix the enclave image, not the app binary (pivot hash) or the operators who approved the manifest (its own manifest set approved it); " + pinAdvice

// PartialPinsCaveat is the caveat of a report whose pins include some of
// the manifest's content (a pivot hash, a manifest set, a quorum key) but
// neither the manifest hash nor both the pivot hash and the manifest set: a
// pivot pin alone passes your binary under a manifest anyone approved, a set
// pin alone an older manifest your operators once approved.
const PartialPinsCaveat = "partial pins: the app binary (pivot hash) and the operators who approved the manifest (manifest set) are not both pinned; " + pinAdvice

// pinAdvice says which pins remove the caveat.
const pinAdvice = "pin the pivot hash and the manifest set (expected_pivot_hashes and expected_manifest_sets, --expect-pivot and --expect-manifest-set), or the manifest hash (allowed_manifest_hashes, --allow-manifest), to tie the proof to your app"

// PinCaveat says what the configured pins leave open, judged by the pins
// check alone (whatever other checks did): NoPinsCaveat when none is set,
// PCRPinsOnlyCaveat when the PCRs matched and nothing else is pinned,
// PartialPinsCaveat when the pins matched but pin neither the manifest hash
// nor both the pivot hash and the manifest set, "" when they do or the pins
// check failed.
func (r *Report) PinCaveat() string {
	c := r.Check(CheckPins)
	switch {
	case c == nil || c.Status == Fail:
		return ""
	case c.Status == NotApplicable:
		return NoPinsCaveat
	case r.contentPinned():
		return ""
	case r.pcrPinsOnly():
		return PCRPinsOnlyCaveat
	}
	return PartialPinsCaveat
}

// PartialReason says why a report is PARTIAL, naming the cause: the core
// checks that could not run, and the app proofs that name no activity, so
// nothing ties them to the one asked about. "" unless the verdict is PARTIAL.
func (r *Report) PartialReason() string {
	if r.Verdict != Partial {
		return ""
	}
	var core, unbound []string
	for _, id := range coreChecks {
		if c := r.Check(id); c == nil || c.Status != Pass {
			core = append(core, id)
		}
	}
	for _, c := range r.Checks {
		if strings.HasPrefix(c.ID, "app-proof[") && strings.HasSuffix(c.ID, "].activity") && c.Status == NotApplicable {
			unbound = append(unbound, strings.TrimSuffix(c.ID, ".activity"))
		}
	}
	var why []string
	if len(core) > 0 {
		why = append(why, fmt.Sprintf("core check(s) %s could not run: their input was not given", strings.Join(core, ", ")))
	}
	switch {
	case !r.unbound || len(unbound) == 0:
	case len(unbound) == 1:
		why = append(why, fmt.Sprintf("%s names no activity, so nothing ties it to the activity asked about (check %s.activity)", unbound[0], unbound[0]))
	default:
		why = append(why, fmt.Sprintf("%s name no activity, so nothing ties them to the activity asked about (their .activity checks)", strings.Join(unbound, ", ")))
	}
	if len(why) == 0 {
		return "a check could not run; see the report"
	}
	return strings.Join(why, "; ")
}
