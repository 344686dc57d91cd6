package api

import (
	"encoding/json"
	"fmt"
)

// errorInSuccess is the error of a 2xx reply to a read whose body is the
// service's error reply ({"code": 16, "message": …}) and nothing else: a
// proxy, or a gateway that rewrites statuses, answered 200 for a refusal.
// Decoded as the record asked for, it would be an empty one (a whoami of
// nobody, a root quorum of no one), shown as if the service said so.
// nil when body is anything else.
func errorInSuccess(cl call, status int, body []byte) error {
	var top map[string]json.RawMessage
	if json.Unmarshal(body, &top) != nil || top["code"] == nil {
		return nil
	}
	for k := range top {
		if k != "code" && k != "message" && k != "details" {
			return nil // a record that has a "code" of its own
		}
	}
	e := newError("", status, body)
	if !e.fromService || e.Code == CodeOK {
		return nil
	}
	setting := cl.setting
	if setting == "" {
		setting = "base_url"
	}
	return fmt.Errorf("%s: the reply says success (HTTP %d) but its body is an error, %s (%s), so it is not shown as the record asked for; a proxy in front of the service may have answered: check the profile's %s, and try again",
		cl.op, status, Quote(e.Message), CodeName(e.Code), setting)
}
