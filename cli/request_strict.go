package cli

import (
	"encoding/json"
	"fmt"
	"net/http"

	"github.com/vigil-console/vigil/api"
)

// 'vigil request' prints a submit's reply as the service sent it, but
// decides (which activity, the vote, FAILED) on what encoding/json decoded
// from it, which takes "ACTIVITY" for "activity" and keeps the last of two
// keys. A script reading the same bytes with jq or Python may see another
// activity. So a reply those readers could read differently is decided on
// by no one: it is not printed, and its outcome is unknown.

// ambiguousSubmitReply is the error (exit 4) of a submit's reply whose JSON
// can be read two ways (api.CheckReplyJSON against what vigil decodes it
// as: the activity of a 2xx, the error of another status), or nil. A body
// that is not JSON is left to the other checks. check says where to look.
func ambiguousSubmitReply(status int, body []byte, check string) error {
	if !json.Valid(body) {
		return nil
	}
	var as any = &api.ActivityResponse{}
	if status < 200 || status > 299 {
		as = &api.ErrorBody{}
	}
	err := api.CheckReplyJSON(body, as)
	if err == nil {
		return nil
	}
	return &exitStatus{exitOutcomeUnknown, fmt.Sprintf("request: the service answered %d %s with a reply that JSON readers can read two ways (%s), so vigil neither decides on it nor prints it: outcome unknown, the submit may have been recorded; %s",
		status, http.StatusText(status), ambiguityText(err), check)}
}

// ambiguousReread is the error of an activity read again after a vote
// whose reply can be read two ways: the read says nothing of the vote.
func ambiguousReread(raw []byte) error {
	if err := api.CheckReplyJSON(raw, &api.ActivityResponse{}); err != nil {
		return fmt.Errorf("query/%s: the reply can be read two ways (%s)", api.QueryGetActivity, ambiguityText(err))
	}
	return nil
}

// ambiguityText is err, which may quote keys from the reply, escaped and cut short.
func ambiguityText(err error) string {
	return api.Sanitize(api.ClipBytes(err.Error(), 200))
}

// lookAdvice is where to look for the outcome of a request sent with body v
// (nil for a body that is no vote).
func (v *requestVote) lookAdvice() string {
	if v == nil || v.before.Activity == nil {
		return "look with 'vigil activity list --limit 10' before sending it again"
	}
	return fmt.Sprintf("check with 'vigil activity get %s' before voting again", api.SanitizeID(v.before.exact.ID))
}
