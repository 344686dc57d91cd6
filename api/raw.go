package api

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"
)

// The raw calls below return the service's reply bytes undecoded and
// unsanitised, for callers that must pass records on exactly as the service
// sent them (vigil's --json output, `vigil request`). Whoever shows them on a
// terminal must escape them first.

// RawReply is a reply exactly as the service sent it.
type RawReply struct {
	Status int
	Body   []byte
	// Signature is the signature of the stamp sent (as NoteSignature has it).
	Signature string
}

// OperationPath checks that path names one operation, /public/v1/query/NAME or
// /public/v1/submit/NAME with NAME in lower case letters, digits and '_', and
// says which: a path that a server or proxy could read as another (dot
// segments, escapes, doubled slashes) must not pass a check of its prefix.
func OperationPath(path string) (submit bool, name string, err error) {
	rest, isQuery := strings.CutPrefix(path, QueryPrefix)
	if !isQuery {
		var isSubmit bool
		if rest, isSubmit = strings.CutPrefix(path, SubmitPrefix); !isSubmit {
			return false, "", fmt.Errorf("path %q must be %sNAME or %sNAME, e.g. %swhoami", SanitizeID(path), QueryPrefix, SubmitPrefix, QueryPrefix)
		}
		submit = true
	}
	if rest == "" {
		return false, "", fmt.Errorf("path %q names no operation, e.g. %swhoami", SanitizeID(path), QueryPrefix)
	}
	for _, r := range rest {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '_') {
			return false, "", fmt.Errorf("path %q: the operation name may hold only a-z, 0-9 and '_' (found %q), e.g. %swhoami", SanitizeID(path), r, QueryPrefix)
		}
	}
	return submit, rest, nil
}

// Send stamps body exactly as given and POSTs it to path, one operation's
// (OperationPath). A non-2xx reply is returned, not an error; only a request
// that could not be made or answered is an error. Queries are retried like
// typed queries (retryWait: the same statuses, backoff and Retry-After);
// submits never are. A submit whose body holds a private key in a name or
// notes (SecretInRequestBody) is not sent.
func (c *Client) Send(ctx context.Context, path string, body []byte) (*RawReply, error) {
	submit, name, err := OperationPath(path)
	if err != nil {
		return nil, fmt.Errorf("send: %w", err)
	}
	if err := c.canStamp("send " + path); err != nil {
		return nil, err
	}
	if submit {
		if err := SecretInRequestBody(body); err != nil {
			return nil, &notSentError{fmt.Errorf("send %s: %w", name, err)}
		}
	}
	if body == nil {
		body = []byte{}
	}
	var sig string
	cl := call{op: strings.TrimPrefix(path, "/public/v1/"), method: "POST", url: c.baseURL + path, body: body, stamp: true, stamper: c.stamper,
		retry: !submit, list: !submit && isUnpagedList(name), sentSig: &sig}
	for attempt := 0; ; attempt++ {
		if err := ctx.Err(); err != nil {
			// Nothing of this attempt left: not an unknown outcome, as in do.
			return nil, &notSentError{fmt.Errorf("%s: the request was not sent: %w", cl.op, err)}
		}
		r, err := c.roundTrip(ctx, cl)
		var wait time.Duration
		if err == nil {
			ok := r.status >= 200 && r.status < 300 && json.Valid(r.body)
			c.noteServiceDate(cl, r, ok || isServiceError(r.body))
			var again bool
			if wait, again = c.retryWait(ctx, cl, attempt, r); !again {
				return &RawReply{Status: r.status, Body: r.body, Signature: sig}, nil
			}
		} else {
			var le *localError
			var tooLarge *replyTooLargeError
			if cl.retry && (errors.As(err, &tooLarge) || wrongScheme(err) || proxyRefused(err)) {
				return nil, fmt.Errorf("%s: %w", cl.op, err) // the same question gets the same answer
			}
			wait = c.backoff(attempt)
			if errors.As(err, &le) || !cl.retry || attempt >= c.maxRetries || ctx.Err() != nil || outlasts(ctx, wait) {
				if le == nil && !cl.retry {
					if notSent(err) {
						// As in do: safe to run again, said so.
						return nil, &notSentError{fmt.Errorf("%s: the request was not sent: %w", cl.op, err)}
					}
					return nil, cl.outcomeUnknown(err)
				}
				return nil, fmt.Errorf("%s: %w", cl.op, err)
			}
		}
		if err := c.sleep(ctx, wait); err != nil {
			return nil, fmt.Errorf("%s: %w", cl.op, err)
		}
	}
}

// QueryRaw runs query/name with req as its body (stamped and retried as any
// query) and returns the 2xx reply undecoded. A non-2xx reply is an *Error.
func (c *Client) QueryRaw(ctx context.Context, name string, req any) (json.RawMessage, error) {
	var raw json.RawMessage
	if err := c.query(ctx, name, req, &raw); err != nil {
		return nil, err
	}
	return raw, nil
}

// ListActivitiesRaw is ListActivities returning the reply undecoded; like it,
// it asks for a shorter page when a reply would be larger than MaxReplyBytes.
func (c *Client) ListActivitiesRaw(ctx context.Context, opts ListActivitiesOptions) (json.RawMessage, error) {
	return c.listShrinking(ctx, opts)
}

// SubmitRaw submits the operation at path (e.g. "create_user_tag") with params,
// validated and sent as the typed methods send them. It returns the activity
// decoded and sanitised for display, and the reply undecoded. A reply whose
// JSON can be read two ways (CheckReplyJSON) is an *OutcomeUnknownError.
func (c *Client) SubmitRaw(ctx context.Context, path string, params Params, opts ...SubmitOption) (*Activity, json.RawMessage, error) {
	cl, err := c.submitCall(path, params, opts)
	if err != nil {
		return nil, nil, &notSentError{err}
	}
	var raw json.RawMessage
	if err := c.do(ctx, cl, &raw); err != nil {
		return nil, nil, err
	}
	// Accepted, so perhaps recorded: a reply that does not say which activity
	// is an unknown outcome, as for the typed methods (sendActivity), never a
	// failure a script would take as "nothing was recorded, run it again".
	var reply ActivityResponse
	if err := json.Unmarshal(raw, &reply); err != nil {
		return nil, nil, cl.outcomeUnknown(&unreadableReplyError{unexpectedJSON(cl.op, err)})
	}
	// The caller prints raw (--json) and decides on reply: both must be the
	// same activity, which a reply jq reads one way and encoding/json
	// another ({"activity":A,"ACTIVITY":B}) is not.
	if err := CheckReplyJSON(raw, &reply); err != nil {
		return nil, nil, cl.outcomeUnknown(&unreadableReplyError{fmt.Errorf("%s: the reply can be read two ways (%s), so it is neither decided on nor printed", cl.op, Sanitize(ClipBytes(err.Error(), 200)))})
	}
	if reply.Activity.ID == "" || reply.Activity.Status == "" {
		return nil, nil, cl.outcomeUnknown(&unreadableReplyError{fmt.Errorf("%s: the reply carries no activity id or status; the server may not be this service", cl.op)})
	}
	SanitizeValue(&reply)
	if err := cl.checkReply(&reply.Activity); err != nil {
		return nil, nil, err
	}
	return &reply.Activity, raw, nil
}
