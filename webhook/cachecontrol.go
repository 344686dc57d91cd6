package webhook

import (
	"errors"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// CacheLifetime is how long JWKSCache keeps a key set whose reply had header
// h: fresh, the time it uses the set without fetching it again (max-age less
// the reply's Age, at least MinRefetchInterval since it never refetches
// sooner), then stale, the time after that it still uses the set while
// fetching it fails (stale-if-error, which counts from when the reply became
// stale, wherever that was). `vigil webhook keys` prints it, so that
// operators see how long a rotated-out key is still trusted.
func CacheLifetime(h http.Header) (fresh, stale time.Duration) {
	cc := parseCacheControl(h.Values("Cache-Control"))
	// A reply a shared cache has held for Age seconds has that much less
	// freshness left (RFC 9111 §4.2.3); one older than max-age is stale at
	// once, and its staleness, Age - max-age, is taken off stale-if-error
	// (RFC 5861 §4): a CDN serving the set near the end of its own
	// stale-if-error passes on only what is left of it.
	age := replyAge(h.Values("Age"))
	left := max(0, cc.maxAge+cc.staleIfErr-age)
	fresh = max(cc.maxAge-age, MinRefetchInterval)
	return fresh, max(0, left-fresh)
}

// cacheControl is what CacheLifetime reads of a reply's Cache-Control.
type cacheControl struct {
	maxAge, staleIfErr time.Duration
}

// parseCacheControl reads max-age and stale-if-error from every
// Cache-Control line, as a private cache (RFC 9111): a receiver's JWKSCache
// serves that receiver alone, so s-maxage and proxy-revalidate, which bind
// only shared caches, are ignored. It errs on the side of trusting a set for
// less time:
//   - no-store, a bare no-cache or a missing max-age mean max-age 0 (refetch
//     whenever MinRefetchInterval allows); no-cache="field" only forbids
//     reusing the named header fields (§5.2.2.4), so it changes nothing here;
//   - no-store, a bare no-cache and must-revalidate forbid using a stale
//     reply (§4.2.4, §5.2.2.2), so stale-if-error is 0;
//   - a directive given twice with different values (a proxy's second
//     Cache-Control line) counts as 0: §4.2.1 allows treating the reply as
//     stale, and that is the shorter trust.
func parseCacheControl(values []string) cacheControl {
	var cc cacheControl
	var seenMaxAge, seenStale, noCache, noStale bool
	for _, v := range values {
		for _, d := range splitList(v) {
			name, arg, _ := strings.Cut(d, "=")
			arg = unquote(strings.TrimSpace(arg))
			switch strings.ToLower(strings.TrimSpace(name)) {
			case "max-age":
				cc.maxAge = directive(cc.maxAge, seconds(arg, maxCacheAge), &seenMaxAge)
			case "stale-if-error":
				cc.staleIfErr = directive(cc.staleIfErr, seconds(arg, maxStaleIfError), &seenStale)
			case "no-store":
				noCache, noStale = true, true
			case "no-cache":
				if arg == "" { // the qualified form names header fields only
					noCache, noStale = true, true
				}
			case "must-revalidate":
				noStale = true
			}
		}
	}
	if noCache {
		cc.maxAge = 0
	}
	if noStale {
		cc.staleIfErr = 0
	}
	return cc
}

// splitList splits a comma-separated header value into its trimmed, non-empty
// elements, keeping commas inside quoted strings (RFC 9110 §5.6.1, §5.6.4),
// so that x-note="a, max-age=5" stays one element.
func splitList(v string) []string {
	var out []string
	start, quoted := 0, false
	for i := 0; i < len(v); i++ {
		switch c := v[i]; {
		case quoted && c == '\\':
			i++ // a quoted-pair: the next byte is literal
		case c == '"':
			quoted = !quoted
		case !quoted && c == ',':
			out = appendElement(out, v[start:i])
			start = i + 1
		}
	}
	return appendElement(out, v[min(start, len(v)):])
}

func appendElement(out []string, e string) []string {
	if e = strings.TrimSpace(e); e != "" {
		out = append(out, e)
	}
	return out
}

// unquote returns the text of a quoted-string, its quoted-pairs resolved, or
// s unchanged if it is not quoted (a token).
func unquote(s string) string {
	if len(s) < 2 || s[0] != '"' || s[len(s)-1] != '"' {
		return s
	}
	var b strings.Builder
	s = s[1 : len(s)-1]
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) {
			i++
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// directive returns the value of a directive seen with value v: v the first
// time, the same if it repeats it, 0 if it conflicts.
func directive(prev, v time.Duration, seen *bool) time.Duration {
	if !*seen {
		*seen = true
		return v
	}
	if v != prev {
		return 0
	}
	return prev
}

// replyAge is the Age header's value, or 0 when absent or malformed. Age is
// a single number (RFC 9111 §5.1); when a reply repeats it, as lines or as
// one comma-joined line, the largest wins: the oldest claim, so freshness is
// never overstated.
func replyAge(values []string) time.Duration {
	var age time.Duration
	for _, line := range values {
		for _, v := range strings.Split(line, ",") {
			age = max(age, seconds(v, maxCacheAge+maxStaleIfError))
		}
	}
	return age
}

// seconds parses a delta-seconds value, clamped to [0, limit].
func seconds(s string, limit time.Duration) time.Duration {
	n, err := strconv.ParseUint(strings.Trim(strings.TrimSpace(s), `"`), 10, 64)
	if errors.Is(err, strconv.ErrRange) {
		return limit // RFC 9111 §1.2.2: an overflowing value means "very long"
	}
	if err != nil {
		return 0
	}
	if n > uint64(limit/time.Second) {
		return limit
	}
	return time.Duration(n) * time.Second
}
