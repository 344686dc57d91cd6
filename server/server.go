// Package server is vigil's local implementation of the activity/query service
// (SPEC.md, with DESIGN.md §3–4 deciding what SPEC.md leaves open): stamped
// HTTP submits and queries, an activity engine with votes and policies, SQLite
// storage, signed webhooks, demo enclaves and an auth proxy.
package server

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"path/filepath"
	"sync"
	"time"

	"github.com/vigil-console/vigil/internal/logtext"
	"github.com/vigil-console/vigil/keys"
	"github.com/vigil-console/vigil/policy"
)

// Config configures a Server.
type Config struct {
	// DataDir holds the database (vigil.db); "" keeps everything in memory.
	DataDir string
	// Logger receives structured logs; nil discards them. Every message and
	// value is passed through logtext.Text first (escaped, cut to
	// logtext.MaxValueBytes), and errors and other values reach the
	// handler as their text.
	Logger *slog.Logger
	// Now is the service clock; nil means time.Now.
	Now func() time.Time
	// HTTPClient delivers webhooks; nil means a client with a 10 s timeout.
	HTTPClient *http.Client
	// Webhooks tunes webhook delivery; the zero value means the defaults.
	Webhooks WebhookOptions
	// Lock is the caller's hold on DataDir (LockDataDir), for a caller that
	// must keep the directory across more than one Open. Nil: Open takes the
	// lock itself and Close releases it.
	Lock *DataDirLock
	// HoldWebhooks makes Open leave webhook delivery stopped until the
	// embedding program calls StartWebhooks, for a program that must change
	// where pending events go before any is sent ('vigil demo' re-points its
	// previous run's, PointDemoWebhook). Held events stay in the outbox; a
	// hold never lifted is logged at WARN every minute and at Close.
	HoldWebhooks bool
	// MaxPolicyBytes bounds what an organization's policies may count
	// together (policyCharge); 0 means the default, 32 MiB. Tests lower it
	// to reach the bound with a few policies.
	MaxPolicyBytes int64
	// MemoryImage, with DataDir "", is the database Open starts from instead
	// of an empty one migrated anew: SchemaImage, which tests opening many
	// services take once.
	MemoryImage []byte
	// PolicyWork bounds, in CEL cost units, the work of each policy decision
	// and of each search for whether consensus is still reachable; 0 means
	// the engine's defaults (policy.DecideBudget, policy.ReachBudget). Tests
	// lower it to run out of it with a few costly policies.
	PolicyWork uint64
	// MaxListReplyBytes bounds a list_activities reply; 0 means the default,
	// 8 MiB (maxListReplyBytes). Tests lower it to end a page early with
	// activities a fraction of the largest.
	MaxListReplyBytes int
}

// compileCacheBudget bounds the heap the compile cache keeps, as estimated
// by policy.CompiledSize. Stored policies only enter it, but it is shared by
// every organization, so it must stay bounded however many policies they
// store.
const compileCacheBudget = 64 << 20

// Server is the local service. It is safe for concurrent use.
type Server struct {
	log   *slog.Logger
	now   func() time.Time
	db    *store
	hooks *hooks
	creds *serviceKeys

	verifier    *keys.Verifier // stamp verification, with parsed public keys kept
	bodies      *bodyBudget    // bounds the API's request bodies held at once, for registered credentials
	strangers   *bodyBudget    // the same for credentials registered nowhere, apart
	proxyBodies *bodyBudget    // the same for the auth proxy, apart

	compiled *policy.CompileCache // stored policies, compiled, by their texts

	policyBudget int64 // what an organization's policies may count together (policyCharge)

	decideWork, reachWork uint64        // the policy engine's work budgets (Config.PolicyWork)
	listReplyBytes        int           // the most a list_activities reply takes (Config.MaxListReplyBytes)
	userStreams           chan struct{} // list_users replies being sent (maxUserStreams)

	latest latestCreated // each organization's newest activity creation time, for createdAt

	enclaveMu sync.Mutex // serializes creation of demo enclaves

	ownLock *DataDirLock // taken by Open (Config.Lock nil), released by Close

	closeOnce sync.Once
	closeErr  error
}

// Open opens (creating or migrating as needed) the store in cfg.DataDir and
// prepares the service's keys.
func Open(cfg Config) (*Server, error) {
	ctx := context.Background()
	s := &Server{log: cfg.Logger, now: cfg.Now, verifier: keys.NewVerifier(maxCacheEntries, cfg.Now),
		bodies: newBodyBudget(defaultBodyBudget, bodyBudgetWait), strangers: newBodyBudget(strangerBodyBudget, bodyBudgetWait), proxyBodies: newBodyBudget(proxyBodyBudget, bodyBudgetWait),
		compiled: policy.NewCompileCache(compileCacheBudget), policyBudget: cfg.MaxPolicyBytes,
		userStreams: make(chan struct{}, maxUserStreams)}
	if s.policyBudget <= 0 {
		s.policyBudget = defaultPolicyBudget
	}
	s.decideWork, s.reachWork = policy.DecideBudget, policy.ReachBudget
	if cfg.PolicyWork > 0 {
		s.decideWork, s.reachWork = cfg.PolicyWork, cfg.PolicyWork
	}
	s.listReplyBytes = maxListReplyBytes
	if cfg.MaxListReplyBytes > 0 {
		s.listReplyBytes = cfg.MaxListReplyBytes
	}
	if s.log == nil {
		s.log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	// What clients and webhook receivers sent reaches the log (an unknown
	// id, a path, a receiver's malformed reply): escaped and cut, whatever
	// handler the embedder gave.
	s.log = slog.New(logtext.Wrap(s.log.Handler()))
	if s.now == nil {
		s.now = time.Now
	}
	if cfg.DataDir != "" {
		if err := s.holdDataDir(cfg); err != nil {
			return nil, err
		}
	}
	db, err := openStore(ctx, cfg.DataDir, cfg.MemoryImage, s.log, s.now)
	if err != nil {
		s.ownLock.Release()
		return nil, atStartup(err)
	}
	s.db = db
	if s.creds, err = loadServiceKeys(ctx, db); err != nil {
		db.close()
		s.ownLock.Release()
		return nil, atStartup(err)
	}
	client := cfg.HTTPClient
	if client == nil {
		client = &http.Client{Timeout: 10 * time.Second}
	}
	if s.hooks, err = openHooks(ctx, db, client, s.log, s.now, cfg.Webhooks, cfg.HoldWebhooks); err != nil {
		db.close()
		s.ownLock.Release()
		return nil, atStartup(err)
	}
	return s, nil
}

// holdDataDir takes cfg.DataDir's lock, or checks that cfg.Lock holds it.
func (s *Server) holdDataDir(cfg Config) error {
	if cfg.Lock == nil {
		l, err := LockDataDir(cfg.DataDir)
		if err != nil {
			return err
		}
		s.ownLock = l
		return nil
	}
	abs, err := filepath.Abs(cfg.DataDir)
	if err != nil {
		return fmt.Errorf("data directory %s: %w", cfg.DataDir, err)
	}
	if cfg.Lock.f == nil || cfg.Lock.dir != abs {
		return fmt.Errorf("open %s: Config.Lock holds %s, not this data directory", abs, cfg.Lock.dir)
	}
	return nil
}

// Close stops webhook delivery (waiting briefly for deliveries in flight),
// saves the webhook key ring and closes the store. Later calls return the
// first call's result.
func (s *Server) Close() error { return s.CloseContext(context.Background()) }

// CloseContext is Close, waiting for webhook deliveries in flight until ctx
// ends, 5 seconds at most: those cut short stay in the outbox and are
// delivered by the next start. Queued writes commit either way.
func (s *Server) CloseContext(ctx context.Context) error {
	s.closeOnce.Do(func() {
		ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		defer cancel()
		err := s.hooks.close(ctx)
		s.closeErr = errors.Join(err, s.db.close(), s.ownLock.Release())
	})
	return s.closeErr
}

// TLSFetcherPublicKey is the uncompressed hex P-256 key clients encrypt OAuth2
// client secrets to (profile setting tls_fetcher_public_key).
func (s *Server) TLSFetcherPublicKey() string {
	return fmt.Sprintf("%x", s.creds.tlsFetcher.PublicKey().Bytes())
}
