package cli

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/proof"
	"github.com/vigil-console/vigil/ui"
)

// printReport prints rep (as JSON or for people) and returns an error, hence
// exit status 1, when a check failed. For people, every string that came from
// the proof is sanitized first; --json keeps every value exact and escapes what
// must not reach a terminal (api.EncodeJSON).
func printReport(c proc, rep *proof.Report, bp *api.BootProof, asJSON bool) error {
	if asJSON {
		info := infoOf(bp)
		if info != nil && !jsonWritable(info.CreatedAt) {
			// Unattested metadata from the service: a year JSON cannot
			// hold must not cost the report of a genuine document.
			info.CreatedAt = time.Time{}
		}
		out := struct {
			*proof.Report
			BootProof *bootProofInfo `json:"bootProof,omitempty"`
		}{rep, info}
		if err := api.EncodeJSON(c.stdout, out); err != nil {
			return err
		}
	}
	w := &errWriter{w: c.stdout} // writeReport's lines are checked once, here
	if !asJSON {
		sanitizeReport(rep)
		writeReport(w, rep, bp)
	}
	if rep.Verdict == proof.Failed {
		return fmt.Errorf("verification FAILED: %s", strings.Join(rep.FailedChecks(), ", "))
	}
	if w.err != nil {
		return fmt.Errorf("the report could not be printed: %w", w.err)
	}
	return nil
}

// bootProofInfo is the boot proof's unsigned metadata: labels only, not attested.
type bootProofInfo struct {
	EnclaveApp      string    `json:"enclaveApp"`
	Owner           string    `json:"owner"`
	DeploymentLabel string    `json:"deploymentLabel"`
	CreatedAt       time.Time `json:"createdAt,omitzero"`
}

// jsonWritable reports whether t's year is one JSON's RFC 3339 text can hold
// (time.Time.MarshalJSON refuses the others).
func jsonWritable(t time.Time) bool { return t.Year() >= 0 && t.Year() <= 9999 }

// infoOf is bp's labels, exact (the caller escapes them for its output).
func infoOf(bp *api.BootProof) *bootProofInfo {
	if bp == nil {
		return nil
	}
	return &bootProofInfo{
		EnclaveApp:      bp.EnclaveApp,
		Owner:           bp.Owner,
		DeploymentLabel: bp.DeploymentLabel,
		CreatedAt:       bp.CreatedAt.Time(),
	}
}

// sanitizeReport cleans every free-text field that can carry bytes from the proof.
func sanitizeReport(r *proof.Report) {
	r.Anchor = api.Sanitize(r.Anchor)
	for i := range r.Checks {
		r.Checks[i].Reason = api.Sanitize(r.Checks[i].Reason)
	}
	if d := r.Document; d != nil {
		d.ModuleID = api.Sanitize(d.ModuleID)
		d.Digest = api.Sanitize(d.Digest)
		sanitizeCert(&d.Certificate)
		for i := range d.CABundle {
			sanitizeCert(&d.CABundle[i])
		}
	}
	if m := r.Manifest; m != nil {
		m.Namespace.Name = api.Sanitize(m.Namespace.Name)
		m.Pivot.Restart = api.Sanitize(m.Pivot.Restart)
		// Clipped before sanitizing, so an escape is never cut in half.
		for i := range m.Pivot.Args {
			m.Pivot.Args[i] = api.Sanitize(api.ClipBytes(m.Pivot.Args[i], proof.MaxShownConfig))
		}
		for i := range m.Pivot.Bridges {
			m.Pivot.Bridges[i] = api.Sanitize(api.ClipBytes(m.Pivot.Bridges[i], proof.MaxShownConfig))
		}
		m.Pivot.Env = api.Sanitize(api.ClipBytes(m.Pivot.Env, proof.MaxShownConfig))
		m.DNS = api.Sanitize(api.ClipBytes(m.DNS, proof.MaxShownConfig))
		m.Enclave.QOSCommit = api.Sanitize(m.Enclave.QOSCommit)
		// Aliases stay exact: quoteAlias escapes them, once.
		for i := range m.Approvals {
			m.Approvals[i].Reason = api.Sanitize(m.Approvals[i].Reason)
		}
	}
}

func sanitizeCert(c *proof.CertInfo) {
	c.Subject = api.Sanitize(c.Subject)
	c.Issuer = api.Sanitize(c.Issuer)
	c.Error = api.Sanitize(c.Error)
}

func writeReport(w io.Writer, r *proof.Report, bp *api.BootProof) {
	fmt.Fprintf(w, "Verdict: %s\n", r.Verdict)
	if r.Caveat != "" {
		fmt.Fprintf(w, "         %s\n", r.Caveat)
	}
	if r.Anchor != "" {
		fmt.Fprintf(w, "Anchor:  %s\n", r.Anchor)
	}
	if !r.DocumentTime.IsZero() {
		fmt.Fprintf(w, "Attested at %s (%s)\n", r.DocumentTime.Format(time.RFC3339Nano), ui.AgePhrase(r.Age))
	}
	fmt.Fprintln(w)
	for _, c := range r.Checks {
		fmt.Fprintf(w, "%s %-15s %s\n", statusMark(c.Status), c.ID, c.Reason)
	}
	if info := infoOf(bp); info != nil {
		// Clipped (before sanitizing, so an escape is never cut in half) as
		// the manifest's free strings are: the service alone sets them, and
		// one of the reply's 16 MiB would bury the report. --json keeps them whole.
		shown := func(label string) string { return api.Sanitize(api.ClipBytes(label, proof.MaxShownConfig)) }
		info.EnclaveApp, info.Owner, info.DeploymentLabel = shown(info.EnclaveApp), shown(info.Owner), shown(info.DeploymentLabel)
		fmt.Fprintf(w, "\nBoot proof (labels from the service, not attested)\n")
		fmt.Fprintf(w, "  enclave app:      %s\n  owner:            %s\n  deployment label: %s\n", info.EnclaveApp, info.Owner, info.DeploymentLabel)
		if !info.CreatedAt.IsZero() {
			fmt.Fprintf(w, "  created:          %s\n", info.CreatedAt.Format(time.RFC3339))
		}
	}
	if d := r.Document; d != nil {
		writeDocument(w, d)
	}
	if m := r.Manifest; m != nil {
		writeManifest(w, m)
	}
}

// statusMark is a check's status as people read it: ✓ pass, ✗ fail, – n/a.
func statusMark(st proof.Status) string {
	switch st {
	case proof.Pass:
		return "✓"
	case proof.Fail:
		return "✗"
	}
	return "–"
}

func writeDocument(w io.Writer, d *proof.Document) {
	fmt.Fprintf(w, "\nAttestation document\n")
	fmt.Fprintf(w, "  module id:   %s\n  timestamp:   %s\n  digest:      %s\n", d.ModuleID, d.Timestamp.Format(time.RFC3339Nano), d.Digest)
	idx := make([]int, 0, len(d.PCRs))
	for i := range d.PCRs {
		idx = append(idx, i)
	}
	slices.Sort(idx)
	var zeros []string
	for _, i := range idx {
		if isAllZero(d.PCRs[i]) {
			zeros = append(zeros, fmt.Sprint(i))
			continue
		}
		fmt.Fprintf(w, "  PCR%-2d        %s\n", i, d.PCRs[i])
	}
	if len(zeros) > 0 {
		fmt.Fprintf(w, "  all zeros:   PCR %s\n", strings.Join(zeros, ", "))
	}
	fmt.Fprintf(w, "  user_data:   %s\n  public_key:  %s\n", orNone(d.UserData.String()), orNone(d.PublicKey.String()))
	if len(d.Nonce) > 0 {
		fmt.Fprintf(w, "  nonce:       %s\n", d.Nonce)
	}
	writeCert(w, "certificate", d.Certificate)
	for i, c := range d.CABundle {
		writeCert(w, fmt.Sprintf("cabundle[%d]", i), c)
	}
}

func writeCert(w io.Writer, label string, c proof.CertInfo) {
	if c.Error != "" {
		fmt.Fprintf(w, "  %-12s (does not parse: %s)\n", label+":", c.Error)
		return
	}
	fmt.Fprintf(w, "  %-12s %s\n  %-12s valid %s to %s\n", label+":", c.Subject, "", c.NotBefore.Format(time.RFC3339), c.NotAfter.Format(time.RFC3339))
}

func writeManifest(w io.Writer, m *proof.Manifest) {
	fmt.Fprintf(w, "\nQOS manifest (%s, SHA-256 %s)\n", m.Version, m.SHA256)
	fmt.Fprintf(w, "  namespace:   %s (nonce %d)\n  quorum key:  %s\n", m.Namespace.Name, m.Namespace.Nonce, orNone(m.Namespace.QuorumKey.String()))
	fmt.Fprintf(w, "  pivot hash:  %s\n  restart:     %s\n  args:        %s\n", m.Pivot.Hash, m.Pivot.Restart, argsLine(m.Pivot.Args))
	if m.Pivot.DebugMode {
		fmt.Fprintf(w, "  debug mode:  %s\n", proof.PivotDebugText)
	}
	for _, b := range m.Pivot.Bridges {
		fmt.Fprintf(w, "  bridge:      %s\n", b)
	}
	if m.Pivot.Env != "" {
		fmt.Fprintf(w, "  env:         %s\n", m.Pivot.Env)
	}
	if m.DNS != "" {
		fmt.Fprintf(w, "  dns:         %s\n", m.DNS)
	}
	writeSet(w, "manifest set", m.ManifestSet)
	writeSet(w, "share set", m.ShareSet)
	if m.PatchSet != nil {
		writeSet(w, "patch set", *m.PatchSet)
	}
	e := m.Enclave
	fmt.Fprintf(w, "  PCR0:        %s\n  PCR1:        %s\n  PCR2:        %s\n  PCR3:        %s\n", e.PCR0, e.PCR1, e.PCR2, e.PCR3)
	fmt.Fprintf(w, "  qos commit:  %s\n", orNone(e.QOSCommit))
	root := "absent"
	if e.AWSRootCert {
		root = "present, not the pinned AWS Root-G1"
		if e.AWSRootIsPinned {
			root = "present, the pinned AWS Root-G1"
		}
	}
	fmt.Fprintf(w, "  AWS root:    %s\n", root)
	if len(m.Approvals) > 0 {
		fmt.Fprintf(w, "  approvals:\n")
		for _, a := range m.Approvals {
			mark := "✓"
			note := "valid signature, manifest-set member"
			if !a.Valid || !a.Member {
				mark, note = "✗", a.Reason
			}
			fmt.Fprintf(w, "    %s %-14s %s\n", mark, quoteAlias(a.Alias), note)
		}
	}
	fmt.Fprintf(w, "  share-set approvals: %d (%s)\n", m.ShareSetApprovals, proof.ShareSetApprovalsNote)
}

func writeSet(w io.Writer, label string, s proof.QuorumSet) {
	fmt.Fprintf(w, "  %-12s %d of %d\n", label+":", s.Threshold, len(s.Members))
	for _, mem := range s.Members {
		if mem.Alias != "" {
			fmt.Fprintf(w, "    %-14s %s\n", quoteAlias(mem.Alias), mem.PubKey)
		} else {
			fmt.Fprintf(w, "    %s\n", mem.PubKey)
		}
	}
}

// quoteAlias shows a quorum member's alias, exact as the manifest holds it,
// quoted with api.Quote: a control in it shows escaped once, and cannot look
// like the same escape typed as text (whose backslash is doubled).
func quoteAlias(s string) string { return api.Quote(s) }

func orNone(s string) string {
	if s == "" {
		return "(none)"
	}
	return s
}

func isAllZero(b []byte) bool {
	for _, x := range b {
		if x != 0 {
			return false
		}
	}
	return true
}

// argsLine is the pivot's args for people, bounded (proof.ShownArgs): a
// hostile manifest's may fill a megabyte.
func argsLine(args []string) string {
	shown, more := proof.ShownArgs(args)
	line := strings.Join(shown, " ")
	if more > 0 {
		line += fmt.Sprintf(" … and %d more (--json shows them all)", more)
	}
	return line
}
