package api

import (
	"context"
	"encoding/json"
	"fmt"
	"time"
)

// WaitForActivityRaw is WaitForActivity that also returns the reply of the
// poll that saw the end, undecoded (at most MaxReplyBytes, as every reply):
// a caller that prints that copy when it cannot read the activity again
// prints what the service sent, fields vigil does not model included, not
// the decoded record encoded again. The reply is nil when ctx ended first.
// A reply whose JSON can be read two ways (CheckReplyJSON) is an error.
func (c *Client) WaitForActivityRaw(ctx context.Context, activityID string, until func(*Activity) bool) (*Activity, json.RawMessage, error) {
	return c.waitFor(ctx, activityID, until, func(ctx context.Context) (*Activity, json.RawMessage, error) {
		if err := requireArg(QueryGetActivity, "activityId", activityID); err != nil {
			return nil, nil, err
		}
		raw, err := c.QueryRaw(ctx, QueryGetActivity, GetActivityRequest{OrganizationID: c.org, ActivityID: activityID})
		if err != nil {
			return nil, nil, err
		}
		var r ActivityResponse
		if err := c.decode("query/"+QueryGetActivity, raw, &r); err != nil {
			return nil, nil, err
		}
		// The caller decides on r (the end, the exit status) and may print
		// raw: both must be the same activity, which a reply jq reads one
		// way and encoding/json another ({"activity":A,"ACTIVITY":B}) is not.
		if err := CheckReplyJSON(raw, &r); err != nil {
			return nil, nil, fmt.Errorf("query/%s: the reply can be read two ways (%s), so it is neither decided on nor printed", QueryGetActivity, Sanitize(ClipBytes(err.Error(), 200)))
		}
		if why := ActivityReplyMismatch(c.org, activityID, &r.Activity); why != "" {
			return nil, nil, fmt.Errorf("query/%s: %s", QueryGetActivity, why)
		}
		return &r.Activity, raw, nil
	})
}

// waitFor is WaitForActivity's loop, each poll made by get.
func (c *Client) waitFor(ctx context.Context, activityID string, until func(*Activity) bool,
	get func(context.Context) (*Activity, json.RawMessage, error)) (*Activity, json.RawMessage, error) {
	if until == nil {
		until = func(a *Activity) bool { return IsTerminal(a.Status) }
	}
	var last *Activity
	for attempt := 0; ; attempt++ {
		a, raw, err := get(ctx)
		if err != nil {
			if ctx.Err() != nil {
				return last, nil, fmt.Errorf("wait for activity %s: %w", SanitizeID(activityID), ctx.Err())
			}
			return last, nil, fmt.Errorf("wait for activity %s: %w", SanitizeID(activityID), err)
		}
		last = a
		if until(a) {
			return a, raw, nil
		}
		wait := c.backoff(attempt)
		if wait <= 0 {
			wait = 10 * time.Millisecond // never spin on a zero policy
		}
		if err := c.sleep(ctx, wait); err != nil {
			return last, nil, fmt.Errorf("wait for activity %s: %w", SanitizeID(activityID), err)
		}
	}
}
