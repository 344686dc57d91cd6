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
	return &Error{http.StatusBadRequest, api.CodeInvalidArgument, errorCode, fmt.Sprintf(format, args...)}
}

func preconditionf(errorCode, format string, args ...any) *Error {
	return &Error{http.StatusBadRequest, api.CodeFailedPrecondition, errorCode, fmt.Sprintf(format, args...)}
}

func unauthenticatedf(errorCode, format string, args ...any) *Error {
	return &Error{http.StatusUnauthorized, api.CodeUnauthenticated, errorCode, fmt.Sprintf(format, args...)}
}

func forbiddenf(errorCode, format string, args ...any) *Error {
	return &Error{http.StatusForbidden, api.CodePermissionDenied, errorCode, fmt.Sprintf(format, args...)}
}

func notFoundf(errorCode, format string, args ...any) *Error {
	return &Error{http.StatusNotFound, api.CodeNotFound, errorCode, fmt.Sprintf(format, args...)}
}

func conflictf(errorCode, format string, args ...any) *Error {
	return &Error{http.StatusConflict, api.CodeAlreadyExists, errorCode, fmt.Sprintf(format, args...)}
}

func tooLarge(limit int) *Error {
	return &Error{http.StatusRequestEntityTooLarge, api.CodeInvalidArgument, "REQUEST_TOO_LARGE",
		fmt.Sprintf("request body is larger than %d bytes; send a smaller request", limit)}
}

// asError turns any error into a reply error; errors that are not *Error are
// internal and their text is not shown to the caller.
func asError(err error) (*Error, bool) {
	var e *Error
	if errors.As(err, &e) {
		return e, true
	}
	return &Error{http.StatusInternalServerError, api.CodeInternal, "INTERNAL", "internal error; the service log has the details"}, false
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
		case unicode.IsControl(r), api.IsBidiControl(r):
			fmt.Fprintf(&b, `\u%04X`, r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}
