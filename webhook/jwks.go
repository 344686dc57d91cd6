package webhook

import (
	"context"
	"crypto/ed25519"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	neturl "net/url"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/profile"
)

// Limits of the JWKS cache.
const (
	// MaxJWKSSize bounds the JWKS reply read from the network.
	MaxJWKSSize = 1 << 20
	// MinRefetchInterval is the least time between two fetches of the JWKS,
	// so that a flood of deliveries with unknown key ids cannot make the
	// receiver hammer the service.
	MinRefetchInterval = 10 * time.Second
	// maxCacheAge and maxStaleIfError clamp absurd Cache-Control values.
	maxCacheAge     = 7 * 24 * time.Hour
	maxStaleIfError = 30 * 24 * time.Hour
	// fetchTimeout bounds one JWKS fetch when the caller's client has none.
	fetchTimeout = 10 * time.Second
)

// ErrJWKSUnavailable: the key set could not be fetched and no cached copy
// may be used any more. A receiver should answer 503 so that the service
// retries later.
var ErrJWKSUnavailable = errors.New("webhook verification keys unavailable")

// JWKSCache is a KeySource backed by the service's JWKS endpoint. It honours
// the reply's Cache-Control max-age (and stale-if-error when a fetch fails),
// refetches once for an unknown key id, and never fetches more often than
// MinRefetchInterval. It is safe for concurrent use.
type JWKSCache struct {
	url    string
	client *http.Client
	clock  func() time.Time

	mu          sync.Mutex
	keys        map[string]ed25519.PublicKey // nil until the first good fetch
	fetchedAt   time.Time                    // of the keys
	fresh       time.Duration                // CacheLifetime of the keys' reply
	stale       time.Duration
	lastAttempt time.Time // of any fetch, good or not
	lastErr     error     // of the last fetch; nil if it succeeded
	inFlight    *fetchCall
}

// fetchCall lets concurrent lookups share one fetch.
type fetchCall struct {
	done chan struct{}
	err  error
}

// NewJWKSCache returns a cache of the JWKS at url (for the local service,
// base URL + api.JWKSPath). A nil client means http.DefaultClient's settings;
// a nil clock means time.Now. Redirects are never followed, whatever the
// client's policy: the key set is the trust root, and a redirect (to plain
// http, or to another host) would hand it to whoever it names.
func NewJWKSCache(url string, client *http.Client, clock func() time.Time) *JWKSCache {
	if clock == nil {
		clock = time.Now
	}
	return &JWKSCache{url: url, client: NoRedirectClient(client), clock: clock}
}

// NoRedirectClient returns a copy of client (nil means http.DefaultClient's
// settings) that never follows a redirect: a 3xx comes back as the response.
func NoRedirectClient(client *http.Client) *http.Client {
	c := &http.Client{}
	if client != nil {
		*c = *client
	}
	c.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	return c
}

// JWKSReply is one fetched key set.
type JWKSReply struct {
	Raw    []byte   // the body as published, every field kept
	Set    api.JWKS // Raw parsed
	Header http.Header
}

// FetchJWKS performs one GET of the key set at url. It never follows a
// redirect, whatever the client's policy: the key set is the trust root, and a
// redirect (to plain http, or to another host) would hand it to whoever it
// names, so a 3xx is an error naming its Location (quoted). JWKSCache and
// `vigil webhook keys` share it so that they cannot disagree on that.
func FetchJWKS(ctx context.Context, client *http.Client, url string) (JWKSReply, error) {
	// The URL is named without its user info, query and fragment, which
	// may hold a password or a token (net/http's own errors keep a query).
	shown := profile.ShowURL(url)
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		var ue *neturl.Error
		if errors.As(err, &ue) {
			err = ue.Err
		}
		return JWKSReply{}, fmt.Errorf("fetch JWKS: bad URL %s: %w", shown, err)
	}
	req.Header.Set("Accept", "application/json")
	resp, err := NoRedirectClient(client).Do(req)
	if err != nil {
		var ue *neturl.Error
		if errors.As(err, &ue) {
			return JWKSReply{}, fmt.Errorf("fetch JWKS from %s: %w", shown, ue.Err)
		}
		return JWKSReply{}, fmt.Errorf("fetch JWKS from %s: %w", shown, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode/100 == 3 {
		io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
		return JWKSReply{}, fmt.Errorf("fetch JWKS from %s: HTTP status %d redirects to %s, and the key set is never fetched through a redirect (it could hand the keys to another host or to plain http): configure the URL the keys are served at",
			shown, resp.StatusCode, quote(resp.Header.Get("Location")))
	}
	if resp.StatusCode != http.StatusOK {
		io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
		return JWKSReply{}, fmt.Errorf("fetch JWKS from %s: HTTP status %d", shown, resp.StatusCode)
	}
	data, err := io.ReadAll(io.LimitReader(resp.Body, MaxJWKSSize+1))
	if err != nil {
		return JWKSReply{}, fmt.Errorf("fetch JWKS: read reply: %w", err)
	}
	if len(data) > MaxJWKSSize {
		return JWKSReply{}, fmt.Errorf("fetch JWKS: reply is larger than %d bytes", MaxJWKSSize)
	}
	var set api.JWKS
	if err := json.Unmarshal(data, &set); err != nil {
		return JWKSReply{}, fmt.Errorf("fetch JWKS from %s: reply is not a JSON key set: %w", shown, err)
	}
	return JWKSReply{Raw: data, Set: set, Header: resp.Header}, nil
}

// Key returns the public key of kid. An id missing from a cached set makes
// one refetch (rate-limited) before ErrUnknownKey is returned.
func (c *JWKSCache) Key(ctx context.Context, kid string) (ed25519.PublicKey, error) {
	fetched := false
	c.mu.Lock()
	now := c.clock()
	if c.needsFetchLocked(now) && c.mayFetchLocked(now) {
		c.mu.Unlock()
		if err := c.fetch(ctx); err != nil && ctx.Err() != nil {
			return nil, fmt.Errorf("webhook key %s: %w", quote(kid), ctx.Err())
		}
		fetched = true
		c.mu.Lock()
	}
	keys, err := c.usableLocked(now)
	if err != nil {
		c.mu.Unlock()
		return nil, fmt.Errorf("webhook key %s: %w", quote(kid), err)
	}
	if pub, ok := keys[kid]; ok {
		c.mu.Unlock()
		return slices.Clone(pub), nil
	}
	if fetched || !c.mayFetchLocked(now) {
		err := c.unknownLocked(kid)
		c.mu.Unlock()
		return nil, err
	}
	c.mu.Unlock()

	// The key may be new (the service rotated): refetch once.
	if err := c.fetch(ctx); err != nil && ctx.Err() != nil {
		return nil, fmt.Errorf("webhook key %s: %w", quote(kid), ctx.Err())
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	keys, err = c.usableLocked(now)
	if err != nil {
		return nil, fmt.Errorf("webhook key %s: %w", quote(kid), err)
	}
	if pub, ok := keys[kid]; ok {
		return slices.Clone(pub), nil
	}
	return nil, c.unknownLocked(kid)
}

// HeldKey returns the public key of kid if the cache holds it and may use it
// now, fetching nothing (HeldKeySource).
func (c *JWKSCache) HeldKey(kid string) (ed25519.PublicKey, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	keys, err := c.usableLocked(c.clock())
	if err != nil {
		return nil, false
	}
	pub, ok := keys[kid]
	return slices.Clone(pub), ok
}

// unknownLocked is the error for a kid missing from the set, noting a failed
// refresh if there was one.
func (c *JWKSCache) unknownLocked(kid string) error {
	if c.lastErr != nil {
		return fmt.Errorf("webhook key %s: %w (refreshing the key set failed: %w)", quote(kid), ErrUnknownKey, c.lastErr)
	}
	return fmt.Errorf("webhook key %s: %w", quote(kid), ErrUnknownKey)
}

// needsFetchLocked: no keys yet, or they are past their fresh lifetime.
func (c *JWKSCache) needsFetchLocked(now time.Time) bool {
	return c.keys == nil || !now.Before(c.fetchedAt.Add(c.fresh))
}

// mayFetchLocked applies MinRefetchInterval (a fetch is already under way
// counts as allowed: the caller joins it).
func (c *JWKSCache) mayFetchLocked(now time.Time) bool {
	return c.inFlight != nil || c.lastAttempt.IsZero() || now.Sub(c.lastAttempt) >= MinRefetchInterval || now.Before(c.lastAttempt)
}

// usableLocked returns the keys if they may still be used at now: while
// fresh, or stale when the last fetch failed (see CacheLifetime).
func (c *JWKSCache) usableLocked(now time.Time) (map[string]ed25519.PublicKey, error) {
	if c.keys != nil {
		fresh := c.fetchedAt.Add(c.fresh)
		if now.Before(fresh) || (c.lastErr != nil && now.Before(fresh.Add(c.stale))) {
			return c.keys, nil
		}
		if c.lastErr == nil {
			// Expired, and the refetch is rate-limited: these are still the
			// newest keys there are.
			return c.keys, nil
		}
	}
	if c.lastErr != nil {
		return nil, fmt.Errorf("%w: %w", ErrJWKSUnavailable, c.lastErr)
	}
	return nil, fmt.Errorf("%w: not fetched yet", ErrJWKSUnavailable)
}

// fetch gets the JWKS, sharing one request among concurrent callers. The
// request is not tied to the first caller's cancellation, so one impatient
// caller does not fail the others; each caller still stops waiting when its
// own ctx ends.
func (c *JWKSCache) fetch(ctx context.Context) error {
	c.mu.Lock()
	call := c.inFlight
	if call == nil {
		call = &fetchCall{done: make(chan struct{})}
		c.inFlight = call
		c.lastAttempt = c.clock()
		go c.runFetch(context.WithoutCancel(ctx), call)
	}
	c.mu.Unlock()
	select {
	case <-call.done:
		return call.err
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (c *JWKSCache) runFetch(ctx context.Context, call *fetchCall) {
	ctx, cancel := context.WithTimeout(ctx, fetchTimeout)
	defer cancel()
	keys, fresh, stale, err := c.get(ctx)

	c.mu.Lock()
	if err == nil {
		c.keys, c.fetchedAt, c.fresh, c.stale = keys, c.clock(), fresh, stale
	}
	c.lastErr = err
	c.inFlight = nil
	c.mu.Unlock()
	call.err = err
	close(call.done)
}

// get performs one GET of the JWKS.
func (c *JWKSCache) get(ctx context.Context) (keys map[string]ed25519.PublicKey, fresh, stale time.Duration, err error) {
	reply, err := FetchJWKS(ctx, c.client, c.url)
	if err != nil {
		return nil, 0, 0, err
	}
	fresh, stale = CacheLifetime(reply.Header)
	keys = usableKeys(reply.Set)
	if len(keys) == 0 {
		// The service always publishes its active key: a set without one is
		// a broken reply, and must not replace good keys (every delivery
		// would be refused until the next fetch). It counts as a failed fetch.
		return nil, 0, 0, fmt.Errorf("fetch JWKS from %s: the reply holds no usable key (%d entries), though the service always publishes its active key: check that the URL serves the service's key set",
			profile.ShowURL(c.url), len(reply.Set.Keys))
	}
	return keys, fresh, stale, nil
}

// usableKeys is the keys JWKSCache verifies with, by kid: the entries
// KeySkipReasons does not skip.
func usableKeys(set api.JWKS) map[string]ed25519.PublicKey {
	keys := make(map[string]ed25519.PublicKey, len(set.Keys))
	for i, why := range KeySkipReasons(set) {
		if why == "" {
			keys[set.Keys[i].Kid], _ = parseJWK(set.Keys[i])
		}
	}
	return keys
}

// KeySkipReasons says, for each entry of set in order, why JWKSCache skips
// it, or "" if it verifies with it. Bad entries are skipped, and so is every
// entry of a kid listed twice with different keys (ambiguous). Tools that
// list a key set use it to mark what receivers skip.
func KeySkipReasons(set api.JWKS) []string {
	why := make([]string, len(set.Keys))
	first := map[string]ed25519.PublicKey{}
	ambiguous := map[string]bool{}
	for i, k := range set.Keys {
		pub, ok := parseJWK(k)
		if !ok {
			why[i] = "not usable: receivers skip it"
			continue
		}
		if prev, dup := first[k.Kid]; dup && !prev.Equal(pub) {
			ambiguous[k.Kid] = true
		} else if !dup {
			first[k.Kid] = pub
		}
	}
	for i, k := range set.Keys {
		if why[i] == "" && ambiguous[k.Kid] {
			why[i] = "kid listed twice with different keys: receivers skip both"
		}
	}
	return why
}

func parseJWK(k api.JWK) (ed25519.PublicKey, bool) {
	if !validID(k.Kid) || k.Kty != "OKP" || k.Crv != "Ed25519" || k.Alg != "EdDSA" || k.Use != "sig" ||
		k.ServiceSignatureAlgorithm != Algorithm || k.ServiceSignatureVersion != Version {
		return nil, false
	}
	x, err := base64.RawURLEncoding.DecodeString(strings.TrimRight(k.X, "="))
	if err != nil || len(x) != ed25519.PublicKeySize || strongKey(x) != nil {
		return nil, false
	}
	return ed25519.PublicKey(x), true
}

// UsableKeyCount is how many of set's keys JWKSCache would verify with (a
// kid listed twice with different keys counts for none). With none, it
// refuses the set as a failed fetch.
func UsableKeyCount(set api.JWKS) int {
	return len(usableKeys(set))
}
