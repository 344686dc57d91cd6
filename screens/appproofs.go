package screens

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/proof"
	"github.com/vigil-console/vigil/ui"
)

// appProofCheck is the verification of one app proof of the open activity:
// the boot proof of its key, verified with the app proof as Options.AppProofs.
type appProofCheck struct {
	loading bool
	err     string // the boot proof could not be fetched: nothing is verified
	report  *proof.Report
}

// appProofVerifiedMsg brings the verification of app proof index of an activity.
type appProofVerifiedMsg struct {
	activityID string
	gen        int
	index      int
	key        string
	boot       *api.BootProof // as fetched, for the session's cache
	report     *proof.Report
	err        error
}

// verifyAppProofs starts one verification per app proof of the open activity.
// Boot proofs already fetched in this session (by ephemeral key) are reused:
// an ephemeral key belongs to one enclave boot, so its boot proof never changes.
func (a *Activities) verifyAppProofs() tea.Cmd {
	d := a.detail
	if d == nil {
		return nil
	}
	d.proofGen++
	d.checks = make([]appProofCheck, len(d.proofs))
	cmds := make([]tea.Cmd, len(d.proofs))
	for i, p := range d.proofs {
		d.checks[i].loading = true
		cmds[i] = verifyAppProofCmd(a.c, d.activity.ID, d.proofGen, i, p, a.bootCache[p.PublicKey])
	}
	return tea.Batch(cmds...)
}

func verifyAppProofCmd(c *Common, activityID string, gen, index int, p api.AppProof, cached *api.BootProof) tea.Cmd {
	client, settings := c.Client, c.Proofs
	return func() tea.Msg {
		msg := appProofVerifiedMsg{activityID: activityID, gen: gen, index: index, key: p.PublicKey}
		bp := cached
		if bp == nil {
			ctx, cancel := c.ctx()
			defer cancel()
			var err error
			bp, err = client.GetBootProof(ctx, p.PublicKey)
			if err == nil && bp == nil {
				err = fmt.Errorf("the service returned no boot proof")
			}
			if err != nil {
				msg.err = fmt.Errorf("fetch the boot proof of its key: %w", err)
				return msg
			}
		}
		msg.boot = bp
		opts := settings.Options(bp.EnclaveApp, c.Now())
		opts.AppProofs = []api.AppProof{p}
		msg.report = proof.VerifyBootProof(*bp, opts)
		return msg
	}
}

// appProofVerified records a verification in the open detail and caches the
// boot proof for the session.
func (a *Activities) appProofVerified(msg appProofVerifiedMsg) {
	if msg.err == nil && msg.boot != nil {
		if a.bootCache == nil {
			a.bootCache = map[string]*api.BootProof{}
		}
		a.bootCache[msg.key] = msg.boot
	}
	d := a.detail
	if d == nil || d.activity.ID != msg.activityID || d.proofGen != msg.gen || msg.index >= len(d.checks) {
		return
	}
	ch := &d.checks[msg.index]
	ch.loading = false
	if msg.err != nil {
		ch.err, ch.report = errorText(msg.err), nil
	} else {
		ch.err, ch.report = "", msg.report
	}
	d.render(a.c)
}

// appProofCheckID is the report's check of the (only) app proof given.
const appProofCheckID = "app-proof[0]"

// renderAppProofs adds the app proofs with their verification to the detail.
func (d *activityDetail) renderAppProofs(b *ui.DetailBuilder, c *Common) {
	th := c.Theme
	for i, p := range d.proofs {
		var ch appProofCheck
		if i < len(d.checks) {
			ch = d.checks[i]
		}
		head := fmt.Sprintf("#%d %s  ", i+1, ui.Clean(p.Scheme))
		var verdict string
		switch {
		case ch.err != "":
			verdict = th.Bad.Bold(true).Render("CANNOT VERIFY")
		case ch.report == nil:
			verdict = th.Muted.Render("verifying…")
		default:
			app := ch.report.Check(appProofCheckID)
			if bootVerdict(ch.report) == proof.Verified && app != nil && app.Status == proof.Pass {
				verdict = th.Good.Bold(true).Render("VERIFIED")
			} else {
				verdict = th.Bad.Bold(true).Render("FAILED")
			}
		}
		b.Styled(head + verdict)
		field := func(label, styled string) { b.Styled("  " + padPlain(label+":", 16) + styled) }
		switch {
		case ch.err != "":
			b.Styled("  " + th.Bad.Render(ui.Clean("cannot verify: "+ch.err)))
		case ch.report != nil:
			rep := ch.report
			if app := rep.Check(appProofCheckID); app != nil {
				field("app proof", checkMark(th, app.Status)+" "+ui.Clean(app.Reason))
			}
			var failed []string
			for _, id := range rep.FailedChecks() {
				if id != appProofCheckID {
					failed = append(failed, id)
				}
			}
			boot := reportBadge(th, bootVerdict(rep))
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

// bootVerdict is the verdict of the boot proof alone, leaving out the app
// proof's own check (shown on its own line).
func bootVerdict(rep *proof.Report) proof.Verdict {
	v := proof.Verified
	for _, c := range rep.Checks {
		switch {
		case c.ID == appProofCheckID:
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
