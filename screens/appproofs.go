package screens

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/proof"
	"github.com/vigil-console/vigil/ui"
	"github.com/vigil-console/vigil/ui/theme"
)

// appProofCheck is the verification of one app proof of the open activity:
// the boot proof of its key, verified with the app proof as Options.AppProofs.
type appProofCheck struct {
	loading bool
	err     string // the boot proof could not be fetched: nothing is verified
	report  *proof.Report
	// of is the app proof this check is of: a check is shown only beside
	// that very proof, so a list fetched again (a forgery in its place)
	// never borrows the verdict of the one it replaced.
	of api.AppProof
}

// pendingChecks are the checks of proofs still to be verified.
func pendingChecks(proofs []api.AppProof) []appProofCheck {
	checks := make([]appProofCheck, len(proofs))
	for i, p := range proofs {
		checks[i] = appProofCheck{loading: true, of: p}
	}
	return checks
}

// appProofVerifiedMsg brings the verification of the app proofs of an activity
// that share one ephemeral key: reports[i] is for proofs[i], app proof
// indices[i] of the list it was asked for.
type appProofVerifiedMsg struct {
	activityID string
	gen        int
	key        string
	indices    []int
	proofs     []api.AppProof
	boot       *api.BootProof // as fetched, for the session's cache
	attestsKey bool           // boot attests key: only then may it be cached
	reports    []*proof.Report
	err        error
}

// verifyAppProofs verifies the app proofs of the open activity, one command per
// ephemeral key, so each key's boot proof is fetched once. Boot proofs fetched
// earlier in the session are reused: an ephemeral key belongs to one enclave
// boot, so its genuine boot proof never changes. A failed fetch, a boot proof
// that failed verification and one attesting another key are not cached: a bad reply (a proxy's, a
// service's mistake since fixed) is fetched again on the next refresh.
func (a *Activities) verifyAppProofs() tea.Cmd {
	d := a.detail
	if d == nil {
		return nil
	}
	d.proofGen = d.gens.next()
	d.checks = pendingChecks(d.proofs)
	byKey := map[string][]int{}
	var order []string
	for i, p := range d.proofs {
		if _, seen := byKey[p.PublicKey]; !seen {
			order = append(order, p.PublicKey)
		}
		byKey[p.PublicKey] = append(byKey[p.PublicKey], i)
	}
	cmds := make([]tea.Cmd, 0, len(order))
	for _, k := range order {
		idx := byKey[k]
		proofs := make([]api.AppProof, len(idx))
		for n, i := range idx {
			proofs[n] = d.proofs[i]
		}
		cmds = append(cmds, verifyAppProofsCmd(a.c, d.activity.ID, d.proofGen, k, idx, proofs, a.bootCache[k]))
	}
	return tea.Batch(cmds...)
}

// verifyAppProofsCmd fetches the boot proof of key (unless cached) and verifies
// it once per app proof, each given alone as Options.AppProofs.
func verifyAppProofsCmd(c *Common, activityID string, gen int, key string, indices []int, proofs []api.AppProof, cached *api.BootProof) tea.Cmd {
	client, settings := c.Reader, c.Proofs
	return func() tea.Msg {
		msg := appProofVerifiedMsg{activityID: activityID, gen: gen, key: key, indices: indices, proofs: proofs}
		bp := cached
		if bp == nil {
			ctx, cancel := c.ctx()
			defer cancel()
			var err error
			bp, err = client.GetBootProof(ctx, key)
			if err == nil && bp == nil {
				err = fmt.Errorf("the service returned no boot proof")
			}
			if err != nil {
				msg.err = fmt.Errorf("fetch the boot proof of its key: %w", err)
				return msg
			}
		}
		msg.boot = bp
		// Which app the enclave runs is the service's label here (nothing was
		// asked for), and it picks the pins: a label the profile does not list
		// would be checked against itself, with no pins. The label is
		// clipped as the Boot proofs report clips it: the service alone sets it.
		if listed := settings.listedApps(); len(listed) > 0 && !slices.Contains(listed, bp.EnclaveApp) {
			msg.err = fmt.Errorf("the service says the enclave that signed it runs app %s, which this profile does not name in enclave_apps or a pin (expected_pcrs, expected_pivot_hashes, expected_manifest_sets, expected_quorum_keys: %s), so no pins of yours apply; if that app is yours, add it (with its pins) to the profile",
				api.Quote(api.ClipBytes(bp.EnclaveApp, proof.MaxShownConfig)), strings.Join(listed, ", "))
			return msg
		}
		for _, p := range proofs {
			opts := settings.Options(bp.EnclaveApp, c.MachineNow())
			opts.AppProofs = []api.AppProof{p}
			msg.reports = append(msg.reports, proof.VerifyBootProof(*bp, opts))
		}
		// The reply must be the boot proof of the key asked for: one of
		// another enclave, however genuine, says nothing of these app proofs,
		// and blaming them ("made by another enclave") would be wrong.
		if doc := msg.reports[0].Document; doc != nil {
			msg.attestsKey = attestsKey(doc, key)
			if !msg.attestsKey && validKeyHex(key) {
				msg.reports = nil
				msg.err = fmt.Errorf("the service answered get_boot_proof for key %s with the boot proof of another key (%s); press r to fetch it again",
					shortKey(key), shortKey(hex.EncodeToString(doc.PublicKey)))
			}
		}
		return msg
	}
}

// attestsKey reports whether the attestation document attests key, the hex
// public key of an app proof (0x-prefixed or not, any case).
func attestsKey(doc *proof.Document, key string) bool {
	want, err := hex.DecodeString(strings.TrimPrefix(key, "0x"))
	return err == nil && len(doc.PublicKey) > 0 && bytes.Equal(want, doc.PublicKey)
}

// validKeyHex reports whether key decodes as hex; a key that does not is the
// app proof's own fault, which its check reports.
func validKeyHex(key string) bool {
	_, err := hex.DecodeString(strings.TrimPrefix(key, "0x"))
	return err == nil && key != ""
}

// shortKey is the start of a hex key, enough to tell two keys apart.
func shortKey(key string) string {
	key = strings.TrimPrefix(key, "0x")
	if len(key) > 16 {
		key = key[:16] + "…"
	}
	return api.Quote(key)
}

// appProofVerified records verifications in the open detail and caches the
// boot proof for the session when it verified and attests the key asked for.
func (a *Activities) appProofVerified(msg appProofVerifiedMsg) {
	if msg.err == nil && msg.attestsKey && msg.boot != nil && len(msg.reports) > 0 && bootVerdict(msg.reports[0]) != proof.Failed {
		if a.bootCache == nil {
			a.bootCache = map[string]*api.BootProof{}
		}
		a.bootCache[msg.key] = msg.boot
	}
	d := a.detail
	if d == nil || d.activity.ID != msg.activityID || d.proofGen != msg.gen {
		return
	}
	for n, i := range msg.indices {
		// A verdict goes only beside the very proof it was computed for,
		// whatever the generation says.
		if i >= len(d.checks) || n >= len(msg.proofs) || d.checks[i].of != msg.proofs[n] {
			continue
		}
		ch := &d.checks[i]
		ch.loading = false
		switch {
		case msg.err != nil:
			ch.err, ch.report = errorText(msg.err), nil
		case n < len(msg.reports):
			ch.err, ch.report = "", msg.reports[n]
		}
	}
	d.render(a.c)
}

// appProofCheckID is the report's check of the (only) app proof given.
const appProofCheckID = "app-proof[0]"

// renderAppProofs adds the app proofs with their verification to the detail.
func (d *activityDetail) renderAppProofs(b *ui.DetailBuilder, c *Common) {
	th := c.Theme
	for i, p := range d.proofs {
		ch := appProofCheck{loading: true}
		if i < len(d.checks) && d.checks[i].of == p {
			ch = d.checks[i]
		}
		// Bound to the record shown now, not the one of the verification: the
		// record can be fetched again meanwhile.
		bound, why := proof.BindAppProof(p, proof.SubjectOf(d.activity))
		head := fmt.Sprintf("#%d %s  ", i+1, ui.Clean(p.Scheme))
		var verdict string
		switch {
		case ch.err != "":
			verdict = th.Bad.Bold(true).Render("CANNOT VERIFY")
		case ch.report == nil:
			verdict = th.Muted.Render("verifying…")
		default:
			verdict = pinnedBadge(th, appProofVerdict(ch.report, bound), ch.report)
		}
		b.Styled(head + verdict)
		field := func(label, styled string) { b.Styled("  " + padPlain(label+":", 16) + styled) }
		if bound == proof.Pass {
			// The intent above is the service's word, whatever the verdict.
			field("intent", th.Warn.Render(proof.IntentNotCovered))
		}
		switch {
		case ch.err != "":
			b.Styled("  " + th.Bad.Render(ui.Clean("cannot verify: "+ch.err)))
		case ch.report != nil:
			rep := ch.report
			if app := rep.Check(appProofCheckID); app != nil {
				field("app proof", checkMark(th, app.Status)+" "+ui.Clean(app.Reason))
			}
			field("activity", checkMark(th, bound)+" "+ui.Clean(why))
			var failed []string
			for _, id := range rep.FailedChecks() {
				if !isAppProofCheck(id) {
					failed = append(failed, id)
				}
			}
			boot := pinnedBadge(th, bootVerdict(rep), rep)
			if c := rep.PinCaveat(); c != "" && bootVerdict(rep) == proof.Verified {
				boot += th.Warn.Render(" — " + c)
			}
			if len(failed) > 0 {
				boot += " " + ui.Clean("failed: "+strings.Join(failed, ", "))
			}
			field("boot proof", boot)
			for _, id := range failed {
				b.Line("    ✗ " + id + ": " + rep.Check(id).Reason)
			}
			anchor := ui.Clean(anchorText(rep))
			if strings.HasPrefix(anchor, "DEMO root") {
				anchor = th.Warn.Render(anchor)
			}
			field("anchor", anchor)
		}
		field("public key", ui.Clean(api.SanitizeID(p.PublicKey)))
		field("signature", ui.Clean(api.SanitizeID(p.Signature)))
		field("payload", "")
		var pretty bytes.Buffer
		if err := json.Indent(&pretty, []byte(p.ProofPayload), "", "  "); err == nil {
			for _, l := range strings.Split(pretty.String(), "\n") {
				b.Line("    " + l)
			}
		} else {
			b.Line("    " + p.ProofPayload)
		}
	}
}

// appProofVerdict is the verdict of one app proof: VERIFIED only when the
// boot proof is, the attested key signed the payload and the payload is about
// the open activity (bound: proof.BindAppProof); PARTIAL when all that holds
// but the payload names no activity.
func appProofVerdict(rep *proof.Report, bound proof.Status) proof.Verdict {
	app := rep.Check(appProofCheckID)
	switch {
	case bootVerdict(rep) != proof.Verified || app == nil || app.Status != proof.Pass || bound == proof.Fail:
		return proof.Failed
	case bound != proof.Pass:
		return proof.Partial
	}
	return proof.Verified
}

// isAppProofCheck reports whether id is a check of an app proof (its
// signature, its binding) rather than of the boot proof.
func isAppProofCheck(id string) bool { return strings.HasPrefix(id, "app-proof[") }

// bootVerdict is the verdict of the boot proof alone, leaving out the app
// proof's checks (shown on their own lines).
func bootVerdict(rep *proof.Report) proof.Verdict {
	v := proof.Verified
	for _, c := range rep.Checks {
		switch {
		case isAppProofCheck(c.ID):
		case c.Status == proof.Fail:
			return proof.Failed
		case c.Status == proof.NotApplicable && isCoreCheck(c.ID):
			v = proof.Partial
		}
	}
	return v
}

func isCoreCheck(id string) bool {
	switch id {
	case proof.CheckCOSE, proof.CheckChain, proof.CheckUserData, proof.CheckPublicKey,
		proof.CheckManifestDecode, proof.CheckPCRs, proof.CheckApprovals:
		return true
	}
	return false
}

// pinnedBadge is v's badge, or VERIFIED (no pins) / (PCR pins only) /
// (partial pins) in the warning colour when v is VERIFIED but neither the
// boot proof's manifest hash nor its pivot and manifest set were pinned
// (proof.Report.PinCaveat, judged by the pins check alone).
func pinnedBadge(th *theme.Theme, v proof.Verdict, rep *proof.Report) string {
	if c := rep.PinCaveat(); v == proof.Verified && c != "" {
		return noPinsColour(th).Render(caveatVerdict(c))
	}
	return reportBadge(th, v)
}
