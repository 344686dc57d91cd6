package screens

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/proof"
	"github.com/vigil-console/vigil/ui"
	"github.com/vigil-console/vigil/ui/theme"
)

// noAppsHelp is what the screen says when the profile names no enclave app.
var noAppsHelp = []string{
	"No enclave apps are configured for this profile, so there is nothing to verify.",
	"",
	"Add the apps whose boot proofs you want checked to the profile, for example:",
	"",
	"  [profiles.prod]",
	"  enclave_apps = [\"signer\"]",
	"  # optional: extra trusted roots (PEM), pins",
	"  trusted_roots = [\"my-root.pem\"]",
	"  allowed_manifest_hashes = [\"<64 hex digits>\"]",
	"  expected_pivot_hashes.signer = [\"<64 hex: the app binary's SHA-256>\"]",
	"  expected_manifest_sets.signer = { threshold = 2, members = [\"<260 hex>\", …] }",
	"  [profiles.prod.expected_pcrs.signer]",
	"  0 = \"<96 hex digits>\"",
	"",
	"The AWS Nitro Enclaves Root-G1 is always trusted. See docs/verification.md.",
}

// verdictBadge is the verdict as text (so NO_COLOR still reads) in its colour.
func verdictBadge(th *theme.Theme, a appBootProof) string {
	text, style := verdictStyle(th, a)
	return style.Render(text)
}

func verdictStyle(th *theme.Theme, a appBootProof) (string, lipgloss.Style) {
	switch {
	case a.err != "":
		return "CANNOT VERIFY", th.Bad
	case a.report == nil && a.loading:
		return "verifying…", th.Muted
	case a.report == nil:
		return "not fetched", th.Muted
	}
	if a.report.Verdict == proof.Verified && a.report.Caveat != "" {
		return caveatVerdict(a.report.Caveat), noPinsColour(th)
	}
	return string(a.report.Verdict), verdictColour(th, a.report.Verdict)
}

// verifiedNoPins is the verdict of a proof that verified with no pins set:
// any enclave under the root would have (proof.Report.Caveat).
const verifiedNoPins = "VERIFIED (no pins)"

// verifiedPCRPinsOnly is the verdict of a proof that verified against PCR
// pins with no manifest hash pinned: PCRs fix the QuorumOS image, not the app
// binary or who approved the manifest (proof.PCRPinsOnlyCaveat).
const verifiedPCRPinsOnly = "VERIFIED (PCR pins only)"

// verifiedPartialPins is the verdict of a proof that verified against pins
// of some of the manifest's content (a pivot hash, a manifest set, a quorum
// key) but not both the pivot hash and the manifest set, nor the manifest
// hash (proof.PartialPinsCaveat).
const verifiedPartialPins = "VERIFIED (partial pins)"

// caveatVerdict is the verdict text of a VERIFIED that carries caveat c.
func caveatVerdict(c string) string {
	switch c {
	case proof.PCRPinsOnlyCaveat:
		return verifiedPCRPinsOnly
	case proof.PartialPinsCaveat:
		return verifiedPartialPins
	}
	return verifiedNoPins
}

// noPinsColour is verifiedNoPins' (and verifiedPCRPinsOnly's) colour: the warning's, not VERIFIED's
// green, since anyone's genuine enclave under the root verifies so, and a
// green cell among green cells is read as "fine".
func noPinsColour(th *theme.Theme) lipgloss.Style { return th.Warn.Bold(true) }

func verdictColour(th *theme.Theme, v proof.Verdict) lipgloss.Style {
	switch v {
	case proof.Verified:
		return th.Good.Bold(true)
	case proof.Partial:
		return th.Warn.Bold(true)
	}
	return th.Bad.Bold(true)
}

func reportBadge(th *theme.Theme, v proof.Verdict) string {
	return verdictColour(th, v).Render(string(v))
}

// anchorText names the root that anchored the chain; a demo root is labelled so
// nobody takes it for AWS.
func anchorText(rep *proof.Report) string {
	switch {
	case rep == nil || rep.Anchor == "":
		return "none (no trusted root anchored the chain)"
	case strings.HasPrefix(rep.Anchor, "demo root:"):
		return "DEMO root — not AWS (" + strings.TrimSpace(strings.TrimPrefix(rep.Anchor, "demo root:")) + ")"
	}
	return rep.Anchor
}

func checkMark(th *theme.Theme, st proof.Status) string {
	switch st {
	case proof.Pass:
		return th.Good.Render("✓")
	case proof.Fail:
		return th.Bad.Render("✗")
	}
	return th.Muted.Render("–")
}

// bootProofColumns are the list's columns; VERDICT keeps its colour, ANCHOR
// takes the spare width.
func bootProofColumns(th *theme.Theme) []ui.Column {
	return []ui.Column{
		{Title: "APP", Width: 14, Max: 24},
		{Title: "VERDICT", Width: len(verifiedPCRPinsOnly), Style: func(cell string) lipgloss.Style { return verdictTextStyle(th, cell) }},
		{Title: "AGE", Width: 4, Style: func(cell string) lipgloss.Style {
			if strings.HasPrefix(cell, futureMark) {
				return th.Warn.Bold(true)
			}
			return lipgloss.NewStyle()
		}},
		{Title: "ANCHOR", Width: 10, Grow: true},
	}
}

// verdictTextStyle is the colour of a verdict cell, by its text.
func verdictTextStyle(th *theme.Theme, text string) lipgloss.Style {
	switch text {
	case "CANNOT VERIFY":
		return th.Bad
	case "verifying…", "not fetched":
		return th.Muted
	case verifiedNoPins, verifiedPCRPinsOnly, verifiedPartialPins:
		return noPinsColour(th)
	}
	return verdictColour(th, proof.Verdict(text))
}

// futureMark starts the AGE of a document dated after this machine's clock.
const futureMark = "future "

// documentAge is the AGE of a document attested at t: "5m", or "future 2d"
// when this machine's clock is behind it (the report says to check the clock).
func documentAge(now, t time.Time) string {
	if ahead := ui.FutureBy(now, t); ahead > 0 {
		return futureMark + ui.Ago(t, t.Add(-ahead))
	}
	return ui.Ago(now, t)
}

// setRows rebuilds the list from the apps.
func (b *BootProofs) setRows() {
	rows := make([]ui.Row, len(b.apps))
	now := b.c.MachineNow()
	for i, a := range b.apps {
		age, anchor, sortAge := "", "", ""
		if a.report != nil {
			anchor = anchorText(a.report)
			if !a.report.DocumentTime.IsZero() {
				age = documentAge(now, a.report.DocumentTime)
				sortAge = ageSortKey(a.report.DocumentTime)
			}
		}
		text, _ := verdictStyle(b.c.Theme, a)
		rows[i] = ui.Row{ID: a.app, Cells: []string{a.app, text, age, anchor}, Sort: []string{"", "", sortAge}}
	}
	b.list.SetRows(rows)
	b.setPreview()
	b.shownClock = b.clockTexts(now)
}

// clockTexts are the texts that count up with the clock: every app's document
// age (in the list and its report) and the age of the service's creation time
// (in the report). They change only as the clock moves, so when unchanged
// since the last draw, everything drawn since is unchanged too.
func (b *BootProofs) clockTexts(now time.Time) []string {
	out := make([]string, 0, 2*len(b.apps))
	for _, a := range b.apps {
		doc, created := "", ""
		if a.report != nil && !a.report.DocumentTime.IsZero() {
			doc = documentAge(now, a.report.DocumentTime)
		}
		if a.proof != nil && !a.proof.CreatedAt.IsZero() {
			created = ui.Ago(now, a.proof.CreatedAt.Time())
		}
		out = append(out, doc, created)
	}
	return out
}

// setPreview says under the list why the selected app is not VERIFIED.
func (b *BootProofs) setPreview() {
	th := b.c.Theme
	i := b.list.Table.Selected()
	if i < 0 || i >= len(b.apps) {
		b.list.SetPreview("")
		return
	}
	a := b.apps[i]
	var lines []string
	switch {
	case a.err != "":
		lines = append(lines, th.Bad.Render(ui.Clean("cannot verify: "+a.err)))
		if a.missing {
			lines = append(lines, b.missingHelp(a.app))
		}
	case a.report != nil:
		for _, id := range a.report.FailedChecks() {
			c := a.report.Check(id)
			lines = append(lines, th.Bad.Render("✗ "+ui.Clean(c.ID))+" "+ui.Clean(c.Reason))
		}
		if a.report.Verdict == proof.Verified {
			lines = append(lines, th.Good.Render(fmt.Sprintf("✓ all %d core checks passed — enter shows the report", 7)))
		}
		if a.report.Caveat != "" {
			lines = append(lines, th.Warn.Render("– "+a.report.Caveat))
		}
	}
	b.list.SetPreview(strings.Join(lines, "\n"))
}

// missingHelp says where the name of an app the service has no boot proof
// for comes from: the profile, so that is where a typo is fixed.
func (b *BootProofs) missingHelp(app string) string {
	return ui.Clean(fmt.Sprintf("%q is in enclave_apps of profile %q: that is where to fix its name.", app, b.c.Profile))
}

// View implements Screen.
func (b *BootProofs) View() string {
	th, width := b.c.Theme, b.width
	if i := b.sel(); b.open() && i >= 0 && i < len(b.apps) {
		a := b.apps[i]
		head := th.Title.Render("Boot proof ") + ui.Clean(a.app) + "  " + verdictBadge(th, a)
		if pos := b.list.Pane.Position(); pos != "" {
			head += th.Muted.Render("  (" + pos + ", pgup/pgdn scroll)")
		}
		return ansi.Truncate(head, width, "…") + "\n" + b.list.View()
	}
	head := th.Title.Render("Boot proofs") + th.Muted.Render(fmt.Sprintf("  %d enclave app(s), verified here", len(b.apps)))
	if len(b.apps) == 0 {
		lines := []string{ansi.Truncate(head, width, "…")}
		for _, l := range noAppsHelp {
			lines = append(lines, ansi.Truncate(l, width, "…"))
		}
		return strings.Join(lines, "\n")
	}
	return ansi.Truncate(head, width, "…") + "\n" + b.list.View()
}

// renderDetail rebuilds the report of the selected app, section by section.
// Every string from the proof goes through the builder (or ui.Clean), and the
// copyable lines are remembered with their position so the cursor can move over
// them.
func (b *BootProofs) renderDetail() {
	i := b.sel()
	if !b.open() || i < 0 || i >= len(b.apps) {
		return
	}
	a := b.apps[i]
	w := &reportWriter{db: ui.NewDetailBuilder(b.c.Theme), th: b.c.Theme, now: b.c.MachineNow(), cursor: b.cursor}
	w.verdict(a)
	if a.missing {
		w.db.Line(b.missingHelp(a.app))
	}
	if rep := a.report; rep != nil {
		w.checks(rep)
		w.anchor(rep)
		if rep.Document != nil {
			w.document(rep.Document)
		}
		if rep.Manifest != nil {
			w.manifest(rep.Manifest)
			w.approvals(rep.Manifest)
		}
		if a.proof != nil {
			w.labels(a.proof)
		}
	}
	b.copies = w.copies
	b.cursor = min(b.cursor, max(len(b.copies)-1, 0))
	b.list.SetDetail(w.db.String())
}

// reportWriter writes the sections of a boot proof report and records its
// copyable lines.
type reportWriter struct {
	db     *ui.DetailBuilder
	th     *theme.Theme
	now    time.Time
	cursor int
	copies []copyLine
}

// copyable adds a value y can copy; the focused one is marked with ▸ as well as
// styled, so NO_COLOR still shows it.
func (w *reportWriter) copyable(label, value string) {
	if value == "" {
		return
	}
	i := len(w.copies)
	w.copies = append(w.copies, copyLine{label: label, value: value, line: w.db.NextLine()})
	if i == w.cursor {
		w.db.Styled(w.th.Selected.Render(padPlain("▸ "+label+":", 16) + ui.Clean(value)))
	} else {
		w.db.Styled(w.th.Label.Render(padPlain(label+":", 16)) + ui.Clean(value))
	}
}

func (w *reportWriter) verdict(a appBootProof) {
	th, db := w.th, w.db
	db.Section("Verdict")
	switch {
	case a.err != "":
		db.Styled(th.Bad.Render(ui.Clean("cannot verify: " + a.err)))
		db.Line("Nothing about this app's enclave is verified. Press r to try again.")
	case a.report == nil:
		db.Line("fetching and verifying…")
	default:
		rep := a.report
		// The badge of the list and the heading: VERIFIED with a caveat reads
		// "VERIFIED (no pins)" or "(PCR pins only)" in the warning colour here too.
		line := verdictBadge(th, a)
		switch rep.Verdict {
		case proof.Verified:
			line += " — every core check passed"
		case proof.Partial:
			line += " — " + ui.Clean(rep.PartialReason())
		default:
			line += " — failed: " + ui.Clean(strings.Join(rep.FailedChecks(), ", "))
		}
		db.Styled(line)
		if rep.Caveat != "" {
			db.Styled(th.Warn.Render(ui.Clean(rep.Caveat)))
			// PCRs measure the QuorumOS image; the manifest hash, or its
			// pivot and manifest set together, fix the app binary and who
			// approved it.
			app := ui.Clean(a.app)
			db.Line("To tie the proof to your app and operators, pin expected_pivot_hashes." + app + " and expected_manifest_sets." + app + " (they survive a new manifest), or the manifest hash (allowed_manifest_hashes): expected_pcrs." + app + " fixes only the enclave image.")
		}
	}
}

func (w *reportWriter) checks(rep *proof.Report) {
	w.db.Section("Checks")
	for _, c := range rep.Checks {
		w.db.Styled(checkMark(w.th, c.Status) + " " + ui.Clean(c.ID) + w.th.Muted.Render("  "+ui.Clean(c.Name)))
		w.db.Line("    " + c.Reason)
	}
}

func (w *reportWriter) anchor(rep *proof.Report) {
	w.db.Section("Trust anchor")
	anchor := anchorText(rep)
	if strings.HasPrefix(anchor, "DEMO root") {
		w.db.Styled(w.th.Warn.Bold(true).Render(ui.Clean(anchor)))
		w.db.Line("A local demo authority signed this document, not AWS hardware: it shows the verifier works, nothing more.")
	} else {
		w.db.Field("anchor", anchor)
	}
}

func (w *reportWriter) document(d *proof.Document) {
	db := w.db
	db.Section("Attestation document")
	at := d.Timestamp.UTC().Format("2006-01-02 15:04:05 UTC")
	if ahead := ui.FutureBy(w.now, d.Timestamp); ahead > 0 {
		// The age is judged by this machine's clock alone: behind the signed
		// time, it cannot tell an old proof from a fresh one.
		db.Field("time", at+" ("+ui.AgePhrase(-ahead)+")")
		db.Styled(w.th.Warn.Bold(true).Render(ui.Clean(fmt.Sprintf(
			"This machine's clock is %s behind the document's signed time: check this machine's clock (until it is right, the age cannot tell an old proof from a fresh one).", ahead))))
	} else {
		db.Field("time", at+" ("+ui.Ago(w.now, d.Timestamp)+" old)")
	}
	db.Field("module id", d.ModuleID)
	db.Field("digest", d.Digest)
	w.copyable("user data", d.UserData.String())
	w.copyable("public key", d.PublicKey.String())
	idx := make([]int, 0, len(d.PCRs))
	for i := range d.PCRs {
		idx = append(idx, i)
	}
	sort.Ints(idx)
	for _, i := range idx {
		w.copyable(fmt.Sprintf("PCR%d", i), d.PCRs[i].String())
	}
	db.Field("certificate", d.Certificate.Subject)
	db.Field("  valid", d.Certificate.NotBefore.UTC().Format("2006-01-02 15:04")+" – "+d.Certificate.NotAfter.UTC().Format("2006-01-02 15:04 UTC"))
	db.Field("cabundle", fmt.Sprintf("%d certificate(s)", len(d.CABundle)))
}

func (w *reportWriter) manifest(m *proof.Manifest) {
	db := w.db
	db.Section("QOS manifest " + m.Version)
	w.copyable("manifest hash", m.SHA256.String())
	db.Field("namespace", m.Namespace.Name)
	db.Field("nonce", fmt.Sprint(m.Namespace.Nonce))
	w.copyable("quorum key", m.Namespace.QuorumKey.String())
	w.copyable("pivot hash", m.Pivot.Hash.String())
	db.Field("restart", m.Pivot.Restart)
	db.Field("args", shownArgs(m.Pivot.Args))
	if m.Pivot.DebugMode {
		db.Styled(w.th.Warn.Render("debug mode: " + proof.PivotDebugText))
	}
	for _, br := range m.Pivot.Bridges {
		db.Field("bridge", api.ClipBytes(br, proof.MaxShownConfig))
	}
	// Approved with the manifest (v2), so shown; Field sanitizes, and the
	// clip keeps a hostile one from filling the screen.
	if m.Pivot.Env != "" {
		db.Field("env", api.ClipBytes(m.Pivot.Env, proof.MaxShownConfig))
	}
	if m.DNS != "" {
		db.Field("dns", api.ClipBytes(m.DNS, proof.MaxShownConfig))
	}
	quorumSet(db, w.th, "manifest set", m.ManifestSet)
	quorumSet(db, w.th, "share set", m.ShareSet)
	if m.PatchSet != nil {
		quorumSet(db, w.th, "patch set", *m.PatchSet)
	}
	w.copyable("manifest PCR0", m.Enclave.PCR0.String())
	w.copyable("manifest PCR1", m.Enclave.PCR1.String())
	w.copyable("manifest PCR2", m.Enclave.PCR2.String())
	w.copyable("manifest PCR3", m.Enclave.PCR3.String())
	if m.Enclave.QOSCommit == "" {
		db.Field("qos_commit", "(empty)")
	}
	w.copyable("qos_commit", m.Enclave.QOSCommit)
	root := "absent"
	if m.Enclave.AWSRootCert {
		root = "present, not the pinned Root-G1"
		if m.Enclave.AWSRootIsPinned {
			root = "present, the pinned Root-G1"
		}
	}
	db.Field("AWS root cert", root)
}

func (w *reportWriter) approvals(m *proof.Manifest) {
	w.db.Section(fmt.Sprintf("Envelope approvals (%d, threshold %d)", len(m.Approvals), m.ManifestSet.Threshold))
	for _, ap := range m.Approvals {
		st := proof.Fail
		if ap.Valid && ap.Member {
			st = proof.Pass
		}
		// Quoted as the CLI shows it: a look-alike letter ("аlice", a
		// Cyrillic а) is escaped, so one approver cannot pass for another.
		key, _ := memberKeyText(ap.PubKey) // a malformed key's approval fails, saying why
		text := api.Quote(ap.Alias) + "  " + key
		if ap.Reason != "" {
			text += "  " + ap.Reason
		} else if st == proof.Pass {
			text += "  valid signature by a manifest-set member"
		}
		w.db.Styled(checkMark(w.th, st) + " " + ui.Clean(text))
	}
	if len(m.Approvals) == 0 {
		w.db.Line("(none)")
	}
}

func (w *reportWriter) labels(bp *api.BootProof) {
	w.db.Section("Service labels (not attested)")
	// Clipped as the manifest's free strings are: the service alone sets
	// them, and a reply of the client's 16 MiB bound in one would be
	// wrapped again on every key and clock tick, freezing the console.
	w.db.Field("enclave app", api.ClipBytes(bp.EnclaveApp, proof.MaxShownConfig))
	w.db.Field("owner", api.ClipBytes(bp.Owner, proof.MaxShownConfig))
	w.db.Field("deployment", api.ClipBytes(bp.DeploymentLabel, proof.MaxShownConfig))
	w.db.Field("created", fmtTime(w.now, bp.CreatedAt))
}

func quorumSet(db *ui.DetailBuilder, th *theme.Theme, name string, s proof.QuorumSet) {
	db.Field(name, fmt.Sprintf("%d of %d", s.Threshold, len(s.Members)))
	for _, m := range s.Members {
		// Quoted as the CLI's set and this screen's approvals show it, so a
		// look-alike letter shows escaped and "(no alias)" cannot be an alias.
		alias := "(no alias)"
		if m.Alias != "" {
			alias = api.Quote(m.Alias)
		}
		key, malformed := memberKeyText(m.PubKey)
		line := "    " + alias + "  " + key
		if malformed {
			// Such a member counts in "N of M" but can never approve.
			db.Styled(th.Warn.Render(ui.Clean(line)))
			continue
		}
		db.Line(line)
	}
}

// memberKeyText names a quorum member's key by the start of its signing half,
// the half its approvals are checked against: the encryption half is public,
// so anyone can pair it with a signing key of their own, and a prefix of it
// would show their member as the operator's. A key not of a QOS key's
// length, or whose halves are not both P-256 points, is malformed: no prefix
// of it is shown, as its first bytes may be a genuine member's encryption half.
func memberKeyText(key proof.HexBytes) (text string, malformed bool) {
	half, ok := proof.SigningHalf(key)
	if !ok {
		return fmt.Sprintf("⚠ malformed key: %d bytes, not a 130-byte QOS key (encryption half ‖ signing half): it can sign no approval", len(key)), true
	}
	if err := proof.QOSKeyError(key); err != nil {
		return "⚠ malformed key: " + err.Error() + ": it can sign no approval", true
	}
	return "signing " + clip(proof.HexBytes(half).String(), 24), false
}

func padPlain(s string, w int) string {
	if n := ansi.StringWidth(s); n < w {
		return s + strings.Repeat(" ", w-n)
	}
	return s + " "
}

// quoteEach shows a list of strings as "a" "b"; the caller cleans the result, so
// each shows escaped the one way every server string does.
func quoteEach(list []string) string {
	q := make([]string, len(list))
	for i, s := range list {
		q[i] = `"` + s + `"`
	}
	return "[" + strings.Join(q, " ") + "]"
}
