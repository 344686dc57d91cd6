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

// readBorshVersions reads b as Borsh v1, then v0, as QOS does: QOS takes the
// v1 reading whenever the bytes are well-formed v1 and tries v0 only when they
// are not. So only a structural v1 error (bytes that are not v1 at all) leads
// to the v0 reading. Bytes read whole as v1 but over one of vigil's own bounds
// (read reports that only after reading to the end, see overLimit) are a
// manifest QOS runs as v1: reading them as v0 would show and check another
// one (bytes can be crafted valid both ways, with other quorum sets and
// PCRs), so that error is final. what names the thing read.
func readBorshVersions[T any](what string, b []byte, read func(b []byte, v1 bool) (T, error)) (T, error) {
	v, errV1 := read(b, true)
	if errV1 == nil {
		return v, nil
	}
	if isOverLimit(errV1) {
		return v, fmt.Errorf("%s (Borsh v1): %w", what, errV1)
	}
	v, errV0 := read(b, false)
	if errV0 == nil {
		return v, nil
	}
	if isOverLimit(errV0) {
		return v, fmt.Errorf("%s (Borsh v0): %w", what, errV0)
	}
	return v, fmt.Errorf("%s is neither Borsh v1 (%v) nor Borsh v0 (%v)", what, errV1, errV0)
}
