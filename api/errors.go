package api

import (
	"errors"
	"fmt"
	"net/http"
	"strings"
)

// Sentinels for the service's error classes; match them with errors.Is against an
// *Error (or a *ValidationError, which is an invalid argument).
var (
	ErrInvalidArgument  = errors.New("invalid argument")
	ErrUnauthenticated  = errors.New("unauthenticated")
	ErrPermissionDenied = errors.New("permission denied")
	ErrNotFound         = errors.New("not found")
	ErrAlreadyExists    = errors.New("already exists")
	ErrRateLimited      = errors.New("rate limited")

	// ErrOutcomeUnknown wraps a network failure after a submit was sent: the
	// service may or may not have recorded the activity. Look it up (ListActivities,
	// GetActivity) or resubmit the identical body, which the service treats as the
	// same activity (DESIGN.md §4), rather than building a new request.
	ErrOutcomeUnknown = errors.New("outcome unknown: the request was sent but no reply arrived")
)

// gRPC status codes the service puts in its error bodies (DESIGN.md §3).
const (
	CodeOK                 = 0
	CodeCanceled           = 1
	CodeUnknown            = 2
	CodeInvalidArgument    = 3
	CodeDeadlineExceeded   = 4
	CodeNotFound           = 5
	CodeAlreadyExists      = 6
	CodePermissionDenied   = 7
	CodeResourceExhausted  = 8
	CodeFailedPrecondition = 9
	CodeAborted            = 10
	CodeOutOfRange         = 11
	CodeUnimplemented      = 12
	CodeInternal           = 13
	CodeUnavailable        = 14
	CodeDataLoss           = 15
	CodeUnauthenticated    = 16
)

var codeNames = map[int]string{
	CodeOK: "OK", CodeCanceled: "Canceled", CodeUnknown: "Unknown",
	CodeInvalidArgument: "InvalidArgument", CodeDeadlineExceeded: "DeadlineExceeded",
	CodeNotFound: "NotFound", CodeAlreadyExists: "AlreadyExists",
	CodePermissionDenied: "PermissionDenied", CodeResourceExhausted: "ResourceExhausted",
	CodeFailedPrecondition: "FailedPrecondition", CodeAborted: "Aborted",
	CodeOutOfRange: "OutOfRange", CodeUnimplemented: "Unimplemented",
	CodeInternal: "Internal", CodeUnavailable: "Unavailable", CodeDataLoss: "DataLoss",
	CodeUnauthenticated: "Unauthenticated",
}

// CodeName names a gRPC status code ("NotFound"), or "code N" for an unknown one.
func CodeName(code int) string {
	if n, ok := codeNames[code]; ok {
		return n
	}
	return fmt.Sprintf("code %d", code)
}

// Error is an error reply from the service. Message and Details are sanitised.
type Error struct {
	StatusCode int           // HTTP status
	Code       int           // gRPC status code from the body (0 when the body had none)
	Message    string        // the service's message, sanitised and truncated
	Details    []ErrorDetail // the service's details, sanitised
	Operation  string        // e.g. "submit/create_policy" or "query/get_activity"
}

func (e *Error) Error() string {
	var b strings.Builder
	if e.Operation != "" {
		b.WriteString(e.Operation)
		b.WriteString(": ")
	}
	msg := e.Message
	if msg == "" {
		msg = http.StatusText(e.StatusCode)
		if msg == "" {
			msg = "unexpected reply"
		}
	}
	b.WriteString(msg)
	fmt.Fprintf(&b, " (HTTP %d", e.StatusCode)
	if e.Code != 0 {
		b.WriteString(", ")
		b.WriteString(CodeName(e.Code))
	}
	for _, d := range e.Details {
		if d.ErrorCode != "" {
			b.WriteString(", ")
			b.WriteString(d.ErrorCode)
		}
	}
	b.WriteString(")")
	if hint := e.hint(); hint != "" {
		b.WriteString("; ")
		b.WriteString(hint)
	}
	return b.String()
}

// hint says what the user can do about the error.
func (e *Error) hint() string {
	switch {
	case e.is(ErrUnauthenticated):
		switch {
		case e.hasErrorCode("INVALID_OIDC_TOKEN"):
			return "the OIDC token was refused: get a fresh one from the provider, issued for this organization's client"
		case e.hasErrorCode("API_KEY_EXPIRED"):
			return "the profile's key has expired: log in again or use another key"
		case e.hasErrorCode("STALE_TIMESTAMP"):
			return "the request's time is too far from the service's: set this machine's clock right"
		case e.hasErrorCode("MISSING_AUTH_PROXY_CONFIG_ID"), e.hasErrorCode("UNKNOWN_AUTH_PROXY_CONFIG"):
			return "check the profile's auth_proxy_config_id"
		}
		return "check the profile's key is registered for this organization and the clock is right"
	case e.is(ErrPermissionDenied):
		return "the key's user may not do this; ask an administrator or use a profile whose user may"
	case e.is(ErrNotFound):
		return "check the id and the organization of the profile"
	case e.is(ErrAlreadyExists):
		return "it exists already; refresh and use the existing one"
	case e.is(ErrRateLimited):
		return "the service is rate limiting; wait a little and try again"
	case e.is(ErrInvalidArgument):
		if e.StatusCode == http.StatusRequestEntityTooLarge {
			return "the request is too large; send less data"
		}
		return "correct the request and send it again"
	case e.StatusCode >= 300 && e.StatusCode < 400:
		return "the server answered with a redirect, which vigil does not follow; set the profile's base URL to the service's own address"
	case e.StatusCode >= 500:
		return "the service failed; try again later, and report it if it persists"
	}
	return ""
}

// hasErrorCode reports whether a detail of the error carries code.
func (e *Error) hasErrorCode(code string) bool {
	for _, d := range e.Details {
		if d.ErrorCode == code {
			return true
		}
	}
	return false
}

// is maps the error to a sentinel, by gRPC code first and HTTP status second.
func (e *Error) is(target error) bool {
	switch target {
	case ErrInvalidArgument:
		return e.Code == CodeInvalidArgument || e.Code == CodeOutOfRange || e.Code == CodeFailedPrecondition ||
			(e.Code == 0 && (e.StatusCode == http.StatusBadRequest || e.StatusCode == http.StatusRequestEntityTooLarge))
	case ErrUnauthenticated:
		return e.Code == CodeUnauthenticated || (e.Code == 0 && e.StatusCode == http.StatusUnauthorized)
	case ErrPermissionDenied:
		return e.Code == CodePermissionDenied || (e.Code == 0 && e.StatusCode == http.StatusForbidden)
	case ErrNotFound:
		return e.Code == CodeNotFound || (e.Code == 0 && e.StatusCode == http.StatusNotFound)
	case ErrAlreadyExists:
		return e.Code == CodeAlreadyExists || (e.Code == 0 && e.StatusCode == http.StatusConflict)
	case ErrRateLimited:
		return e.Code == CodeResourceExhausted || (e.Code == 0 && e.StatusCode == http.StatusTooManyRequests)
	}
	return false
}

// Is lets errors.Is match an *Error against the sentinels above.
func (e *Error) Is(target error) bool { return e.is(target) }
