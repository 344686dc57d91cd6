// Package screens holds the console's screens and the root model that routes keys
// and messages between them. Screens never do I/O in Update: they return commands,
// whose results come back as messages named after the screen (activitiesLoadedMsg…).
package screens

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/ui/theme"
)

// Client is what the screens need from the service; *api.Client satisfies it.
type Client interface {
	ListActivities(ctx context.Context, opts api.ListActivitiesOptions) ([]api.Activity, error)
	GetActivity(ctx context.Context, activityID string) (*api.Activity, error)
	ApproveActivity(ctx context.Context, fingerprint string) (*api.Activity, error)
	RejectActivity(ctx context.Context, fingerprint string) (*api.Activity, error)
	GetPolicyEvaluations(ctx context.Context, activityID string) ([]api.PolicyEvaluation, error)
	ListAppProofs(ctx context.Context, activityID string) ([]api.AppProof, error)
	Whoami(ctx context.Context) (*api.WhoamiResponse, error)
	GetOrganizationConfigs(ctx context.Context) (*api.OrganizationConfigs, error)
	ListUsers(ctx context.Context) ([]api.User, error)
	ListPolicies(ctx context.Context) ([]api.Policy, error)
	GetLatestBootProof(ctx context.Context, appName string) (*api.BootProof, error)
	GetBootProof(ctx context.Context, ephemeralKey string) (*api.BootProof, error)
}

// ErrReadOnly is returned by every submit of a read-only client.
var ErrReadOnly = errors.New("read-only mode: submitting is disabled (started with --read-only or read_only = true in the profile)")

// ReadOnly wraps a client so that every submit fails with ErrReadOnly before anything
// is sent. This is the one place read-only is enforced; screens only grey out keys.
func ReadOnly(c Client) Client { return readOnlyClient{c} }

type readOnlyClient struct{ Client }

func (readOnlyClient) ApproveActivity(context.Context, string) (*api.Activity, error) {
	return nil, ErrReadOnly
}
func (readOnlyClient) RejectActivity(context.Context, string) (*api.Activity, error) {
	return nil, ErrReadOnly
}

// IsReadOnly reports whether c refuses every submit.
func IsReadOnly(c Client) bool {
	_, ok := c.(readOnlyClient)
	return ok
}

// Common is shared by the root model and every screen. Only the root model writes
// to it, in its Update.
type Common struct {
	Client  Client
	Theme   *theme.Theme
	Options theme.Options
	Now     func() time.Time // injected so views and tests are deterministic
	Profile string
	Timeout time.Duration // per call; default 15s
	Refresh time.Duration // auto-refresh interval of the profile; 0 = off
	Org     Org
	// Tick schedules a message after a delay (auto-refresh, toast expiry): tea.Tick,
	// replaced in tests so that nothing sleeps.
	Tick func(time.Duration, func(time.Time) tea.Msg) tea.Cmd
	// Log receives what the console did (votes, failures); never keys or stamps.
	// Everything from the server is cleaned before it is logged.
	Log *slog.Logger
	// Proofs are the apps and trust settings boot proofs and app proofs are
	// verified with.
	Proofs ProofSettings
}

// ReadOnly reports whether submits are disabled.
func (c *Common) ReadOnly() bool { return IsReadOnly(c.Client) }

// Org is what the console knows about the organization and the user.
type Org struct {
	Loaded    bool
	ID        string
	Name      string
	UserID    string
	UserName  string
	Quorum    api.Quorum
	Features  []api.Feature
	UserNames map[string]string // user id -> user name
	// PolicyNames maps policy id -> name, so evaluations read as names; a policy
	// created after the load shows by id until the next load.
	PolicyNames map[string]string
}

// ctx returns a context bounded by the per-call timeout; commands run outside
// Update, so they own their context.
func (c *Common) ctx() (context.Context, context.CancelFunc) {
	t := c.Timeout
	if t <= 0 {
		t = 15 * time.Second
	}
	return context.WithTimeout(context.Background(), t)
}

// orgLoadedMsg carries the organization, the user and the user list, fetched once
// at start (and on refresh of the Organization screen).
type orgLoadedMsg struct {
	org Org
	err error
}

// loadOrg fetches whoami, the organization configs, the users and the policies.
func loadOrg(c *Common) tea.Cmd {
	client := c.Client
	return func() tea.Msg {
		ctx, cancel := c.ctx()
		defer cancel()
		who, err := client.Whoami(ctx)
		if err != nil {
			return orgLoadedMsg{err: fmt.Errorf("whoami: %w", err)}
		}
		org := Org{Loaded: true, ID: who.OrganizationID, Name: who.OrganizationName,
			UserID: who.UserID, UserName: who.Username, UserNames: map[string]string{}, PolicyNames: map[string]string{}}
		cfg, err := client.GetOrganizationConfigs(ctx)
		if err != nil {
			return orgLoadedMsg{org: org, err: fmt.Errorf("organization configs: %w", err)}
		}
		org.Quorum, org.Features = cfg.Quorum, cfg.Features
		users, err := client.ListUsers(ctx)
		if err != nil {
			return orgLoadedMsg{org: org, err: fmt.Errorf("list users: %w", err)}
		}
		for _, u := range users {
			org.UserNames[u.UserID] = u.UserName
		}
		policies, err := client.ListPolicies(ctx)
		if err != nil {
			return orgLoadedMsg{org: org, err: fmt.Errorf("list policies: %w", err)}
		}
		for _, p := range policies {
			org.PolicyNames[p.PolicyID] = p.PolicyName
		}
		return orgLoadedMsg{org: org}
	}
}

// errorText turns an error into one line for the status bar or a toast. api errors
// already say what happened and what to do; the rest are wrapped with context.
func errorText(err error) string {
	if errors.Is(err, context.DeadlineExceeded) {
		return "the service did not answer in time; press r to retry"
	}
	return err.Error()
}
