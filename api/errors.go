package api

import (
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/vigil-console/vigil/keys"
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

	// ErrOutcomeUnknown is what an *OutcomeUnknownError matches: a submit was
	// sent and no reply said whether the service recorded it. Resubmit the
	// identical body (Client.Resubmit), which the service treats as the same
	// activity (DESIGN.md §4), or look it up (ListActivities, GetActivity), rather
	// than building a new request.
	ErrOutcomeUnknown = errors.New("outcome unknown")

	// ErrNotSent is what the error of a request that never left matches (it
	// was invalid, could not be stamped, or no connection was made): the
	// service cannot have recorded it.
	ErrNotSent = errors.New("not sent")
)

// notSentError is an error of a request that never left; its text is err's.
type notSentError struct{ err error }

func (e *notSentError) Error() string   { return e.err.Error() }
func (e *notSentError) Unwrap() []error { return []error{ErrNotSent, e.err} }

// unreadableReplyError is a 2xx reply to a submit that does not carry the
// activity: the service accepted the request, so it may have recorded it.
type unreadableReplyError struct{ err error }

func (e *unreadableReplyError) Error() string { return e.err.Error() }
func (e *unreadableReplyError) Unwrap() error { return e.err }

// NotRecorded reports whether err, the error of a submit, says for certain
// that the service recorded nothing: the request was never sent, or the
// service refused it in its own error shape (a 4xx, or a 503 saying it was
// busy or could not store it). After any other error the activity may exist.
func NotRecorded(err error) bool {
	if err == nil || errors.Is(err, ErrOutcomeUnknown) {
		return false
	}
	if errors.Is(err, ErrNotSent) {
		return true
	}
	var apiErr *Error
	return errors.As(err, &apiErr) && apiErr.fromService &&
		(apiErr.StatusCode/100 == 4 || apiErr.notRecorded())
}

// OutcomeUnknownError is a submit whose outcome is unknown: it was sent, and
// then the connection failed, the time ran out, or a 5xx came back (a gateway
// answers 502, 504 or its own 5xx after the service may have recorded the
// write, and a 500 can follow a commit). It keeps the exact bytes sent, which Client.Resubmit
// sends again. errors.Is(err, ErrOutcomeUnknown) holds, and errors.As reaches
// the cause (an *Error for a 5xx, a net error, context.DeadlineExceeded).
type OutcomeUnknownError struct {
	Operation string // e.g. "submit/create_policy"
	Err       error  // what happened instead of an answer
	url       string
	body      []byte
	stamper   keys.Stamper // who signed it: only they may resend it
}

func (e *OutcomeUnknownError) Error() string {
	what := "no reply came"
	var apiErr *Error
	var unreadable *unreadableReplyError
	switch {
	case errors.As(e.Err, &unreadable):
		what = "its reply (a success status) could not be read to say"
	case errors.As(e.Err, &apiErr):
		what = "the reply was an error that does not say"
	}
	return e.Operation + ": outcome unknown: the request was sent, but " + what +
		" whether the service recorded it (" + e.cause() + "); check before submitting again"
}

// cause is the underlying error's text without the operation, which Error
// already names.
func (e *OutcomeUnknownError) cause() string {
	var apiErr *Error
	if errors.As(e.Err, &apiErr) {
		c := *apiErr
		c.Operation = ""
		return c.text(false) // "try again later" would be the wrong advice
	}
	return e.Err.Error()
}

func (e *OutcomeUnknownError) Unwrap() []error { return []error{ErrOutcomeUnknown, e.Err} }

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
	Details    []ErrorDetail // the service's details with an error code, sanitised; the first few, each code cut short
	Operation  string        // e.g. "submit/create_policy" or "query/get_activity"
	// RetryAfter is how long a 429 or a 503 asked to wait (its Retry-After,
	// parsed: at most a day); 0 when it said nothing or the reply is neither.
	RetryAfter time.Duration

	attempts int           // queries: how many attempts ended in this reply's kind, when more than one
	took     time.Duration // and over how long

	detailsLeftOut int    // details beyond the first few, not kept
	fromService    bool   // the body was in the service's error shape
	twoWays        bool   // the body could be read two ways, so neither reading is believed
	setting        string // the profile setting the request's URL came from ("" is base_url)
}

func (e *Error) Error() string { return e.text(true) }

// text is the error's message, with what to do about it when hint is set.
func (e *Error) text(hint bool) string {
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
	if e.detailsLeftOut > 0 {
		fmt.Fprintf(&b, ", and %d more details left out", e.detailsLeftOut)
	}
	b.WriteString(")")
	if e.attempts > 1 {
		fmt.Fprintf(&b, " after %d attempts over %s", e.attempts, e.took.Round(time.Second))
	}
	if h := e.hint(); hint && h != "" {
		b.WriteString("; ")
		b.WriteString(h)
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
		if (e.hasErrorCode(ErrorCodeNotAVoter) || e.hasErrorCode(ErrorCodeKeyAlreadyVoted)) && sameBodyCollision(e.Operation) {
			return sameBodyHint
		}
		if e.hasErrorCode(ErrorCodeKeyAlreadyVoted) {
			return "this key already voted on the activity as another user, and one key votes once: create a key pair of your own (`vigil keys generate NAME`), register its public key as an API key of your user, and vote with it"
		}
		return "the key's user may not do this; ask an administrator or use a profile whose user may"
	case e.is(ErrNotFound):
		if e.hasErrorCode("BOOT_PROOF_NOT_FOUND") {
			return bootProofNotFoundHint(e.Operation)
		}
		if e.twoWays {
			return twoWaysHint
		}
		if e.noSuchEndpoint() {
			return e.urlHint()
		}
		return "check the id and the organization of the profile"
	case e.is(ErrAlreadyExists):
		if e.hasErrorCode(ErrorCodeAlreadyVoted) && sameBodyCollision(e.Operation) {
			return sameBodyHint
		}
		return "it exists already; refresh and use the existing one"
	case e.is(ErrRateLimited):
		return "the service is rate limiting; " + e.waitAdvice("wait a little and try again")
	case e.is(ErrInvalidArgument):
		if e.StatusCode == http.StatusRequestEntityTooLarge {
			return "the request is too large; send less data"
		}
		if e.hasErrorCode(ErrorCodeNotVotable) {
			return notVotableHint(e.Operation)
		}
		return "correct the request and send it again"
	case e.StatusCode >= 300 && e.StatusCode < 400:
		return "the server answered with a redirect, which vigil does not follow; set the profile's base URL to the service's own address"
	case e.hasErrorCode("BUSY"):
		// The local service's own 503: it refused before reading the request.
		return "the service is busy and did not process the request; " + e.waitAdvice("try again in a moment")
	case e.hasErrorCode("STORAGE_FAILED"):
		return "nothing was recorded; send the request again once the service's storage is fixed"
	case e.hasErrorCode("COMMIT_FAILED"):
		return "the request may have been recorded; send the same request again once the service's storage is fixed, and it answers with the activity if so"
	case e.StatusCode >= 500:
		return "the service failed; " + e.waitAdvice("try again later") + ", and report it if it persists"
	}
	return ""
}

// waitAdvice is how long the reply asked to wait before trying again
// (RetryAfter), or otherwise when it said nothing.
func (e *Error) waitAdvice(otherwise string) string {
	switch {
	case e.RetryAfter >= retryAfterCeiling:
		return "it asks to wait a day or more before trying again"
	case e.RetryAfter > 0:
		return "it asks to wait " + e.RetryAfter.Round(time.Second).String() + " before trying again"
	}
	return otherwise
}

// ErrorCodeNotVotable is the service's refusal of a vote on an activity
// no longer waiting for votes, and of a submission whose body is byte for
// byte another user's ended activity (which would be a vote on it).
const ErrorCodeNotVotable = "NOT_VOTABLE"

// ErrorCodeAlreadyVoted is the service's refusal of a second vote in a round.
const ErrorCodeAlreadyVoted = "ALREADY_VOTED"

// ErrorCodeNotAVoter is the service's refusal of a vote by a user who may
// not vote on the activity.
const ErrorCodeNotAVoter = "NOT_A_VOTER"

// ErrorCodeKeyAlreadyVoted is the service's refusal of a vote signed with a
// key that already voted in the round as another user: an earlier service
// let one key be two users' credential, and one key votes once.
const ErrorCodeKeyAlreadyVoted = "KEY_ALREADY_VOTED"

// notVotableHint is what to do about NOT_VOTABLE: sending a vote again
// changes nothing, but a submission collided with another user's identical
// body (same millisecond) and is its own request once stamped afresh.
func notVotableHint(op string) string {
	if isVoteOp(op) {
		return "the activity no longer takes votes, and sending the vote again changes nothing; see how it ended with `vigil activity get` and its id"
	}
	return sameBodyHint
}

// sameBodyCollision reports whether a vote's refusal (NOT_VOTABLE,
// NOT_A_VOTER, ALREADY_VOTED) answering op is a collision: op is a
// submission that is no vote, which the service takes as a vote only when
// its body is byte for byte another user's activity (the same parameters
// and timestampMs). Nothing of it was recorded then, and the advice of a
// vote's refusal (ask an administrator, refresh) does not apply.
func sameBodyCollision(op string) bool {
	return strings.HasPrefix(op, "submit/") && !isVoteOp(op)
}

// isVoteOp reports whether op is a vote's submission.
func isVoteOp(op string) bool {
	return op == "submit/approve_activity" || op == "submit/reject_activity"
}

// sameBodyHint is what to do about a collision (sameBodyCollision).
const sameBodyHint = "nothing was recorded: send the request again with a new timestampMs (running the command again stamps one) to make a new activity"

// RefusedWith reports whether err is the service's own 4xx refusal, read
// one way only, carrying the error code code (ErrorCodeNotVotable).
func RefusedWith(err error, code string) bool {
	var e *Error
	return errors.As(err, &e) && e.fromService && !e.twoWays &&
		e.StatusCode >= 400 && e.StatusCode < 500 && e.hasErrorCode(code)
}

// ReplyRefusedWith is RefusedWith for a raw reply's status and body, as
// 'vigil request' gets them.
func ReplyRefusedWith(status int, body []byte, code string) bool {
	return RefusedWith(newError("", status, body), code)
}

// twoWaysHint is a two-ways 404's hint: the body might have said a record
// is missing or the URL reached nothing, and neither is believed.
const twoWaysHint = "the service's reply could be read two ways, so whether the record or the URL was not found is unknown; read it with `vigil request` to see it exactly"

// TwoWays reports whether err is an *Error whose body could be read two
// ways: its status is all that is known, not what it was about.
func TwoWays(err error) bool {
	var e *Error
	return errors.As(err, &e) && e.twoWays
}

// bootProofNotFoundHint: there is no id to check. By key, an unknown
// enclave is a red flag for what it signed; by app name, the name is wrong
// or the enclave has not booted.
func bootProofNotFoundHint(op string) string {
	if op == "query/"+QueryGetBootProof {
		return "no enclave booted with this key is known to the service, so nothing signed with it (such as an app proof) can be trusted"
	}
	return "the service has no boot proof under this app name: check the name (enclave_apps in the profile, or --app), or the enclave has not booted yet"
}

// notRecorded reports whether the reply says for certain that the service
// recorded nothing of the request: the local service's 503 BUSY comes before
// it reads the request, and its 503 STORAGE_FAILED after its database refused
// the write and the transaction was undone. (Its 503 COMMIT_FAILED is not one:
// a commit that failed may survive in the log.)
func (e *Error) notRecorded() bool {
	return e.StatusCode == http.StatusServiceUnavailable && (e.hasErrorCode("BUSY") || e.hasErrorCode("STORAGE_FAILED"))
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

// KeyRefused reports whether err is the service refusing the stamping key
// itself: not a key of the organization (UNKNOWN_KEY: never registered, or
// deleted) or expired. Every request stamped with it fails alike until the
// profile has another key, so retrying or checking the clock cannot help.
func KeyRefused(err error) bool {
	var e *Error
	return errors.As(err, &e) && e.is(ErrUnauthenticated) &&
		(e.hasErrorCode("UNKNOWN_KEY") || e.hasErrorCode("API_KEY_EXPIRED"))
}

// Unadvised is the error's text without the advice Error adds, for a caller
// that gives its own.
func (e *Error) Unadvised() string { return e.text(false) }

// Is lets errors.Is match an *Error against the sentinels above.
func (e *Error) Is(target error) bool { return e.is(target) }
