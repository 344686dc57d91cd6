package api

import (
	"encoding/json"
	"net/http"
)

// readErrorBody decodes body, a non-2xx reply, as the service's error JSON;
// ok is false when it is not in that shape. twoWays is set, and ok false,
// when body is JSON that readers could read two ways (CheckReplyJSON against
// ErrorBody: "details" and "DETAILS", a key twice, "ErrorCode" in a detail):
// encoding/json keeps one reading, jq or Python another, so whether it says
// BUSY (nothing recorded) or NOT_FOUND is no answer vigil may act on.
func readErrorBody(body []byte) (eb ErrorBody, ok bool, twoWays error) {
	if json.Valid(body) {
		if err := CheckReplyJSON(body, &eb); err != nil {
			return ErrorBody{}, false, err
		}
	}
	if json.Unmarshal(body, &eb) != nil || (eb.Message == "" && eb.Code == 0) {
		return ErrorBody{}, false, nil
	}
	return eb, true, nil
}

// twoWaysMessage is the message of an error whose body can be read two ways:
// the status text, and why nothing else of the body was believed. err may
// quote keys of the reply: escaped and cut short.
func twoWaysMessage(status int, err error) string {
	msg := http.StatusText(status)
	if msg == "" {
		msg = "unexpected reply"
	}
	return msg + ": the reply can be read two ways by JSON readers (" + Sanitize(ClipBytes(err.Error(), 200)) +
		"), so its code and details were not trusted"
}
