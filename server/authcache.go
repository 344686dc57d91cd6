package server

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/policy"
)

// What a committed write changed, as far as the caches care.
const (
	changedAuth     uint8 = 1 << iota // api_keys, authenticators, users, organizations
	changedPolicies                   // policies, users, user tags, organizations (quorum)
	changedFeatures                   // features (the webhook URL)
	changedVotes                      // votes, and users (a vote shows its voter)
)

// tablesChanged tells which caches a write statement makes stale. It errs on
// the side of staleness: any statement that names a cached table and is not
// a plain SELECT counts, cascades included (deleting a user or an
// organization names that table).
func tablesChanged(query string) uint8 {
	q := strings.TrimSpace(query)
	if len(q) >= 6 && strings.EqualFold(q[:6], "select") {
		return 0
	}
	q = strings.ToLower(q)
	var c uint8
	if strings.Contains(q, "api_keys") || strings.Contains(q, "authenticators") || strings.Contains(q, "users") || strings.Contains(q, "organizations") {
		c |= changedAuth
	}
	if strings.Contains(q, "policies") || strings.Contains(q, "users") || strings.Contains(q, "user_tag") || strings.Contains(q, "organizations") {
		c |= changedPolicies
	}
	if strings.Contains(q, "features") || strings.Contains(q, "organizations") {
		c |= changedFeatures
	}
	if strings.Contains(q, "votes") || strings.Contains(q, "users") || strings.Contains(q, "activities") || strings.Contains(q, "organizations") {
		c |= changedVotes
	}
	return c
}

// cache keeps what every request reads and almost no request changes: API
// keys by public key, organizations, user names, and each organization's
// compiled policies and users for the policy engine.
//
// Consistency: the writer calls invalidate when a transaction writes a cached
// table (as the statement runs, and again once it has committed, before any
// caller hears of the commit). A reader records the generation before it reads
// the database and keeps its result only if no invalidation happened since, so
// a result read from a snapshot older than a commit is never kept. Hence once
// delete_api_keys has answered, the next request with that key misses the
// cache, reads the database and is refused; expiry is checked on every request
// against the cached expiration.
type cache struct {
	mu        sync.RWMutex
	authGen   uint64
	policyGen uint64
	keys      map[string][]apiKeyEntry // public key (lowercase hex) -> keys of any organization
	passkeys  map[string]bool          // credential id -> registered with some organization (true only)
	orgs      map[string]*org
	users     map[string]userRecord
	webhooks  map[string]string // organization id -> webhook URL ("" for none)
	featGen   uint64
	votes     map[string][]voteRow // activity id -> its votes, in order
	votesGen  uint64
	rows      map[int64]*activity          // seq -> decoded row (no votes), checked against its version on use
	encoded   map[string][]byte            // listed activity's JSON (encodedKey), emptied with votes
	pages     map[string][]activityVersion // a listing's rows (pageKey), emptied with votes
	policies  map[string]*orgPolicies
	consensus map[string]bool // activity id -> a matching allow policy asks for consensus
	// committing is what a commit in flight changed (beginCommit): from its
	// COMMIT to its invalidate, a snapshot may already see it while the
	// caches, filled just before, do not.
	committing uint8
}

// maxCacheEntries bounds each map; a full map is emptied and refilled.
const maxCacheEntries = 10_000

// maxListCacheEntries bounds the caches of listed activities and their votes
// (kilobytes each): enough for the pages a few consoles keep polling.
const maxListCacheEntries = 2_000

// maxCachedActivityBytes is the largest listed activity kept decoded or
// encoded. An ordinary one is a kilobyte or two, but one may repeat a 400 kB
// interface and its 1 MiB request: 2,000 of those would hold gigabytes. A
// larger one is read again when it is listed.
const maxCachedActivityBytes = 16 << 10

type apiKeyEntry struct {
	id, org, user, typ string
	exp, created       int64
}

// orgPolicies is what the policy engine reads for every vote.
type orgPolicies struct {
	policies []policy.Policy
	users    map[string]policy.Approver
	order    []string // user ids, sorted: the order potential approvers are listed in
	// readsClock: a policy has a time expression, so whether it asks for
	// consensus changes with the clock alone (awaitsConsensus).
	readsClock bool
}

func (c *cache) invalidate(what uint8) {
	if what == 0 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.invalidateLocked(what)
	c.committing &^= what
}

// beginCommit invalidates what a transaction changed just before it commits
// and marks it in flight until the invalidate that follows the commit: a
// snapshot that begins meanwhile reads it all from the database (cacheUsable).
func (c *cache) beginCommit(what uint8) {
	if what == 0 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.invalidateLocked(what)
	c.committing |= what
}

func (c *cache) invalidateLocked(what uint8) {
	if what&changedAuth != 0 {
		c.authGen++
		c.keys, c.passkeys, c.orgs, c.users = nil, nil, nil, nil
	}
	if what&changedVotes != 0 {
		c.votesGen++
		c.votes, c.encoded, c.pages = nil, nil, nil
	}
	if what&changedFeatures != 0 {
		c.featGen++
		c.webhooks = nil
	}
	if what&changedPolicies != 0 {
		c.policyGen++
		c.policies, c.consensus = nil, nil
	}
}

func (c *cache) generations() (auth, pol uint64) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.authGen, c.policyGen
}

// put stores v in *m under key if the generation is still gen.
func put[V any](c *cache, gen uint64, cur *uint64, m *map[string]V, key string, v V) {
	putBounded(c, gen, cur, m, key, v, maxCacheEntries)
}

func putBounded[V any](c *cache, gen uint64, cur *uint64, m *map[string]V, key string, v V, limit int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if *cur != gen {
		return
	}
	if *m == nil || len(*m) >= limit {
		*m = map[string]V{}
	}
	(*m)[key] = v
}

func get[V any](c *cache, m *map[string]V, key string) (V, bool) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	v, ok := (*m)[key]
	return v, ok
}

// apiKeys returns the API keys, of every organization, with this public key.
func (s *Server) apiKeys(ctx context.Context, publicKey string) ([]apiKeyEntry, error) {
	c := s.db.cache
	if v, ok := get(c, &c.keys, publicKey); ok {
		return v, nil
	}
	gen, _ := c.generations()
	rows, err := s.db.read.QueryContext(ctx, `SELECT id, org_id, user_id, credential_type, expiration_seconds, created_ns
		FROM api_keys WHERE public_key = ?`, publicKey)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []apiKeyEntry
	for rows.Next() {
		var k apiKeyEntry
		if err := rows.Scan(&k.id, &k.org, &k.user, &k.typ, &k.exp, &k.created); err != nil {
			return nil, err
		}
		out = append(out, k)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	if len(out) > 0 { // unknown keys are not remembered: anyone can send one
		put(c, gen, &c.authGen, &c.keys, publicKey, out)
	}
	return out, nil
}

// passkeyRegistered reports whether an authenticator of any organization has
// this credential id.
func (s *Server) passkeyRegistered(ctx context.Context, credentialID string) (bool, error) {
	c := s.db.cache
	if _, ok := get(c, &c.passkeys, credentialID); ok {
		return true, nil
	}
	gen, _ := c.generations()
	var one int
	err := s.db.read.QueryRowContext(ctx, `SELECT 1 FROM authenticators WHERE credential_id = ? LIMIT 1`, credentialID).Scan(&one)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil // not remembered: anyone can send one
	}
	if err != nil {
		return false, err
	}
	put(c, gen, &c.authGen, &c.passkeys, credentialID, true)
	return true, nil
}

// org loads an organization through the cache. In a write transaction the
// cache is used only while that transaction has not written a cached table.
func (s *Server) org(ctx context.Context, q querier, id string) (*org, error) {
	c := s.db.cache
	if !cacheUsable(q, changedAuth) {
		return loadOrg(ctx, q, id)
	}
	if o, ok := get(c, &c.orgs, id); ok {
		cacheHit(q)
		return o, nil
	}
	gen := c.cacheGens(q).auth
	o, err := loadOrg(ctx, q, id)
	if err != nil {
		return nil, err
	}
	put(c, gen, &c.authGen, &c.orgs, id, o)
	return o, nil
}

// userRecord is what a vote shows of its voter.
type userRecord struct {
	name, email      string
	created, updated int64
}

// userName is a user's name, through the cache.
func (s *Server) userName(ctx context.Context, id string) (string, error) {
	u, err := s.user(ctx, s.db.read, id)
	return u.name, err
}

// user loads a user within q, through the cache (a write transaction uses
// the cache only while it has not written a cached table).
func (s *Server) user(ctx context.Context, q querier, id string) (userRecord, error) {
	c := s.db.cache
	usable := cacheUsable(q, changedAuth)
	if u, ok := get(c, &c.users, id); ok && usable {
		cacheHit(q)
		return u, nil
	}
	gen := c.cacheGens(q).auth
	var u userRecord
	err := q.QueryRowContext(ctx, `SELECT name, email, created_ns, updated_ns FROM users WHERE id = ?`, id).Scan(&u.name, &u.email, &u.created, &u.updated)
	if errors.Is(err, sql.ErrNoRows) {
		return u, notFoundf("USER_NOT_FOUND", "user %q not found", id)
	}
	if err != nil {
		return u, fmt.Errorf("load user %s: %w", id, err)
	}
	if usable {
		put(c, gen, &c.authGen, &c.users, id, u)
	}
	return u, nil
}

// webhookURL is the organization's webhook feature, "" when unset.
func (s *Server) webhookURL(ctx context.Context, q querier, orgID string) (string, error) {
	c := s.db.cache
	usable := cacheUsable(q, changedFeatures)
	if u, ok := get(c, &c.webhooks, orgID); ok && usable {
		cacheHit(q)
		return u, nil
	}
	gen := c.cacheGens(q).feat
	var url string
	err := q.QueryRowContext(ctx, `SELECT value FROM features WHERE org_id = ? AND name = ?`, orgID, api.FeatureWebhook).Scan(&url)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return "", fmt.Errorf("read webhook feature: %w", err)
	}
	if usable {
		put(c, gen, &c.featGen, &c.webhooks, orgID, url)
	}
	return url, nil
}

// orgPolicies loads the organization's compiled policies and users, through
// the cache.
//
// It also returns the policy generation the answer is current for, read
// before it: what is derived from the answer may be cached under it.
func (s *Server) orgPolicies(ctx context.Context, q querier, o *org) (*orgPolicies, uint64, error) {
	c := s.db.cache
	gen := c.cacheGens(q).policy
	usable := cacheUsable(q, changedPolicies)
	if usable {
		if p, ok := get(c, &c.policies, o.ID); ok {
			cacheHit(q)
			return p, gen, nil
		}
	}
	pols, err := s.loadCompiledPolicies(ctx, q, o.ID)
	if err != nil {
		return nil, 0, err
	}
	users, err := loadPolicyUsers(ctx, q, o)
	if err != nil {
		return nil, 0, err
	}
	p := &orgPolicies{policies: pols, users: users, order: userOrder(users),
		readsClock: slices.ContainsFunc(pols, func(p policy.Policy) bool { return p.Compiled.ReadsClock() })}
	if usable {
		put(c, gen, &c.policyGen, &c.policies, o.ID, p)
	}
	return p, gen, nil
}

// cacheUsable: reads outside a transaction may use the cache of what, and
// so may a write transaction that has not yet written the tables that cache
// holds (everything committed before it has already invalidated what it
// changed, and the writer is the only writer). A group commit's earlier
// submits write activities and votes, never users or policies: the later
// jobs of the batch still read those from the cache.
//
// A snapshot (snapshot.go) may use them unless it reads everything itself.
func cacheUsable(q querier, what uint8) bool {
	switch t := q.(type) {
	case *txn:
		return t.changed&what == 0
	case *snapshot:
		return !t.noCache && t.gens.committing&what == 0
	}
	return true
}

// awaitsConsensus caches voters.awaitsPolicyConsensus per activity: the
// answer depends only on the activity's intent, which never changes, and on
// the organization's policies, whose changes invalidate it. The console asks
// it for every pending activity on every refresh.
//
// This holds only while the policies see the activity alone. A policy with
// a time expression (which alone reads the clock, policy.Input.Now) makes the
// answer change with time: readsClock says so, and then nothing is cached (a
// member offered no vote before a policy's window opens must be offered it
// inside, and counted as a potential approver when a rejection asks whether
// consensus is still reachable).
// compute must use policies current at generation gen (orgPolicies).
func (s *Server) awaitsConsensus(q querier, a *activity, gen uint64, readsClock bool, compute func() (bool, error)) (bool, error) {
	c := s.db.cache
	usable := cacheUsable(q, changedPolicies) && !readsClock
	if usable {
		if v, ok := get(c, &c.consensus, a.ID); ok {
			cacheHit(q)
			return v, nil
		}
	}
	v, err := compute()
	if err != nil {
		return false, err
	}
	if usable {
		put(c, gen, &c.policyGen, &c.consensus, a.ID, v)
	}
	return v, nil
}

func isNotFound(err error) bool {
	var e *Error
	return errors.As(err, &e) && e.Status == http.StatusNotFound
}

// loadVotesCached is loadVotesOf for reads in a snapshot, through a
// cache of each activity's votes. Any write to votes (or to users, whose names
// votes show) empties it, so it helps a list polled while nobody votes — the
// console's pending list between votes — and costs nothing otherwise.
func (s *Server) loadVotesCached(ctx context.Context, q querier, acts []*activity) error {
	c := s.db.cache
	gen := c.cacheGens(q).votes
	missing := acts
	if cacheUsable(q, changedVotes) {
		missing = nil
		c.mu.RLock()
		for _, a := range acts {
			if v, ok := c.votes[a.ID]; ok {
				a.Votes = v
				cacheHit(q)
			} else {
				missing = append(missing, a)
			}
		}
		c.mu.RUnlock()
	}
	if err := loadVotesOf(ctx, q, missing); err != nil {
		return err
	}
	for _, a := range missing {
		// Readers share the cached slice: it is never appended to in place
		// (castVote works on activities loaded in its transaction).
		putBounded(c, gen, &c.votesGen, &c.votes, a.ID, slices.Clip(a.Votes), maxListCacheEntries)
	}
	return nil
}
