package api

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// The bounds of what FailureDetailLines shows: a failure's details are the
// service's free-form JSON, as many and as long as a reply may hold. The
// rest is in the activity's JSON.
const (
	maxShownFailureDetails = 10
	maxFailureDetailBytes  = 1 << 10
)

// UnmarshalJSON decodes a failure as encoding/json does, keeping the numbers
// in its details as sent (json.Number) rather than as float64, which would
// change a large one.
func (f *Failure) UnmarshalJSON(data []byte) error {
	type fields Failure // the same fields, without this method
	var v fields
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		return err
	}
	*f = Failure(v)
	return nil
}

// FailureDetailLines are the failure's details for people, one line each:
// its JSON on one line, every character Sanitize would escape written as a
// \u escape (EncodeJSON), cut at maxFailureDetailBytes; at most
// maxShownFailureDetails of them, notShown counting the others (say so with
// FailureDetailsNotShown). Every line is safe to print on a terminal.
func FailureDetailLines(f *Failure) (lines []string, notShown int) {
	if f == nil {
		return nil, 0
	}
	for i, d := range f.Details {
		if i == maxShownFailureDetails {
			return lines, len(f.Details) - i
		}
		lines = append(lines, failureDetailText(d))
	}
	return lines, 0
}

// FailureDetailsNotShown is the line that follows FailureDetailLines when
// notShown of the details were left out.
func FailureDetailsNotShown(notShown int) string {
	return fmt.Sprintf("(and %d more details not shown: see the activity's JSON)", notShown)
}

// failureDetailText is one detail as compact JSON, escaped and cut short.
func failureDetailText(d any) string {
	var indented, compact bytes.Buffer
	if EncodeJSON(&indented, d) != nil || json.Compact(&compact, indented.Bytes()) != nil {
		return "(cannot be shown: see the activity's JSON)"
	}
	return ClipBytes(compact.String(), maxFailureDetailBytes)
}
