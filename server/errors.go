package server

import (
	"errors"
	"fmt"
	"net/http"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/vigil-console/vigil/api"
)

// gRPC status codes used in error bodies (DESIGN.md §3).
const (
	codeInvalidArgument    = 3
	codeNotFound           = 5
	codeAlreadyExists      = 6
	codePermissionDenied   = 7
	codeResourceExhausted  = 8
	codeFailedPrecondition = 9
	codeInternal           = 13
	codeUnavailable        = 14
	codeUnauthenticated    = 16
)

// Error is an error the service replies with: an HTTP status, a gRPC code, a
// machine-readable errorCode and a message meant for a person.
type Error struct {
	Status    int
	Code      int
	ErrorCode string
	Message   string
}

func (e *Error) Error() string { return e.Message }

// Body is the wire form of the error.
func (e *Error) Body() api.ErrorBody {
	b := api.ErrorBody{Code: e.Code, Message: cleanText(e.Message)}
	if e.ErrorCode != "" {
		b.Details = []api.ErrorDetail{{Type: api.ErrorDetailType, ErrorCode: e.ErrorCode}}
	}
	return b
}

func invalidf(errorCode, format string, args ...any) *Error {
	return &Error{http.StatusBadRequest, codeInvalidArgument, errorCode, fmt.Sprintf(format, args...)}
}

func preconditionf(errorCode, format string, args ...any) *Error {
	return &Error{http.StatusBadRequest, codeFailedPrecondition, errorCode, fmt.Sprintf(format, args...)}
}

func unauthenticatedf(errorCode, format string, args ...any) *Error {
	return &Error{http.StatusUnauthorized, codeUnauthenticated, errorCode, fmt.Sprintf(format, args...)}
}

func forbiddenf(errorCode, format string, args ...any) *Error {
	return &Error{http.StatusForbidden, codePermissionDenied, errorCode, fmt.Sprintf(format, args...)}
}

func notFoundf(errorCode, format string, args ...any) *Error {
	return &Error{http.StatusNotFound, codeNotFound, errorCode, fmt.Sprintf(format, args...)}
}

func conflictf(errorCode, format string, args ...any) *Error {
	return &Error{http.StatusConflict, codeAlreadyExists, errorCode, fmt.Sprintf(format, args...)}
}

func tooLarge(limit int) *Error {
	return &Error{http.StatusRequestEntityTooLarge, codeInvalidArgument, "REQUEST_TOO_LARGE",
		fmt.Sprintf("request body is larger than %d bytes; send a smaller request", limit)}
}

// asError turns any error into a reply error; errors that are not *Error are
// internal and their text is not shown to the caller.
func asError(err error) (*Error, bool) {
	var e *Error
	if errors.As(err, &e) {
		return e, true
	}
	return &Error{http.StatusInternalServerError, codeInternal, "INTERNAL", "internal error; the service log has the details"}, false
}

// cleanText escapes control characters, bidi controls and invalid UTF-8 in a
// message: messages quote what the caller sent (a field name, an id), and that
// must not carry terminal escapes back to whoever displays the error.
func cleanText(s string) string {
	var b strings.Builder
	for i, r := range s {
		switch {
		case r == utf8.RuneError && !strings.HasPrefix(s[i:], "\uFFFD"):
			b.WriteString(`\uFFFD`)
		case unicode.IsControl(r), r >= 0x202A && r <= 0x202E, r >= 0x2066 && r <= 0x2069, r == 0x200E, r == 0x200F, r == 0x061C:
			fmt.Fprintf(&b, `\u%04X`, r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}
