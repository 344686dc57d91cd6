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
	// RetryAfter, when above 0, is sent as a Retry-After header (seconds).
	RetryAfter int
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

// newError is an error reply whose message is formatted by messagef.
func newError(status, code int, errorCode, format string, args ...any) *Error {
	return &Error{Status: status, Code: code, ErrorCode: errorCode, Message: messagef(format, args...)}
}

func invalidf(errorCode, format string, args ...any) *Error {
	return newError(http.StatusBadRequest, api.CodeInvalidArgument, errorCode, format, args...)
}

func preconditionf(errorCode, format string, args ...any) *Error {
	return newError(http.StatusBadRequest, api.CodeFailedPrecondition, errorCode, format, args...)
}

func unauthenticatedf(errorCode, format string, args ...any) *Error {
	return newError(http.StatusUnauthorized, api.CodeUnauthenticated, errorCode, format, args...)
}

func forbiddenf(errorCode, format string, args ...any) *Error {
	return newError(http.StatusForbidden, api.CodePermissionDenied, errorCode, format, args...)
}

func notFoundf(errorCode, format string, args ...any) *Error {
	return newError(http.StatusNotFound, api.CodeNotFound, errorCode, format, args...)
}

func conflictf(errorCode, format string, args ...any) *Error {
	return newError(http.StatusConflict, api.CodeAlreadyExists, errorCode, format, args...)
}

// maxQuotedLen bounds, in bytes, each value a message quotes. It is above
// every valid id, key and name the service takes (ids are at most 256
// characters), so only values that are refused anyway are cut.
const maxQuotedLen = 256

// messagef formats a message for a reply, an activity failure or the log.
// Messages quote what the caller sent (a path, an operation name, an id),
// and a value as long as a request may carry would be echoed into the reply
// and into the log line of every refusal; so each string argument is cut
// with truncateForMessage first, here rather than at every message.
func messagef(format string, args ...any) string {
	var cut []any // a copy, made only when needed: args may be a caller's slice
	for i, a := range args {
		if v, ok := a.(string); ok && len(v) > maxQuotedLen {
			if cut == nil {
				cut = append([]any(nil), args...)
			}
			cut[i] = truncateForMessage(v)
		}
	}
	if cut != nil {
		args = cut
	}
	return fmt.Sprintf(format, args...)
}

// truncateForMessage cuts s, untrusted text placed in a message, to
// maxQuotedLen bytes at a character boundary; messages quote it (%q), so
// control characters are escaped too.
func truncateForMessage(s string) string { return api.ClipBytes(s, maxQuotedLen) }

// tooLarge is the 413 of a body over limit bytes; size is its declared
// length, or -1 when unknown (sent chunked: only what was read is known).
func tooLarge(limit int, size int64) *Error {
	what := fmt.Sprintf("request body is larger than the limit of %d bytes (1 MiB)", limit)
	if size > int64(limit) {
		what = fmt.Sprintf("request body is %d bytes, over the limit of %d bytes (1 MiB)", size, limit)
	}
	return &Error{Status: http.StatusRequestEntityTooLarge, Code: api.CodeInvalidArgument, ErrorCode: "REQUEST_TOO_LARGE",
		Message: what + "; send a smaller request: split long lists (invitations, ids, tags, MFA steps) into several requests"}
}

// asError turns any error into a reply error; errors that are not *Error are
// internal and their text is not shown to the caller. A write the database
// refused is shown by its reason (disk full, I/O error), not SQLite's text,
// and is not known: the service log gets it in full.
func asError(err error) (*Error, bool) {
	var se *storageError // the writer's (runBatch): a read that failed is no write refused
	if errors.As(err, &se) {
		return se.reply(), false
	}
	var e *Error
	if errors.As(err, &e) {
		return e, true
	}
	return &Error{Status: http.StatusInternalServerError, Code: api.CodeInternal, ErrorCode: "INTERNAL", Message: "internal error; the service log has the details"}, false
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
