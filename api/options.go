package api

import (
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"
)

// Option configures a Client.
type Option func(*Client) error

// WithHTTPClient sends requests with hc (for its transport and timeout). The client
// never follows redirects, whatever hc says: a redirect would forward the stamp to
// wherever the server points. A failed submit is said not sent (ErrNotSent)
// from what the request's httptrace hooks heard only when hc's transport
// fires them (net/http's does): through one that does not, a failure is
// outcome unknown unless its error shows nothing left (a dial error). hc's
// transport is used as given, never copied (its idle connections are the
// ones its CloseIdleConnections closes); an *http.Transport's proxy refusal
// of a tunnel (407, 403) is reported as such, naming the proxy.
func WithHTTPClient(hc *http.Client) Option {
	return func(c *Client) error {
		if hc == nil {
			return errors.New("WithHTTPClient: nil *http.Client")
		}
		cp := *hc
		c.http = &cp
		return nil
	}
}

// WithClock sets this machine's clock: the one used for timestampMs (tests fix
// it for golden bodies), and the one ServiceNow offsets.
func WithClock(now func() time.Time) Option {
	return func(c *Client) error {
		if now == nil {
			return errors.New("WithClock: nil clock")
		}
		c.now = now
		return nil
	}
}

// WithRetryPolicy sets how queries are retried on 429, 5xx and network errors: at
// most max retries, waiting base, 2·base, 4·base… (never more than cap) with jitter.
// max 0 disables retries. Submits are never retried.
func WithRetryPolicy(max int, base, cap time.Duration) Option {
	return func(c *Client) error {
		if max < 0 || base < 0 || cap < base {
			return fmt.Errorf("WithRetryPolicy(%d, %s, %s): want max >= 0 and 0 <= base <= cap", max, base, cap)
		}
		c.maxRetries, c.retryBase, c.retryCap = max, base, cap
		return nil
	}
}

// WithExactStrings leaves every string of a decoded reply exactly as the server
// sent it, instead of escaping it with Sanitize. Only for callers that escape
// at output themselves: the console, which renders every server string through
// ui.Clean, and --json output, which encodes with EncodeJSON. Error messages are
// escaped whatever the option.
func WithExactStrings() Option {
	return func(c *Client) error {
		c.exact = true
		return nil
	}
}

// WithAuthProxy sets the auth proxy's base URL and configuration id, used by
// WalletKitConfig.
func WithAuthProxy(proxyURL, configID string) Option {
	return func(c *Client) error {
		u, err := checkBaseURL(proxyURL)
		if err != nil {
			return fmt.Errorf("auth proxy URL: %w", err)
		}
		if configID == "" {
			return errors.New("auth proxy: the configuration id is empty; set it to the id of the auth proxy configuration")
		}
		c.authProxyURL, c.authProxyConfigID = u, configID
		return nil
	}
}

// MinReplyBytes is the least WithMaxReplyBytes takes: one activity repeats a
// request of up to 1 MiB, which may take twice that encoded (quotes and
// backslashes escaped), its votes' messages (at most 1 MiB together, the
// service leaves out those past it) and its votes and proofs beside it
// (docs/webhooks.md, "What arrives").
const MinReplyBytes = 4 * MaxRequestBodyBytes

// WithMaxReplyBytes bounds the replies the client reads to n bytes instead
// of MaxReplyBytes (a console on a small machine may want less); lists ask
// for shorter pages to stay within it. n is at least MinReplyBytes.
func WithMaxReplyBytes(n int64) Option {
	return func(c *Client) error {
		if n < MinReplyBytes {
			return fmt.Errorf("WithMaxReplyBytes(%d): want at least %d bytes (4 MiB): one activity may take twice its 1 MiB request, with its votes", n, MinReplyBytes)
		}
		c.maxReply = n
		return nil
	}
}

// WithMaxListReplyBytes bounds the replies of the list queries the service
// cannot page (list_users, list_policies, …) to n bytes instead of
// DefaultMaxListReplyBytes; n is at least MinReplyBytes. setting says where
// the user raises the bound, for the error of a reply over it (e.g.
// `max_list_reply_mib in profile "prod" of /home/ann/.config/vigil/config.toml`);
// "" names this option.
func WithMaxListReplyBytes(n int64, setting string) Option {
	return func(c *Client) error {
		if n < MinReplyBytes {
			return fmt.Errorf("WithMaxListReplyBytes(%d): want at least %d bytes (4 MiB), the least any reply may need", n, MinReplyBytes)
		}
		c.maxListReply, c.listReplySetting = n, setting
		return nil
	}
}

// WithMaxListReplyBytesUnchecked is WithMaxListReplyBytes without its floor
// of MinReplyBytes, for tests outside this package: a list is refused by
// comparing it with its bound, so a few users under a small bound show what
// thousands do under a real one, without megabytes of reply to build (slow
// under the race detector). n must be positive. A real client keeps the
// floor: under it, replies the service may rightly send are refused.
func WithMaxListReplyBytesUnchecked(n int64, setting string) Option {
	return func(c *Client) error {
		if n <= 0 {
			return fmt.Errorf("WithMaxListReplyBytesUnchecked(%d): want a positive number of bytes", n)
		}
		c.maxListReply, c.listReplySetting = n, setting
		return nil
	}
}

// WithUserAgent sets the User-Agent header.
func WithUserAgent(ua string) Option {
	return func(c *Client) error {
		if ua == "" || strings.ContainsAny(ua, "\r\n") {
			return fmt.Errorf("WithUserAgent(%q): want a non-empty single line", ua)
		}
		c.userAgent = ua
		return nil
	}
}

// WithUnreachableAdvice says advice, instead of "check the profile's
// base_url and that the service is running", when nothing accepts a
// connection at the service's address: for a client whose address is not
// the user's to check (a 'vigil demo' that joined another's service).
func WithUnreachableAdvice(advice string) Option {
	return func(c *Client) error {
		if advice == "" || strings.ContainsAny(advice, "\r\n") {
			return fmt.Errorf("WithUnreachableAdvice(%q): want a non-empty single line", advice)
		}
		c.unreachableAdvice = advice
		return nil
	}
}

// WithRetryNotice has notice called before a query is asked again, with what
// failed and which attempt comes next, so that a caller can tell its user
// why nothing has come yet. It runs on the calling goroutine.
func WithRetryNotice(notice func(RetryNotice)) Option {
	return func(c *Client) error {
		c.retryNotice = notice
		return nil
	}
}
