package screens

import (
	"context"
	"sync/atomic"

	"github.com/vigil-console/vigil/api"
)

// submitsNoted passes every submit and vote on to s and notes, as
// queriesOnly does for reads, whether the service refused the console's key:
// a vote refused because the key was deleted or expired locks the console
// out as a refused read does (Root.syncLockOut), with the same remedy.
type submitsNoted struct {
	s       Submitter
	refused *atomic.Bool
}

// note is queriesOnly.note on the same flag: the latest reply, read or
// submit, decides.
func (n submitsNoted) note(a *api.Activity, err error) (*api.Activity, error) {
	return a, queriesOnly{refused: n.refused}.note(err)
}

func (n submitsNoted) OAuth(ctx context.Context, p api.OauthParams, opts ...api.SubmitOption) (*api.Activity, error) {
	return n.note(n.s.OAuth(ctx, p, opts...))
}
func (n submitsNoted) CreateInvitations(ctx context.Context, p api.CreateInvitationsParams, opts ...api.SubmitOption) (*api.Activity, error) {
	return n.note(n.s.CreateInvitations(ctx, p, opts...))
}
func (n submitsNoted) CreateSmartContractInterface(ctx context.Context, p api.CreateSmartContractInterfaceParams, opts ...api.SubmitOption) (*api.Activity, error) {
	return n.note(n.s.CreateSmartContractInterface(ctx, p, opts...))
}
func (n submitsNoted) SetOrganizationFeature(ctx context.Context, p api.SetOrganizationFeatureParams, opts ...api.SubmitOption) (*api.Activity, error) {
	return n.note(n.s.SetOrganizationFeature(ctx, p, opts...))
}
func (n submitsNoted) UpdateOauth2Credential(ctx context.Context, p api.UpdateOauth2CredentialParams, opts ...api.SubmitOption) (*api.Activity, error) {
	return n.note(n.s.UpdateOauth2Credential(ctx, p, opts...))
}
func (n submitsNoted) CreatePolicy(ctx context.Context, p api.CreatePolicyParams, opts ...api.SubmitOption) (*api.Activity, error) {
	return n.note(n.s.CreatePolicy(ctx, p, opts...))
}
func (n submitsNoted) DeleteWalletAccounts(ctx context.Context, p api.DeleteWalletAccountsParams, opts ...api.SubmitOption) (*api.Activity, error) {
	return n.note(n.s.DeleteWalletAccounts(ctx, p, opts...))
}
func (n submitsNoted) CreateUserTag(ctx context.Context, p api.CreateUserTagParams, opts ...api.SubmitOption) (*api.Activity, error) {
	return n.note(n.s.CreateUserTag(ctx, p, opts...))
}
func (n submitsNoted) DeleteAPIKeys(ctx context.Context, p api.DeleteAPIKeysParams, opts ...api.SubmitOption) (*api.Activity, error) {
	return n.note(n.s.DeleteAPIKeys(ctx, p, opts...))
}
func (n submitsNoted) CreateReadOnlySession(ctx context.Context, opts ...api.SubmitOption) (*api.Activity, error) {
	return n.note(n.s.CreateReadOnlySession(ctx, opts...))
}
func (n submitsNoted) DeleteTvcDeployment(ctx context.Context, p api.DeleteTvcDeploymentParams, opts ...api.SubmitOption) (*api.Activity, error) {
	return n.note(n.s.DeleteTvcDeployment(ctx, p, opts...))
}
func (n submitsNoted) CreateMfaPolicy(ctx context.Context, p api.CreateMfaPolicyParams) (*api.Activity, error) {
	return n.note(n.s.CreateMfaPolicy(ctx, p))
}
func (n submitsNoted) ApproveActivity(ctx context.Context, fingerprint string, opts ...api.SubmitOption) (*api.Activity, error) {
	return n.note(n.s.ApproveActivity(ctx, fingerprint, opts...))
}
func (n submitsNoted) RejectActivity(ctx context.Context, fingerprint string, opts ...api.SubmitOption) (*api.Activity, error) {
	return n.note(n.s.RejectActivity(ctx, fingerprint, opts...))
}
func (n submitsNoted) Resubmit(ctx context.Context, prev *api.OutcomeUnknownError) (*api.Activity, error) {
	return n.note(n.s.Resubmit(ctx, prev))
}
