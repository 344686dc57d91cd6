package proof

import (
	"errors"
	"fmt"
)

// limitError is a count over one of vigil's own bounds (set members,
// approvals, bridges, args). QOS has no such bound.
type limitError struct{ msg string }

func (e *limitError) Error() string { return e.msg }

func isOverLimit(err error) bool {
	var l *limitError
	return errors.As(err, &l)
}

// readBorshVersions reads b as Borsh v1 and as Borsh v0, as QOS does
// (qos_core boot.rs decode_borsh, used by try_from_slice_compat for the
// manifest and the envelope): bytes that are one version only are read as
// that version, and bytes that are both are refused as ambiguous. Both
// readings have the same hash, so approvals cannot tell them apart, and they
// can show other quorum sets and PCRs. Bytes read whole but over one of
// vigil's own bounds (read reports that only after reading to the end, see
// overLimit) are well-formed in QOS's eyes, so they count as read: they make
// the bytes ambiguous when the other version reads too, and otherwise fail
// with the bound. what names the thing read.
func readBorshVersions[T any](what string, b []byte, read func(b []byte, v1 bool) (T, error)) (T, error) {
	var none T
	v1, errV1 := read(b, true)
	v0, errV0 := read(b, false)
	isV1 := errV1 == nil || isOverLimit(errV1)
	isV0 := errV0 == nil || isOverLimit(errV0)
	switch {
	case isV1 && isV0:
		return none, fmt.Errorf("%s: ambiguous Borsh encoding: the bytes read whole both as a v1 and as a v0 %s, which can differ in quorum sets and PCRs under one hash; QOS refuses such bytes (\"ambiguous borsh encoding\"), so no QOS enclave booted them: do not trust this proof", what, what)
	case isV1 && errV1 != nil:
		return none, fmt.Errorf("%s (Borsh v1): %w", what, errV1)
	case isV1:
		return v1, nil
	case isV0 && errV0 != nil:
		return none, fmt.Errorf("%s (Borsh v0): %w", what, errV0)
	case isV0:
		return v0, nil
	}
	return none, fmt.Errorf("%s is neither Borsh v1 (%v) nor Borsh v0 (%v)", what, errV1, errV0)
}
