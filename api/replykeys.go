package api

import (
	"fmt"
	"reflect"
)

// decodeOneReading decodes raw, the 2xx reply of op, into out as do does,
// and refuses a reply JSON readers could read two ways (CheckReplyJSON):
// what vigil checks in out (a record's id, a login kit's organization) must
// be what a script or browser reads from the same bytes.
func (c *Client) decodeOneReading(op string, raw []byte, out any) error {
	if err := c.decode(op, raw, out); err != nil {
		return err
	}
	if err := CheckReplyJSON(raw, out); err != nil {
		return fmt.Errorf("%s: the reply can be read two ways (%s), so it is neither shown nor printed; the server may not be this service", op, Sanitize(ClipBytes(err.Error(), 200)))
	}
	return nil
}

// maxReplyDepth is encoding/json's own nesting limit.
const maxReplyDepth = 10000

// CheckReplyJSON reports the first thing in reply, a service's JSON reply
// that decodes into the type v points to, that two JSON readers could read
// differently: what CheckStrictJSON refuses (a key twice at any depth, text
// that is not UTF-8, a lone surrogate), and a key naming a field only
// case-insensitively ("ACTIVITY" for "activity"). encoding/json fills the
// field from such a key, the last one winning, where jq, Python or
// JavaScript keep the keys apart: what a caller checks would not be what a
// script reads from the same bytes. Keys naming no field are left alone:
// every reader keeps them apart, and a newer service may add some.
func CheckReplyJSON(reply []byte, v any) error {
	// Nesting is no ambiguity: as deep as encoding/json reads (an intent of
	// an operation vigil does not know may be deeper than a request may be).
	if err := checkStrictJSON(reply, maxReplyDepth); err != nil {
		return err
	}
	t := reflect.TypeOf(v)
	if t == nil {
		return nil
	}
	return checkExactKeys("", reply, t, true)
}
