package api

import (
	"context"
	"encoding/json"
	"fmt"
)

// A reply to a query for one record (get_activity, get_api_key, get_policy,
// get_user, get_mfa_policy; get_policy_evaluations, the records of one
// activity) is taken as that record only if it carries the id asked
// for: a cached, misrouted or stale 2xx about another record would be shown
// under the id the member typed, as get_activity's is (ActivityReplyMismatch).

// RecordReplyMismatch says how a reply whose record (what: "API key") has
// id got is not the record asked for, or "" when it is.
func RecordReplyMismatch(what, asked, got string) string {
	if sameID(got, asked) {
		return ""
	}
	return fmt.Sprintf("the reply is about another %s than %s: its id is %s; the server may not be this service", what, shown(asked), shown(got))
}

// recordQueryMismatch says how reply, the decoded reply to the one-record
// query req, is not about the record req asks for, or "" when it is.
func recordQueryMismatch(req, reply any) string {
	switch q := req.(type) {
	case GetActivityRequest:
		return ActivityReplyMismatch(q.OrganizationID, q.ActivityID, &reply.(*ActivityResponse).Activity)
	case GetPolicyEvaluationsRequest:
		for _, e := range reply.(*GetPolicyEvaluationsResponse).PolicyEvaluations {
			// An evaluation that leaves its activity out names no other.
			if e.ActivityID != "" && !sameID(e.ActivityID, q.ActivityID) {
				return fmt.Sprintf("the reply holds an evaluation of another activity than %s: %s; the server may not be this service", shown(q.ActivityID), shown(e.ActivityID))
			}
		}
		return ""
	case GetAPIKeyRequest:
		return RecordReplyMismatch("API key", q.APIKeyID, reply.(*GetAPIKeyResponse).APIKey.APIKeyID)
	case GetPolicyRequest:
		return RecordReplyMismatch("policy", q.PolicyID, reply.(*GetPolicyResponse).Policy.PolicyID)
	case GetUserRequest:
		return RecordReplyMismatch("user", q.UserID, reply.(*GetUserResponse).User.UserID)
	case GetMfaPolicyRequest:
		p := reply.(*GetMfaPolicyResponse).MfaPolicy
		if why := RecordReplyMismatch("MFA policy", q.MfaPolicyID, p.MfaPolicyID); why != "" {
			return why
		}
		if p.UserID == "" {
			return "" // a record that leaves its user out names no other
		}
		return RecordReplyMismatch("user (of the MFA policy)", q.UserID, p.UserID)
	}
	return ""
}

// replyFor is an empty reply of the one-record query req, to decode into;
// nil for any other request.
func replyFor(req any) any {
	switch req.(type) {
	case GetActivityRequest:
		return &ActivityResponse{}
	case GetPolicyEvaluationsRequest:
		return &GetPolicyEvaluationsResponse{}
	case GetAPIKeyRequest:
		return &GetAPIKeyResponse{}
	case GetPolicyRequest:
		return &GetPolicyResponse{}
	case GetUserRequest:
		return &GetUserResponse{}
	case GetMfaPolicyRequest:
		return &GetMfaPolicyResponse{}
	}
	return nil
}

// queryRecord runs the one-record query req into reply (replyFor(req)) and
// refuses a reply about another record than req asks for.
func (c *Client) queryRecord(ctx context.Context, name string, req, reply any) error {
	_, err := c.readRecord(ctx, name, req, reply)
	return err
}

// QueryRecordRaw is QueryRaw for a query of one record (get_activity,
// get_api_key, get_policy, get_user, get_mfa_policy, get_policy_evaluations;
// req is its typed request): it
// refuses, as the typed methods do, a reply about another record than the
// one asked for, and returns the reply as sent otherwise.
func (c *Client) QueryRecordRaw(ctx context.Context, name string, req any) (json.RawMessage, error) {
	reply := replyFor(req)
	if reply == nil {
		return c.QueryRaw(ctx, name, req)
	}
	return c.readRecord(ctx, name, req, reply)
}

// readRecord is the one reading of a one-record query's reply, typed or
// raw: decoded into reply read one way only (decodeOneReading), so the id
// checked is the id a script reads from the bytes returned.
func (c *Client) readRecord(ctx context.Context, name string, req, reply any) (json.RawMessage, error) {
	raw, err := c.QueryRaw(ctx, name, req)
	if err != nil {
		return nil, err
	}
	if err := c.decodeOneReading("query/"+name, raw, reply); err != nil {
		return nil, err
	}
	if why := recordQueryMismatch(req, reply); why != "" {
		return nil, fmt.Errorf("query/%s: %s", name, why)
	}
	return raw, nil
}
