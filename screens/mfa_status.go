package screens

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/policy"
	"github.com/vigil-console/vigil/ui"
)

// authType shows an authentication type: a known one without its prefix
// (PASSKEY), another quoted and marked unknown (api.AuthTypeText).
func authType(t string) string { return ui.Clean(api.AuthTypeText(t)) }

// credentials names a user's authenticators and API keys by id, so a step that
// requires one credential says which: ids alone are UUIDv7, whose first
// characters are a timestamp shared by everything created the same minute.
type credentials struct {
	names  map[string]string // id -> name, of the user the steps belong to
	proves map[string]string // id -> the method type a vote with it proves; nil when unknown
	// expired: id -> when each of the user's API keys that has expired did
	// (consoleCredentials, at the console's clock); such a key signs nothing.
	expired map[string]time.Time
	full    bool              // whole ids (a detail, a confirm); else their end
	known   bool              // the user's credentials are known: a pin to another id is never met
	own     policy.SigningKey // the console's API key, when the user is the signed-in one (ownkey.go)
}

// credentialsOf reads the names of u's credentials, and the method type each
// proves; u may be nil (unknown).
func credentialsOf(u *api.User, full bool) credentials {
	c := credentials{names: map[string]string{}, proves: map[string]string{}, full: full}
	if u != nil {
		c.known = true
		c.proves = api.CredentialMethodTypes(*u)
		for _, a := range u.Authenticators {
			c.names[a.AuthenticatorID] = a.AuthenticatorName
		}
		for _, k := range u.APIKeys {
			c.names[k.APIKeyID] = k.APIKeyName
		}
	}
	return c
}

// neverMet reports whether method m is pinned to a credential of the user
// that cannot prove its type (an API_KEY pinned to a passkey), to an id
// that is none of the user's credentials (proves is then ""), or to an API
// key of theirs that has expired (proves is then its type, m's): the user
// votes with their own credentials only, and an expired key signs nothing,
// so no vote satisfies it. When the user's credentials are not known, a pin
// is not judged.
func (c credentials) neverMet(m api.AuthenticationMethod) (proves string, never bool) {
	if m.ID == "" {
		return "", false
	}
	proves, known := c.proves[m.ID]
	if !known {
		return "", c.known
	}
	return proves, proves != m.Type || !c.expired[m.ID].IsZero()
}

// unmeetablePins explains each pinned method of steps that no vote can
// satisfy, in plain words, one line each.
func unmeetablePins(steps []api.AuthenticationStep, creds credentials) []string {
	var out []string
	for i, s := range steps {
		for _, m := range s.Any {
			proves, never := creds.neverMet(m)
			if !never {
				continue
			}
			if proves == "" {
				out = append(out, fmt.Sprintf("⚠ step %d: %s can never be met: it is pinned to %s, which is not a credential of this user (their votes prove only their own). Edit the policy: pin one of the user's credentials, or none.",
					i+1, authType(m.Type), creds.text(m.ID)))
				continue
			}
			if at := creds.expired[m.ID]; proves == m.Type && !at.IsZero() {
				out = append(out, fmt.Sprintf("⚠ step %d: %s can never be met: it is pinned to API key %s, which expired at %s and signs nothing. Edit the policy: pin a key that has not expired, or none.",
					i+1, authType(m.Type), creds.text(m.ID), at.UTC().Format(time.RFC3339)))
				continue
			}
			out = append(out, fmt.Sprintf("⚠ step %d: %s can never be met: it is pinned to %s %s, whose votes prove %s, not %s. Edit the policy: pin a credential that proves %s, or none.",
				i+1, authType(m.Type), api.CredentialKind(proves), creds.text(m.ID), authType(proves), authType(m.Type), authType(m.Type)))
		}
	}
	return out
}

// text names one credential: `"YubiKey 5" …8e6f28c3` or, whole,
// `"YubiKey 5" 01a220b0-ff73-7253-8311-01558e6f28c3`.
func (c credentials) text(id string) string {
	shown := api.SanitizeID(id)
	if !c.full {
		shown = idTail(shown)
	}
	if n, ok := c.names[id]; ok {
		return api.Quote(n) + " " + shown
	}
	return shown
}

// idTail is the end of an id: the random part of a UUIDv7, which tells ids
// created the same minute apart (their beginning does not).
func idTail(id string) string {
	const n = 8
	r := []rune(id)
	if len(r) <= n+1 {
		return id
	}
	return "…" + string(r[len(r)-n:])
}

// describeMethods reads a step's methods: `EMAIL_OTP, PASSKEY (authenticator
// "YubiKey" …8e6f28c3)`.
func describeMethods(ms []api.AuthenticationMethod, creds credentials) string {
	parts := make([]string, len(ms))
	for i, m := range ms {
		parts[i] = authType(m.Type)
		if m.ID != "" {
			// The credential as what it is, where known: a pin to the
			// wrong kind is not passed off as the kind the method wants.
			kind := m.Type
			if proves, known := creds.proves[m.ID]; known {
				kind = proves
			}
			mine := ""
			if kind == api.AuthAPIKey {
				switch is, sure := creds.own.Is(m.ID); {
				case is:
					mine = ", this console's key"
				case sure:
					mine = ", not this console's key"
				}
			}
			parts[i] += fmt.Sprintf(" (%s %s%s)", api.CredentialKind(kind), creds.text(m.ID), mine)
			if _, never := creds.neverMet(m); never {
				parts[i] += " [never met]"
			}
		}
	}
	return strings.Join(parts, ", ")
}

// describeSteps reads a policy's steps as a sequence, one line per step.
func describeSteps(steps []api.AuthenticationStep, creds credentials) []string {
	out := make([]string, len(steps))
	for i, s := range steps {
		out[i] = fmt.Sprintf("step %d: any of %s", i+1, describeMethods(s.Any, creds))
	}
	return out
}

// stepSatisfied reports whether step number i is satisfied: the service
// lists the proof of each step satisfied, in step order, each once, so step i
// is ticked by the i-th proof alone. Matching any proof against any step
// would tick both steps of a two-step policy met by one credential.
func stepSatisfied(steps []api.AuthenticationStep, i int, done []api.AuthenticationMethod) bool {
	if i >= len(done) {
		return false
	}
	d := done[i]
	// A method without an id is satisfied by any id of its type.
	return slices.ContainsFunc(steps[i].Any, func(m api.AuthenticationMethod) bool {
		return d.Type == m.Type && (m.ID == "" || m.ID == d.ID)
	})
}

// describeMfaStatus reads one voter's MFA status: the policy that applies, and
// each step satisfied or still missing.
func describeMfaStatus(st api.MfaStatus, userName, policyName string, creds credentials) []string {
	who := api.NameText(userName)
	if userName == "" {
		who = api.SanitizeID(st.UserID)
	}
	pol := api.Quote(policyName)
	if policyName == "" {
		pol = api.SanitizeID(st.MfaPolicyID)
	}
	if st.MfaPolicyID == "" {
		return []string{who + ": no MFA policy applies"}
	}
	verdict := "satisfied"
	if !st.Satisfied {
		verdict = "NOT satisfied"
	}
	// The verdict comes first: a name cannot pass its own words for it.
	out := []string{fmt.Sprintf("%s — %s: policy %s", verdict, ui.Clean(who), pol)}
	// Steps are satisfied in sequence: after a missing one, none is ticked.
	inSequence := true
	for i, s := range st.RequiredMethods {
		inSequence = inSequence && stepSatisfied(st.RequiredMethods, i, st.SatisfiedMethods)
		if inSequence {
			out = append(out, fmt.Sprintf("  ✓ step %d: %s", i+1, describeMethods(s.Any, creds)))
		} else {
			out = append(out, fmt.Sprintf("  ✗ step %d missing: any of %s", i+1, describeMethods(s.Any, creds)))
		}
	}
	return out
}

// activityMfaMsg brings every voter's MFA status for a pending activity; gen
// is the detail's loadExtras that asked.
type activityMfaMsg struct {
	id       string
	gen      int
	statuses []api.MfaStatus
	names    map[string]string // MFA policy id -> name, where get_mfa_policy answered
	err      error
}

// loadActivityMfa asks get_mfa_status for every voter of a pending activity;
// a finished activity has nothing left to satisfy.
func loadActivityMfa(c *Common, act api.Activity, gen int) tea.Cmd {
	switch act.Status {
	case api.StatusConsensusNeeded, api.StatusCreated, api.StatusPending, api.StatusAuthenticatorsNeeded:
	default:
		return nil
	}
	id, client := act.ID, c.Reader
	return func() tea.Msg {
		ctx, cancel := c.ctx()
		defer cancel()
		st, err := client.GetMfaStatus(ctx, id, "")
		if err != nil {
			return activityMfaMsg{id: id, gen: gen, err: fmt.Errorf("get_mfa_status %s: %w", api.SanitizeID(id), err)}
		}
		// Names are best effort: a policy that cannot be read shows by id.
		names := map[string]string{}
		for _, s := range st {
			if s.MfaPolicyID == "" || names[s.MfaPolicyID] != "" {
				continue
			}
			if p, err := client.GetMfaPolicy(ctx, s.UserID, s.MfaPolicyID); err == nil && p != nil {
				names[s.MfaPolicyID] = p.MfaPolicyName
			}
		}
		return activityMfaMsg{id: id, gen: gen, statuses: st, names: names}
	}
}

// applyMfa keeps the statuses of the open activity; d may be nil (closed).
// A reply to an earlier loadExtras is dropped, and so is any reply once the
// activity settled: a settled activity has no MFA status left to show, and
// a status asked for while it was pending would say a vote is still missing.
func (d *activityDetail) applyMfa(msg activityMfaMsg, c *Common) {
	if d == nil || msg.id != d.activity.ID || msg.gen != d.extrasGen || api.IsTerminal(d.activity.Status) {
		return
	}
	d.mfa = &msg
	d.render(c)
}

// renderMfa adds the MFA status section of a pending activity.
func (d *activityDetail) renderMfa(b *ui.DetailBuilder, c *Common) {
	if d.mfa == nil || (d.mfa.err == nil && len(d.mfa.statuses) == 0) {
		return // no voter has an MFA policy: nothing to say
	}
	// The service lists only the voters an MFA policy applies to.
	n := len(d.mfa.statuses)
	what := "voters with an MFA policy"
	if n == 1 {
		what = "voter with an MFA policy"
	}
	b.Section(fmt.Sprintf("MFA status (%d %s)", n, what))
	if d.mfa.err != nil {
		b.Styled(c.Theme.Bad.Render(ui.Clean(errorText(d.mfa.err))))
		return
	}
	if note := mfaStatusNote(d.activity.Status, d.mfa.statuses); note != "" {
		b.Styled(c.Theme.Muted.Render(note))
	}
	for _, st := range d.mfa.statuses {
		for _, l := range describeMfaStatus(st, c.Org.UserNames[st.UserID], d.mfa.names[st.MfaPolicyID], credentialsOf(nil, true)) {
			b.Line(l)
		}
	}
}

// mfaStatusNote says what an unsatisfied MFA status means for the operator,
// who cannot act on it from here: a vote proves only the credential that
// stamped it, and this console stamps with its API key. A service that holds
// the activity for MFA says so by its status (AUTHENTICATORS_NEEDED); one
// that does not (the local service) lets votes decide. "" when every status
// is satisfied.
func mfaStatusNote(status string, statuses []api.MfaStatus) string {
	if !slices.ContainsFunc(statuses, func(st api.MfaStatus) bool { return st.MfaPolicyID != "" && !st.Satisfied }) {
		return ""
	}
	if status == api.StatusAuthenticatorsNeeded {
		return "The service holds this activity until each step is satisfied: the voter approves it again with a missing method (elsewhere — this console votes with its API key only)."
	}
	return "Reported by the service, which does not hold this activity back for it: votes decide. This console votes with its API key only."
}

// checkedOf counts the pending activities whose MFA status was checked,
// against all pending ones: "3", or "20 checked of 25; the 5 oldest not
// checked" when the load stopped at its bound. When the look for older
// pending ones failed, it says that whether any are is unknown, and why.
func checkedOf(checked int, pending pendingCount) string {
	unknown := "whether older ones are pending is unknown (probe failed: " + pending.unknown + ")"
	switch {
	case pending.unknown != "" && checked < pending.listed:
		return fmt.Sprintf("%d checked of %d; the %d oldest not checked, and %s", checked, pending.listed, pending.listed-checked, unknown)
	case pending.unknown != "":
		return fmt.Sprintf("%d checked; %s", checked, unknown)
	case pending.more:
		return fmt.Sprintf("%d checked of more than %d; the older ones not checked", checked, pending.listed)
	case checked < pending.listed:
		return fmt.Sprintf("%d checked of %d; the %d oldest not checked", checked, pending.listed, pending.listed-checked)
	}
	return strconv.Itoa(checked)
}
