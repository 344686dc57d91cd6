package policy

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/keys"
)

// This file builds an evaluation's Input from the service's records. The local
// service (server/evaluate.go) and the console's simulator and explanations
// both go through InputFor, so what the simulator evaluates cannot drift from
// what the service decides.

// RootOnly reports whether only the root quorum can approve activities of this
// type (the policies are never consulted).
func RootOnly(activityType string) bool { return activityType == api.TypeSetOrganizationFeature }

// ChangesNoRecords reports whether a completed activity of this type is known
// to change none of the records a prediction reads or the console loads with
// the organization: policies, users with their API keys, authenticators,
// tags and OAuth providers, the root quorum, features, MFA policies. The
// table names the inert types; every other type, one vigil does not know
// included, may change them (failing closed: the console reloads).
func ChangesNoRecords(activityType string) bool {
	switch activityType {
	case api.TypeCreateReadOnlySession, // a session, no API key
		api.TypeCreateInvitations,
		api.TypeCreateSmartContractInterface,
		api.TypeDeleteTvcDeployment,
		api.TypeDeleteWalletAccounts:
		return true
	}
	return false
}

// Members maps every user of the organization to the approver they are when
// they approve: their tags, whether they belong to the root quorum
// (cfg.Quorum), and the credentials registered to them. cfg.Features says
// whether a passkey counts as a credential that signs (api.PasskeysSign), as
// for the service's quorum guard: StrandsRootMember follows the same rule.
func Members(users []api.User, cfg api.OrganizationConfigs) map[string]Approver {
	quorum, passkeysSign := cfg.Quorum, api.PasskeysSign(cfg.Features)
	out := make(map[string]Approver, len(users))
	for _, u := range users {
		registered := make([]Credential, 0, len(u.APIKeys)+len(u.Authenticators))
		for _, k := range u.APIKeys {
			registered = append(registered, Credential{ID: k.APIKeyID, Type: k.Credential.Type,
				PublicKey: k.Credential.PublicKey, UserID: u.UserID})
		}
		for _, a := range u.Authenticators {
			registered = append(registered, Credential{ID: a.AuthenticatorID, Type: a.Credential.Type,
				PublicKey: a.Credential.PublicKey, UserID: u.UserID, CredentialID: a.CredentialID})
		}
		out[u.UserID] = Approver{ID: u.UserID, Name: u.UserName, Email: u.UserEmail,
			Tags: append([]string{}, u.UserTags...), Root: slices.Contains(quorum.UserIDs, u.UserID), Registered: registered,
			signer: u, passkeysSign: passkeysSign}
	}
	return out
}

// QuorumOf converts the wire root quorum.
func QuorumOf(q api.Quorum) Quorum {
	return Quorum{Threshold: q.Threshold, UserIDs: slices.Clone(q.UserIDs)}
}

// A Ballot is a vote with the credential it was cast with. The service
// records that credential with the vote; a vote record it returns names only
// the stamp's public key and scheme, and VoteCredential finds the credential
// from them.
type Ballot struct {
	Vote api.Vote
	// Credential is the API key or authenticator that cast the vote: its ID,
	// Type and (passkeys) CredentialID. A zero Type means unknown (a vote cast
	// with a credential deleted since): the policies then see no id and the
	// type the stamp's scheme implies.
	Credential Credential
}

// InputFor is the input of an evaluation of an activity of type typ with these
// parameters after these votes (in the order cast): the approvers are the
// members who approved, the credentials those approvals were made with. A
// vote by somebody who is not a member adds a credential but no approver.
// A vote cast with a key that an earlier ballot, another user's, was cast
// with counts for nothing.
// The requester is left empty: the caller sets Input.Requester from the
// activity's record of its submitter, as the first ballot given may be that
// of a later round.
func InputFor(typ string, params any, ballots []Ballot, members map[string]Approver, now time.Time) Input {
	in := Input{Activity: ActivityFor(typ, params), Now: now}
	votedAs := map[string]string{} // signing key: the user whose vote it cast first
	for _, b := range ballots {
		v := b.Vote
		if v.PublicKey != "" {
			key := keys.SigningKeyOf(v.Scheme, v.PublicKey)
			if first, ok := votedAs[key]; ok && first != v.UserID {
				// One private key is one vote: an earlier vigil let a key be
				// two users' credential, and the service now refuses the
				// second vote (KEY_ALREADY_VOTED), but one cast before counts
				// for nobody.
				continue
			}
			votedAs[key] = v.UserID
		}
		if v.Selection != api.VoteApproved {
			continue
		}
		if u, ok := members[v.UserID]; ok {
			in.Approvers = append(in.Approvers, u)
		}
		c := b.Credential
		if c.Type == "" {
			c = Credential{Type: api.CredentialTypeOfScheme(v.Scheme)}
		}
		c.PublicKey, c.UserID = v.PublicKey, v.UserID
		in.Credentials = append(in.Credentials, c)
	}
	return in
}

// VoteCredential is the credential among the voter's registered ones that
// cast v: the passkey or the API key with the vote's public key on the
// curve of its scheme (the service keeps an organization's API keys unique
// on curve and bytes, and one user may hold the same bytes on P-256 and
// secp256k1, two keys). It is the zero Credential when the voter has none
// such any more.
func VoteCredential(v api.Vote, members map[string]Approver) Credential {
	passkey := v.Scheme == api.SchemeWebAuthn
	curve := keys.CurveOfCredentialType(keys.CredentialTypeOfScheme(v.Scheme))
	for _, c := range members[v.UserID].Registered {
		if (c.CredentialID != "") == passkey && strings.EqualFold(c.PublicKey, v.PublicKey) &&
			(passkey || keys.CurveOfCredentialType(c.Type) == curve) {
			return c
		}
	}
	return Credential{}
}

// CredentialDoubt is why a prediction made from the service's records may
// differ from what the service decides: approvals cast with a key deleted
// since, whose credential the records no longer name (VoteCredential), and
// policies whose consensus reads which credential approved. The service
// recorded that credential with each vote, so it still knows it.
type CredentialDoubt struct {
	Lost    []api.Vote // approvals whose credential is not among the voter's
	Readers []Policy   // policies that read credentials' id, type or credential_id
}

// Uncertain reports whether the doubt can change a decision: both a lost
// credential and a policy that reads it.
func (d CredentialDoubt) Uncertain() bool { return len(d.Lost) > 0 && len(d.Readers) > 0 }

// Explain says the doubt in one sentence, "uncertain: …": voter names a
// voter by user id, reader is who cannot see the deleted key ("the
// console"). Policy names are quoted and ids sanitized; voter's names are
// taken as given.
func (d CredentialDoubt) Explain(voter func(userID string) string, reader string) string {
	var voters []string
	for _, v := range d.Lost {
		voters = append(voters, voter(v.UserID))
	}
	return "uncertain: " + strings.Join(voters, ", ") + " approved with a key deleted since, and " + d.ReadersNamed() +
		" reads which credential approved; the service still knows that key, " +
		reader + " does not, so the service may decide otherwise"
}

// ReadersNamed names d.Readers: "policy …" or "policies …, …", names
// quoted and ids sanitized.
func (d CredentialDoubt) ReadersNamed() string {
	var readers []string
	for _, p := range d.Readers {
		l := api.SanitizeID(p.ID)
		if p.Name != "" {
			l = api.Quote(p.Name) + " (" + l + ")"
		}
		readers = append(readers, l)
	}
	noun := "policy "
	if len(readers) > 1 {
		noun = "policies "
	}
	return noun + strings.Join(readers, ", ")
}

// DoubtOfVotes is the CredentialDoubt of deciding with these votes (the
// approvals among them count) and these policies.
func DoubtOfVotes(policies []Policy, votes []api.Vote, members map[string]Approver) CredentialDoubt {
	var d CredentialDoubt
	for _, p := range policies {
		if p.Compiled != nil && p.Compiled.ReadsCredentialIdentity() {
			d.Readers = append(d.Readers, p)
		}
	}
	for _, v := range votes {
		if v.Selection == api.VoteApproved && VoteCredential(v, members).Type == "" {
			d.Lost = append(d.Lost, v)
		}
	}
	return d
}

// ballotsOf pairs vote records with the credentials that cast them.
func ballotsOf(votes []api.Vote, members map[string]Approver) []Ballot {
	out := make([]Ballot, len(votes))
	for i, v := range votes {
		out[i] = Ballot{Vote: v, Credential: VoteCredential(v, members)}
	}
	return out
}

// InputOfActivity is InputFor an activity record as the service returns it,
// counting all of its votes (InputUpToVote counts those up to one). now is the evaluation's time (a stored
// evaluation's createdAt); when zero, the time of the last approval counted,
// or of the activity's creation: the last moment the service acted on a
// decision. A rejection re-evaluates only to ask whether consensus can still
// be reached; the service never completes or fails an activity on it, so a
// time window that opened by the rejection's time did not decide anything.
//
// The requester is the first vote's when that vote was cast in the
// activity's first round (the submission is the first vote); a record that
// shows only a later round cannot tell, and the input is RequesterUnknown.
// StrandsRootMember is worked out from the members' records (Members).
func InputOfActivity(a api.Activity, members map[string]Approver, now time.Time) Input {
	return inputOfVotes(a, a.Votes, members, now)
}

// InputUpToVote is InputOfActivity counting the votes cast up to and
// including vote upTo. The service returns only the votes of the activity's
// last 24-hour round; when upTo is not among them the input cannot be
// rebuilt, and the error says so: deciding on the votes that remain would
// explain the evaluation on other approvers (ErrVoteNotReturned; a is to be
// read after the evaluation, or it may just predate the vote).
func InputUpToVote(a api.Activity, members map[string]Approver, upTo string, now time.Time) (Input, error) {
	i := slices.IndexFunc(a.Votes, func(v api.Vote) bool { return v.ID == upTo })
	if i < 0 {
		return Input{}, fmt.Errorf("vote %s: %w", api.SanitizeID(upTo), ErrVoteNotReturned)
	}
	return inputOfVotes(a, a.Votes[:i+1], members, now), nil
}

// inputOfVotes is InputOfActivity counting votes, a prefix of a.Votes.
func inputOfVotes(a api.Activity, votes []api.Vote, members map[string]Approver, now time.Time) Input {
	requester := SubmitterOf(a)
	if now.IsZero() {
		now = a.CreatedAt.Time()
		for _, v := range slices.Backward(votes) {
			if t := v.CreatedAt.Time(); v.Selection == api.VoteApproved && !t.IsZero() {
				now = t
				break
			}
		}
	}
	_, params := a.Intent.Params()
	in := InputFor(a.Type, params, ballotsOf(votes, members), members, now)
	in.Requester, in.RequesterUnknown = requester, requester == ""
	in.StrandsRootMember = strandsRootMember(params, members, now)
	return in
}

// SubmitterOf is the id of the user who submitted a (api.SubmitterOf,
// where the intent check holds a verified submission to it too).
func SubmitterOf(a api.Activity) string { return api.SubmitterOf(a) }

// strandsRootMember reports whether a delete_api_keys would leave a root
// member with no credential that can sign, from the members' records at now
// (the current time when zero), counting passkeys only where the
// organization's features let them sign (Members), as the service does. A
// member whose record is unknown counts as stranded: the own-credentials
// permission then fails closed.
func strandsRootMember(params any, members map[string]Approver, now time.Time) bool {
	var p api.DeleteAPIKeysParams
	switch v := params.(type) {
	case *api.DeleteAPIKeysParams:
		if v == nil {
			return false
		}
		p = *v
	case api.DeleteAPIKeysParams:
		p = v
	default:
		return false
	}
	owner, ok := members[p.UserID]
	if !ok || !owner.Root {
		return false
	}
	if owner.signer.UserID == "" {
		return true
	}
	if now.IsZero() {
		now = time.Now()
	}
	loss := api.KeyDeletionLoss([]api.User{owner.signer}, api.Quorum{UserIDs: []string{p.UserID}}, now, p.UserID, p.APIKeyIDs, owner.passkeysSign)
	return loss.Stranded != ""
}

// PoliciesOf compiles the organization's policy records, in the order given
// (list_policies returns them in creation order, the order the service
// evaluates them). A record that does not compile has its error returned
// beside; as in the service, an allow is left out (it could only allow
// more) and a deny is kept with its CompileErr, so Decide fails closed on it.
// Records are compiled as the service loads them (CompileStored).
func PoliciesOf(records []api.Policy) ([]Policy, []error) {
	return policiesOf(records, CompileStored)
}

// policiesOf is PoliciesOf with compile doing the compiling.
func policiesOf(records []api.Policy, compile func(Source) (*Compiled, error)) ([]Policy, []error) {
	out := make([]Policy, 0, len(records))
	var errs []error
	for _, r := range records {
		c, err := compile(Source{Condition: r.Condition, Consensus: r.Consensus, Time: r.Time})
		if err != nil {
			errs = append(errs, fmt.Errorf("policy %s: %w", r.PolicyID, err))
			if r.Effect == api.EffectDeny {
				out = append(out, Policy{ID: r.PolicyID, Name: r.PolicyName, Effect: r.Effect, CompileErr: err})
			}
			continue
		}
		out = append(out, Policy{ID: r.PolicyID, Name: r.PolicyName, Effect: r.Effect, Compiled: c})
	}
	return out, errs
}
