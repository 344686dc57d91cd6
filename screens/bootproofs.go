package screens

import (
	"errors"
	"fmt"
	"slices"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/proof"
	"github.com/vigil-console/vigil/ui"
)

// ProofSettings are what the console verifies boot proofs and app proofs with:
// the enclave apps to watch and the profile's trust settings.
type ProofSettings struct {
	// Apps are the enclave apps whose latest boot proofs the Boot proofs screen checks.
	Apps []string
	// Roots are trusted in addition to the built-in AWS Nitro Enclaves Root-G1.
	Roots []proof.Root
	// ExpectedPCRs pins PCRs per app: app → PCR index → value.
	ExpectedPCRs map[string]map[int][]byte
	// AllowedManifestHashes pins the manifest hash of every app to one of these.
	AllowedManifestHashes [][]byte
	// ExpectedPivotHashes, ExpectedManifestSets and ExpectedQuorumKeys pin
	// the manifest's content per app (proof.Options).
	ExpectedPivotHashes  map[string][][]byte
	ExpectedManifestSets map[string]*proof.QuorumSet
	ExpectedQuorumKeys   map[string][]byte
}

// listedApps are the apps the profile names: enclave_apps and every app with
// a pin of its own (PCRs, pivot, manifest set, quorum key), sorted, without
// repeats.
func (s ProofSettings) listedApps() []string {
	apps := slices.Clone(s.Apps)
	for app := range s.ExpectedPCRs {
		apps = append(apps, app)
	}
	for app := range s.ExpectedPivotHashes {
		apps = append(apps, app)
	}
	for app := range s.ExpectedManifestSets {
		apps = append(apps, app)
	}
	for app := range s.ExpectedQuorumKeys {
		apps = append(apps, app)
	}
	slices.Sort(apps)
	return slices.Compact(apps)
}

// Options are the proof.Options for one app's boot proof: the proof must be
// that app's (proof.CheckApp). Certificates are validated at the document's
// own time (leaf certificates live hours); now only dates the report.
func (s ProofSettings) Options(app string, now time.Time) proof.Options {
	return proof.Options{Roots: s.Roots, Now: now, App: app, ExpectedPCRs: s.ExpectedPCRs[app],
		AllowedManifestHashes: s.AllowedManifestHashes, ExpectedPivotHashes: s.ExpectedPivotHashes[app],
		ExpectedManifestSet: s.ExpectedManifestSets[app], ExpectedQuorumKey: s.ExpectedQuorumKeys[app]}
}

// BootProofs shows the latest boot proof of every enclave app of the profile,
// verified: a list with a verdict per app, and a detail with every check.
type BootProofs struct {
	c    *Common
	keys bootProofsKeys
	apps []appBootProof
	// list has a row per app, in the profile's order, and the open report.
	list    ui.ListDetail
	copies  []copyLine // copyable lines of the detail, in order
	cursor  int        // index into copies
	gen     int        // generation of loads: stale replies are dropped
	fetched time.Time
	// shownClock are the clock-dependent texts as setRows last drew them.
	shownClock []string
	// width and height are the body's size (SetSize).
	width, height int
}

// appBootProof is one app's latest boot proof and its report.
type appBootProof struct {
	app     string
	proof   *api.BootProof
	report  *proof.Report
	err     string // could not fetch
	missing bool   // the service has no boot proof for the app (404)
	loading bool
}

// copyLine is a value of the detail that y copies (a PCR, a hash, a key).
type copyLine struct {
	label string
	value string
	line  int // raw line in the pane's content
}

// bootProofLoadedMsg brings one app's boot proof, already verified.
type bootProofLoadedMsg struct {
	gen    int
	app    string
	proof  *api.BootProof
	report *proof.Report
	err    error
	at     time.Time
}

// NewBootProofs builds the screen for the apps of c.Proofs.
func NewBootProofs(c *Common) *BootProofs {
	b := &BootProofs{c: c, keys: newBootProofsKeys(), list: ui.NewListDetail(c.Theme, bootProofColumns(c.Theme))}
	b.list.Table.Empty = "no enclave apps configured"
	b.list.Table.SetRead(true) // the apps are the profile's; each row says its own proof is loading
	for _, app := range c.Proofs.Apps {
		b.apps = append(b.apps, appBootProof{app: app})
	}
	b.setRows()
	b.syncKeys()
	return b
}

// sel is the index of the selected app (rows are the apps in order), -1
// when no row is shown (a filter matches none): never a hidden app.
func (b *BootProofs) sel() int { return b.list.Table.Selected() }

// open reports whether the report of the selected app shows.
func (b *BootProofs) open() bool { return b.list.IsOpen() }

// Title implements Screen.
func (b *BootProofs) Title() string { return "Boot proofs" }

// Init fetches and verifies every app's boot proof.
func (b *BootProofs) Init() tea.Cmd { return b.load() }

// Capturing implements Screen: the filter takes letters.
func (b *BootProofs) Capturing() bool { return b.list.Filtering() }

func (b *BootProofs) filterList() *ui.ListDetail { return &b.list }
func (b *BootProofs) filterEdited()              { b.setPreview(); b.syncKeys() }

// SetSize implements Screen: the heading takes a line, the report the rest.
func (b *BootProofs) SetSize(width, height int) {
	b.width, b.height = width, height
	b.list.SetSize(width, max(height-1, 1))
}

// Status implements Screen.
func (b *BootProofs) Status() ScreenStatus {
	st := ScreenStatus{LastRefresh: b.fetched}
	n := 0
	for _, a := range b.apps {
		if a.loading {
			n++
		}
		if a.err != "" && st.Err == "" {
			st.Err = "boot proof of " + ui.Clean(a.app) + ": " + a.err
		}
	}
	if n > 0 {
		st.Busy = fmt.Sprintf("fetching and verifying %d boot proof(s)…", n)
	}
	return st
}

// load fetches every app's latest boot proof and verifies it, one command per
// app. Verification is CPU work, so it runs in the command, not in Update.
func (b *BootProofs) load() tea.Cmd {
	if len(b.apps) == 0 {
		return nil
	}
	b.gen++
	gen, c, client, settings := b.gen, b.c, b.c.Reader, b.c.Proofs
	cmds := make([]tea.Cmd, len(b.apps))
	for i := range b.apps {
		b.apps[i].loading = true
		app := b.apps[i].app
		cmds[i] = func() tea.Msg {
			ctx, cancel := c.ctx()
			defer cancel()
			bp, err := client.GetLatestBootProof(ctx, app)
			if err == nil && bp == nil {
				err = fmt.Errorf("the service returned no boot proof")
			}
			at := c.Now() // the status bar's "refreshed", as every screen's
			if err != nil {
				return bootProofLoadedMsg{gen: gen, app: app, err: err, at: at}
			}
			// The proof checks the service, so its age is by this machine's
			// clock: the service's (from its Date header) could make a
			// replayed old proof look fresh.
			rep := proof.VerifyBootProof(*bp, settings.Options(app, c.MachineNow()))
			return bootProofLoadedMsg{gen: gen, app: app, proof: bp, report: rep, at: at}
		}
	}
	return tea.Batch(cmds...)
}

func (b *BootProofs) syncKeys() {
	has := len(b.apps) > 0
	l := &b.list.Keys
	l.Open.SetEnabled(b.sel() >= 0 && !b.open())
	l.Back.SetEnabled(b.open())
	l.Sort.SetEnabled(has && !b.open())
	l.ReverseSort.SetEnabled(has && !b.open())
	b.keys.Refresh.SetEnabled(has)
	b.keys.Up.SetEnabled(has)
	b.keys.Down.SetEnabled(has)
	b.keys.Copy.SetEnabled(b.open() && len(b.copies) > 0)
}

// Update implements Screen.
func (b *BootProofs) Update(msg tea.Msg) (Screen, tea.Cmd) {
	defer b.syncKeys()
	switch msg := msg.(type) {
	case themeChangedMsg:
		b.list.SetTheme(b.c.Theme)
		b.setRows()
		b.renderDetail()
	case clockMsg:
		// Only the ages count up: rebuilding the list and the report (every
		// member, every reason) each tick is wasted work, and a hostile proof
		// makes it large, so redraw only when an age text changed. Hidden,
		// it redraws when shown (Root.showActive).
		if !msg.unseen && !slices.Equal(b.clockTexts(b.c.MachineNow()), b.shownClock) {
			b.setRows()
			b.renderDetail()
		}
	case bootProofLoadedMsg:
		if msg.gen != b.gen {
			return b, nil
		}
		for i := range b.apps {
			if b.apps[i].app != msg.app {
				continue
			}
			a := &b.apps[i]
			a.loading = false
			a.err = ""
			if msg.err != nil {
				// A failed fetch keeps nothing from before: an old VERIFIED must
				// not stand for a proof that could not be checked again.
				a.proof, a.report, a.err = nil, nil, ui.Clean(errorText(msg.err))
				// A 404 whose body reads two ways may not be about the app at all.
				a.missing = errors.Is(msg.err, api.ErrNotFound) && !api.TwoWays(msg.err)
			} else {
				a.proof, a.report, a.missing = msg.proof, msg.report, false
			}
		}
		b.fetched = msg.at
		b.setRows()
		b.renderDetail()
	case tea.KeyPressMsg:
		return b, b.handleKey(msg)
	}
	return b, nil
}

func (b *BootProofs) handleKey(k tea.KeyPressMsg) tea.Cmd {
	if key.Matches(k, b.keys.Refresh) {
		return b.load()
	}
	if !b.open() {
		if key.Matches(k, b.list.Keys.Open) && b.sel() >= 0 {
			b.list.Open()
			b.cursor = 0
			b.renderDetail()
			return nil
		}
		var cmd tea.Cmd
		b.list, cmd = b.list.Update(k)
		b.setPreview()
		return cmd
	}
	switch {
	case key.Matches(k, b.list.Keys.Back):
		b.list.Close()
	case b.list.FilterKeyInDetail(k):
		b.list.Close()
		return b.handleKey(k)
	case key.Matches(k, b.keys.Up), key.Matches(k, b.keys.Down):
		if len(b.copies) == 0 {
			break
		}
		if key.Matches(k, b.keys.Up) {
			b.cursor = max(b.cursor-1, 0)
		} else {
			b.cursor = min(b.cursor+1, len(b.copies)-1)
		}
		b.renderDetail()
		b.list.Pane.ShowLine(b.copies[b.cursor].line)
	case key.Matches(k, b.keys.Copy):
		if b.cursor >= len(b.copies) {
			return nil
		}
		cl := b.copies[b.cursor]
		val := ui.Clean(cl.value)
		return tea.Batch(tea.SetClipboard(val), ui.Toast("copied "+ui.Clean(cl.label)+" "+clip(val, 24), false))
	default:
		var cmd tea.Cmd
		b.list, cmd = b.list.Update(k)
		return cmd
	}
	return nil
}

// ClickRow selects the clicked app (line 0 of the screen is its heading).
func (b *BootProofs) ClickRow(y int) tea.Cmd {
	if b.list.ClickRow(y - 1) {
		b.setPreview()
		b.syncKeys()
	}
	return nil
}

// clip shortens s to n runes with an ellipsis.
func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}

// Keys implements Screen.
func (b *BootProofs) Keys() ui.KeyMap { return bootProofsHelp{b} }

type bootProofsHelp struct{ b *BootProofs }

func (h bootProofsHelp) ShortHelp() []key.Binding {
	k := h.b.keys
	l := h.b.list.Keys
	if h.b.open() {
		return []key.Binding{k.Up, k.Down, k.Copy, k.Refresh, l.Back}
	}
	return []key.Binding{k.Up, k.Down, l.Open, h.b.list.Table.Keys.Filter, l.Sort, k.Refresh}
}

func (h bootProofsHelp) FullHelp() [][]key.Binding {
	k := h.b.keys
	return fullHelp(h.b.KeyActions(), []key.Binding{k.Up, k.Down}, append(listMoveKeys(&h.b.list), h.b.list.Table.Keys.Filter))
}
