// Package screens holds the console's screens and the root model that routes keys
// and messages between them. Screens never do I/O in Update: they return commands,
// whose results come back as messages named after the screen (activitiesLoadedMsg…).
package screens

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync/atomic"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/policy"
	"github.com/vigil-console/vigil/ui"
	"github.com/vigil-console/vigil/ui/theme"
)

// Reader is every query the screens make; *api.Client satisfies it. Queries never
// change anything, so a Reader is all a read-only console holds.
type Reader interface {
	ListActivities(ctx context.Context, opts api.ListActivitiesOptions) ([]api.Activity, error)
	GetActivity(ctx context.Context, activityID string) (*api.Activity, error)
	GetPolicyEvaluations(ctx context.Context, activityID string) ([]api.PolicyEvaluation, error)
	ListAppProofs(ctx context.Context, activityID string) ([]api.AppProof, error)
	Whoami(ctx context.Context) (*api.WhoamiResponse, error)
	GetOrganizationConfigs(ctx context.Context) (*api.OrganizationConfigs, error)
	ListUsers(ctx context.Context) ([]api.User, error)
	GetUser(ctx context.Context, userID string) (*api.User, error)
	ListPolicies(ctx context.Context) ([]api.Policy, error)
	GetPolicy(ctx context.Context, policyID string) (*api.Policy, error)
	GetAPIKey(ctx context.Context, apiKeyID string) (*api.APIKey, error)
	GetLatestBootProof(ctx context.Context, appName string) (*api.BootProof, error)
	GetBootProof(ctx context.Context, ephemeralKey string) (*api.BootProof, error)
	GetOnrampTransactionStatus(ctx context.Context, transactionID string, refresh bool) (string, error)
	GetMfaPolicies(ctx context.Context, userID string) ([]api.MfaPolicy, error)
	GetMfaPolicy(ctx context.Context, userID, mfaPolicyID string) (*api.MfaPolicy, error)
	GetMfaStatus(ctx context.Context, activityID, userID string) ([]api.MfaStatus, error)
}

// Submitter is every submit operation of SPEC.md, the votes included; *api.Client
// satisfies it. It is the only way a screen can change anything, and a read-only
// console has none (Common.Submitter is nil): a screen added later gets its
// submit capability from here or not at all.
type Submitter interface {
	OAuth(ctx context.Context, p api.OauthParams, opts ...api.SubmitOption) (*api.Activity, error)
	CreateInvitations(ctx context.Context, p api.CreateInvitationsParams, opts ...api.SubmitOption) (*api.Activity, error)
	CreateSmartContractInterface(ctx context.Context, p api.CreateSmartContractInterfaceParams, opts ...api.SubmitOption) (*api.Activity, error)
	SetOrganizationFeature(ctx context.Context, p api.SetOrganizationFeatureParams, opts ...api.SubmitOption) (*api.Activity, error)
	UpdateOauth2Credential(ctx context.Context, p api.UpdateOauth2CredentialParams, opts ...api.SubmitOption) (*api.Activity, error)
	CreatePolicy(ctx context.Context, p api.CreatePolicyParams, opts ...api.SubmitOption) (*api.Activity, error)
	DeleteWalletAccounts(ctx context.Context, p api.DeleteWalletAccountsParams, opts ...api.SubmitOption) (*api.Activity, error)
	CreateUserTag(ctx context.Context, p api.CreateUserTagParams, opts ...api.SubmitOption) (*api.Activity, error)
	DeleteAPIKeys(ctx context.Context, p api.DeleteAPIKeysParams, opts ...api.SubmitOption) (*api.Activity, error)
	CreateReadOnlySession(ctx context.Context, opts ...api.SubmitOption) (*api.Activity, error)
	DeleteTvcDeployment(ctx context.Context, p api.DeleteTvcDeploymentParams, opts ...api.SubmitOption) (*api.Activity, error)
	CreateMfaPolicy(ctx context.Context, p api.CreateMfaPolicyParams) (*api.Activity, error)
	ApproveActivity(ctx context.Context, fingerprint string, opts ...api.SubmitOption) (*api.Activity, error)
	RejectActivity(ctx context.Context, fingerprint string, opts ...api.SubmitOption) (*api.Activity, error)
	// Resubmit sends a submit whose outcome was unknown again, byte for byte:
	// the service answers with the activity the first attempt created, if it
	// did, instead of creating a second one (see earlierSubmit).
	Resubmit(ctx context.Context, prev *api.OutcomeUnknownError) (*api.Activity, error)
}

// errNoActivity is the error of a call that answered with neither an
// activity nor an error (a Reader or Submitter other than *api.Client may).
var errNoActivity = errors.New("the service returned no activity")

// activityOrError is a and err, or errNoActivity when neither came, so that
// no screen takes a nil activity for one.
func activityOrError(a *api.Activity, err error) (*api.Activity, error) {
	if err == nil && a == nil {
		return nil, errNoActivity
	}
	return a, err
}

// ErrReadOnly is what a submit key says in read-only mode.
var ErrReadOnly = errors.New("read-only: this console cannot vote or submit (started with --read-only or read_only = true)")

// queriesOnly hides everything of a Reader but its queries: *api.Client is a
// Submitter too, and a screen must not get one back with a type assertion
// (r.(Submitter)). NewRoot wraps every Reader in it.
type queriesOnly struct {
	r Reader
	// refused says whether the latest reply refused the console's own key
	// (a later answered read clears it): the root reads it in its Update
	// and locks the console out, or lifts it (root_lockout.go).
	refused *atomic.Bool
}

// note notes in refused whether err refused the console's key or the
// service answered, and passes err on. Other errors (the network, a
// timeout) say nothing about the key.
func (q queriesOnly) note(err error) error {
	switch {
	case api.KeyRefused(err):
		q.refused.Store(true)
	case err == nil:
		q.refused.Store(false)
	}
	return err
}

func (q queriesOnly) ListActivities(ctx context.Context, o api.ListActivitiesOptions) ([]api.Activity, error) {
	v, err := q.r.ListActivities(ctx, o)
	return v, q.note(err)
}
func (q queriesOnly) GetActivity(ctx context.Context, id string) (*api.Activity, error) {
	v, err := q.r.GetActivity(ctx, id)
	return v, q.note(err)
}
func (q queriesOnly) GetPolicyEvaluations(ctx context.Context, id string) ([]api.PolicyEvaluation, error) {
	v, err := q.r.GetPolicyEvaluations(ctx, id)
	return v, q.note(err)
}
func (q queriesOnly) ListAppProofs(ctx context.Context, id string) ([]api.AppProof, error) {
	v, err := q.r.ListAppProofs(ctx, id)
	return v, q.note(err)
}
func (q queriesOnly) Whoami(ctx context.Context) (*api.WhoamiResponse, error) {
	v, err := q.r.Whoami(ctx)
	return v, q.note(err)
}
func (q queriesOnly) GetOrganizationConfigs(ctx context.Context) (*api.OrganizationConfigs, error) {
	v, err := q.r.GetOrganizationConfigs(ctx)
	return v, q.note(err)
}
func (q queriesOnly) ListUsers(ctx context.Context) ([]api.User, error) {
	v, err := q.r.ListUsers(ctx)
	return v, q.note(err)
}
func (q queriesOnly) GetUser(ctx context.Context, id string) (*api.User, error) {
	v, err := q.r.GetUser(ctx, id)
	return v, q.note(err)
}
func (q queriesOnly) ListPolicies(ctx context.Context) ([]api.Policy, error) {
	v, err := q.r.ListPolicies(ctx)
	return v, q.note(err)
}
func (q queriesOnly) GetPolicy(ctx context.Context, id string) (*api.Policy, error) {
	v, err := q.r.GetPolicy(ctx, id)
	return v, q.note(err)
}
func (q queriesOnly) GetAPIKey(ctx context.Context, id string) (*api.APIKey, error) {
	v, err := q.r.GetAPIKey(ctx, id)
	return v, q.note(err)
}
func (q queriesOnly) GetLatestBootProof(ctx context.Context, app string) (*api.BootProof, error) {
	v, err := q.r.GetLatestBootProof(ctx, app)
	return v, q.note(err)
}
func (q queriesOnly) GetBootProof(ctx context.Context, key string) (*api.BootProof, error) {
	v, err := q.r.GetBootProof(ctx, key)
	return v, q.note(err)
}

func (q queriesOnly) GetOnrampTransactionStatus(ctx context.Context, id string, refresh bool) (string, error) {
	v, err := q.r.GetOnrampTransactionStatus(ctx, id, refresh)
	return v, q.note(err)
}
func (q queriesOnly) GetMfaPolicies(ctx context.Context, user string) ([]api.MfaPolicy, error) {
	v, err := q.r.GetMfaPolicies(ctx, user)
	return v, q.note(err)
}
func (q queriesOnly) GetMfaPolicy(ctx context.Context, user, id string) (*api.MfaPolicy, error) {
	v, err := q.r.GetMfaPolicy(ctx, user, id)
	return v, q.note(err)
}
func (q queriesOnly) GetMfaStatus(ctx context.Context, activity, user string) ([]api.MfaStatus, error) {
	v, err := q.r.GetMfaStatus(ctx, activity, user)
	return v, q.note(err)
}

// Common is shared by the root model and every screen. Only the root model writes
// to it, in its Update.
type Common struct {
	// Reader makes every query; it has no submit methods, not even behind a type
	// assertion.
	Reader Reader
	// Submitter makes every submit. It is nil in read-only mode: there is nothing
	// to submit with, so no key, form or screen added later can slip through.
	Submitter Submitter
	Theme     *theme.Theme
	Options   theme.Options
	Now       func() time.Time // the service's clock; injected so views and tests are deterministic
	// MachineNow is this machine's clock. What checks the service without
	// trusting it (a boot or app proof's age) is judged by it, never by Now:
	// the service sets Now through its replies' Date header, so a replayed
	// old proof could otherwise look minutes old.
	MachineNow func() time.Time
	Profile    string
	Timeout    time.Duration // per call; default 15s
	Refresh    time.Duration // auto-refresh interval of the profile; 0 = off
	// OrgLoadsStarted is the number of the newest organization load started
	// (Root.loadOrg numbers them), so that a screen waiting for a load it
	// asked for knows an older one's reply is not it.
	OrgLoadsStarted int
	// LockedOut says the service refuses the key the console signs with
	// (deleted or expired), "" while it does not: every poll stops, as each
	// could only fail.
	LockedOut string
	// AutoPaused: the user paused auto-refresh (p, on Activities or Users):
	// every poll the status bar reports as "auto" stops until p resumes it.
	AutoPaused bool
	Org        Org
	// Tick schedules a message after a delay (auto-refresh, toast expiry): tea.Tick,
	// replaced in tests so that nothing sleeps.
	Tick func(time.Duration, func(time.Time) tea.Msg) tea.Cmd
	// Log receives what the console did (votes, failures); never keys or stamps.
	// Everything from the server is cleaned before it is logged.
	Log *slog.Logger
	// Proofs are the apps and trust settings boot proofs and app proofs are
	// verified with.
	Proofs ProofSettings
	// Notify rings the terminal (OSC 9 / OSC 777 notification and a bell) when a
	// new activity waits for your vote (notify = true in the profile).
	Notify bool
	// SavedFilters are the profile's named filters of the All view.
	SavedFilters []SavedFilter
	// LoginKit fetches the auth proxy's login-kit configuration, shown on the
	// Organization screen; nil when the profile has no auth proxy.
	LoginKit LoginKitSource
	// AuthProxyURL is the profile's auth_proxy_url, for display.
	AuthProxyURL string
	// Webhooks is the console's webhook listener; nil when it runs none.
	Webhooks *WebhookFeed
	// NoWebhooksHint replaces the Webhooks screen's advice when there is no
	// listener ("" = set webhook_listen in the profile).
	NoWebhooksHint string
	// ConfigPath is the config file Profile was read from ("" = unknown): the
	// CLI commands the console suggests name it and the profile, so they run
	// on what the console runs on. CLIProfileNote says for how long they work
	// ("while this demo runs"), "" = always.
	ConfigPath, CLIProfileNote string
	// TLSFetcherPublicKey (hex) is the key OAuth2 client secrets are encrypted
	// to before they are sent; "" = the real service's published key.
	TLSFetcherPublicKey string
	// OwnPublicKey is the public key (hex) the console stamps with, "" when
	// unknown: deleting it would lock the console out, so the confirm says so.
	// OwnScheme is its scheme, "" when unknown: the same bytes may be a P-256
	// and a secp256k1 key of one user, and only the key of this curve is the
	// console's (api.APIKey.HasPublicKey).
	OwnPublicKey, OwnScheme string
	// Compiled keeps the organization's policies compiled, by their texts,
	// for every load (the organization's, the Policies screen's): a reload
	// of unchanged policies compiles nothing. Nil compiles on each load.
	Compiled *policy.CompileCache
}

// consoleCompileBudget bounds the compiled policies the console keeps (as
// estimated by policy.CompiledSize). It holds an organization at the
// service's cap on its policies (32 MiB of text, about 770 MiB estimated):
// the loaded organization holds those programs anyway, and a cache smaller
// than one load would evict each policy before the next load reads it.
const consoleCompileBudget = 1 << 30

// ReadOnly reports whether the console has no submitter.
func (c *Common) ReadOnly() bool { return c.Submitter == nil }

// submitter is where every submit command starts: the console's Submitter, or
// ErrReadOnly when it has none.
func (c *Common) submitter() (Submitter, error) {
	if c.Submitter == nil {
		return nil, ErrReadOnly
	}
	return c.Submitter, nil
}

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
	// created after the load shows by id until the next load (an evaluation
	// that names an unknown policy asks for one).
	PolicyNames map[string]string
	// TagNames maps user tag id -> name, from the completed create_user_tag
	// activities (the service has no query for tags): a tag no activity
	// names, or one created since the load, is an unknown tag.
	TagNames map[string]string
	// TagNamesComplete: TagNames holds every tag (the walk was not cut short
	// nor stopped by an error), so a tag not in it does not exist.
	TagNamesComplete bool
	// APIKeyNames maps API key id -> name, from the users, so that a
	// delete_api_keys names the keys it deletes.
	APIKeyNames map[string]string
	// Users are the members as list_users gave them, so that the vote
	// dialog names the user an oauth activity's token signs in (their
	// oauthProviders link OIDC subjects to users).
	Users []api.User
	// Policies are the policies as list_policies gave them (the Policies
	// screen shows them after a reload, rather than reading them again).
	Policies []api.Policy
	// OwnMfaPolicies are the signed-in member's MFA policies as
	// get_mfa_policies gave them, in evaluation order, for the approve
	// dialog's warning, as the CLI's approve reads them: a service's user
	// records may leave mfaPolicies out. OwnMfaPoliciesErr says why they
	// are missing (then the dialog falls back on the user record).
	OwnMfaPolicies    []api.MfaPolicy
	OwnMfaPoliciesErr error
	// Eval is what explaining an evaluation needs: members with their tags,
	// the quorum, the policies compiled.
	Eval evaluationContext
	// contents sums what the screens show of the load (orgContents), so the
	// root tells a load that changed them without comparing megabytes in
	// Update; contentsSummed is false when it could not be summed.
	contents       [32]byte
	contentsSummed bool
}

// defaultTimeout is the per-call timeout when the profile sets none.
const defaultTimeout = 15 * time.Second

// timeout is how long a command's calls may take: Timeout, or the default.
func (c *Common) timeout() time.Duration {
	if c.Timeout <= 0 {
		return defaultTimeout
	}
	return c.Timeout
}

// ctx returns a context bounded by the per-call timeout; commands run outside
// Update, so they own their context.
func (c *Common) ctx() (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.Background(), c.timeout())
}

// orgLoadedMsg carries the organization, the user and the user list, fetched once
// at start (and on refresh of the Organization screen).
type orgLoadedMsg struct {
	load int // the load's number (Root.loadOrg), so an older one landing last is dropped
	org  Org
	err  error
	// changed: the root applied this load, and what the screens show of it
	// (orgContents) differs from the organization it held. Set by the root
	// before it hands the load on: every screen with data takes it,
	// whoever asked for the load (orgLoadTaken).
	changed bool
}

// loadOrg fetches whoami, the organization configs, the users and the
// policies; load numbers it (only the root starts one: reloadOrgMsg).
func loadOrg(c *Common, load int) tea.Cmd {
	return func() tea.Msg {
		msg := readOrg(c, load)
		if msg.org.Loaded {
			msg.org.contents, msg.org.contentsSummed = orgContents(&msg.org)
		}
		return msg
	}
}

// readOrg reads what loadOrg loads.
func readOrg(c *Common, load int) orgLoadedMsg {
	client := c.Reader
	ctx, cancel := c.ctx()
	defer cancel()
	who, err := client.Whoami(ctx)
	if err != nil {
		return orgLoadedMsg{load: load, err: fmt.Errorf("whoami: %w", err)}
	}
	org := Org{Loaded: true, ID: who.OrganizationID, Name: who.OrganizationName,
		UserID: who.UserID, UserName: who.Username, UserNames: map[string]string{}, PolicyNames: map[string]string{}, TagNames: map[string]string{}}
	org.OwnMfaPolicies, org.OwnMfaPoliciesErr = client.GetMfaPolicies(ctx, who.UserID)
	if org.OwnMfaPoliciesErr != nil {
		org.OwnMfaPolicies, org.OwnMfaPoliciesErr = nil, fmt.Errorf("get_mfa_policies: %w", org.OwnMfaPoliciesErr)
	}
	cfg, err := client.GetOrganizationConfigs(ctx)
	if err != nil {
		return orgLoadedMsg{load: load, org: org, err: fmt.Errorf("organization configs: %w", err)}
	}
	org.Quorum, org.Features = cfg.Quorum, cfg.Features
	// The user list may fail alone (it grows with the organization): the
	// policies, tag names and quorum still load, and the error says why
	// the users are missing.
	users, usersErr := client.ListUsers(ctx)
	if usersErr != nil {
		usersErr = fmt.Errorf("list users: %w", usersErr)
	}
	org.APIKeyNames = map[string]string{}
	org.Users = users
	for _, u := range users {
		org.UserNames[u.UserID] = u.UserName
		for _, k := range u.APIKeys {
			org.APIKeyNames[k.APIKeyID] = k.APIKeyName
		}
	}
	policies, err := client.ListPolicies(ctx)
	if err != nil {
		return orgLoadedMsg{load: load, org: org, err: errors.Join(usersErr, fmt.Errorf("list policies: %w", err))}
	}
	org.Policies = policies
	for _, p := range policies {
		org.PolicyNames[p.PolicyID] = p.PolicyName
	}
	// Without the members' tags a prediction could be wrong: none then,
	// as when nothing loaded.
	if usersErr == nil {
		org.Eval = newEvaluationContext(c.Compiled, users, *cfg, policies)
	}
	// Best effort: without them a tag shows by id, as an unknown tag.
	names, err := tagNames(ctx, client)
	org.TagNames, org.TagNamesComplete = names, err == nil
	return orgLoadedMsg{load: load, org: org, err: usersErr}
}

// tagNames maps the organization's user tag ids to their names, read from
// its completed create_user_tag activities (api.UserTagNames: the service
// has no query for tags). What was read before an error is returned with it.
func tagNames(ctx context.Context, client Reader) (map[string]string, error) {
	return api.UserTagNames(ctx, client)
}

// errorText turns an error into one line for the status bar or a toast. api errors
// already say what happened and what to do; the rest are wrapped with context.
func errorText(err error) string {
	var apiErr *api.Error
	if api.KeyRefused(err) && errors.As(err, &apiErr) {
		return apiErr.Unadvised() + ": " + lockedOutAdvice
	}
	// A submit that timed out may have been recorded: its own words say so,
	// where "retry" would be the wrong advice.
	if errors.Is(err, context.DeadlineExceeded) && !errors.Is(err, api.ErrOutcomeUnknown) {
		return "the service did not answer in time; press r to retry"
	}
	return err.Error()
}

// selectedIn is the item of items whose id (idOf) is the id of the list's
// selected row; nil when no row is selected or the item is gone.
func selectedIn[T any](list *ui.ListDetail, items []T, idOf func(*T) string) *T {
	id := list.Table.SelectedID()
	for i := range items {
		if idOf(&items[i]) == id {
			return &items[i]
		}
	}
	return nil
}

// notLoaded is what a list says in place of its empty text when it has never
// loaded (fetched is zero): why, rather than that there is nothing. Once
// loaded, a failed refresh keeps the rows and the status bar says it failed.
func notLoaded(fetched time.Time, err string) string {
	if !fetched.IsZero() {
		return ""
	}
	return "not loaded: " + err + " (refresh to try again)"
}
