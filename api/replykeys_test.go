package api

import (
	"errors"
	"strings"
	"testing"
)

// A reply is refused only where readers differ: a key twice, or a key that
// names a field only in another case (encoding/json fills the field from
// it); keys naming no field pass, at any depth.
func TestCheckReplyJSON(t *testing.T) {
	for _, c := range []struct {
		reply, kind string
	}{
		{`{"activity":{"id":"a","zNew":{"Id":1}},"extra":[1]}`, ""},
		{`{"activity":{"id":"a"},"ACTIVITY":{"id":"b"}}`, JSONKeyCase},
		{`{"activity":{"status":"FAILED","Status":"COMPLETED"}}`, JSONKeyCase},
		{`{"activity":{"votes":[{"SELECTION":"x"}]}}`, JSONKeyCase},
		{`{"activity":{"id":"a","id":"b"}}`, JSONDuplicateKey},
		{`{"activity":{"intent":{"unknownOp":` + strings.Repeat("[", 100) + strings.Repeat("]", 100) + `}}}`, ""},
	} {
		err := CheckReplyJSON([]byte(c.reply), &ActivityResponse{})
		var se *StrictJSONError
		if c.kind == "" && err != nil || c.kind != "" && (!errors.As(err, &se) || se.Kind != c.kind) {
			t.Errorf("%s: got %v, want kind %q", c.reply, err, c.kind)
		}
	}
}
