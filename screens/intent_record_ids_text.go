package screens

import (
	"crypto/sha256"
	"fmt"
	"strings"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/ui"
)

// What the console says of an activity the record holds a swap against.
// An id moved between fingerprints is worded against the copy shown: "this
// copy has X; the service also sent it with Y", Y never X (the copy may
// carry the first fingerprint again).

// shownFingerprint is a fingerprint as the console shows one.
func shownFingerprint(fp string) string { return ui.Clean(api.SanitizeID(fp)) }

// shown is k as the console shows it, a cut marked as one.
func (k keptFingerprint) shown() string {
	if k.size > len(k.head) {
		return fmt.Sprintf("%s… (cut: %d bytes)", shownFingerprint(k.head), k.size)
	}
	return shownFingerprint(k.head)
}

// differs says where fingerprint cur, the copy's, differs from k when the
// two as shown could be taken for one another (one starts as the other
// does, or they share most of their first bytes), or "".
func (k keptFingerprint) differs(cur string) string {
	short := min(len(cur), len(k.head))
	n := 0
	for n < short && cur[n] == k.head[n] {
		n++
	}
	switch {
	case n < short && n*2 < short:
		return "" // they differ early: plain to see
	case n < short:
		return fmt.Sprintf(" (the same first %d bytes as this copy's, then different)", n)
	case k.size != len(cur):
		return fmt.Sprintf(" (%d bytes long, this copy's %d: the same first %d bytes, then different)", k.size, len(cur), n)
	}
	// The same length and the same first bytes, as far as kept: the rest differs.
	mine := sha256.Sum256([]byte(cur))
	return fmt.Sprintf(" (the same length and first %d bytes as this copy's, then different: its SHA-256 starts %x, this copy's %x)", n, k.sum[:8], mine[:8])
}

// movedText says in plain words what changed when act's id came under two
// fingerprints: the one this copy has, and the other(s) the service sent.
func movedText(w swapSeen, act *api.Activity) string {
	also := make([]string, 0, len(w.others))
	for _, k := range w.others {
		also = append(also, k.shown()+k.differs(act.Fingerprint))
	}
	has := "has fingerprint " + shownFingerprint(act.Fingerprint)
	if act.Fingerprint == "" {
		has = "has no fingerprint"
	}
	return "the service sent this activity under more than one fingerprint: this copy " + has +
		"; the service also sent it with " + strings.Join(also, " and ") +
		"; an activity's fingerprint is the hash of its submission and never changes"
}

// swapRefusal is why approving a swapped activity is refused.
func swapRefusal(w swapSeen, act *api.Activity) string {
	why := "the service sent another intent under this same fingerprint"
	if !w.intents {
		why = movedText(w, act)
	}
	return "you cannot approve this activity: " + why + ", so what an approval signs cannot be told; " +
		"you may still reject it (x); read it with 'vigil activity get --json " + ui.Clean(api.SanitizeID(act.ID)) + "' and ask its requester"
}

// swapDialogLines are the reject dialog's first lines on a swapped activity
// (approving it is refused): what a rejection of it rejects.
func swapDialogLines(w swapSeen, act *api.Activity) []string {
	var out []string
	rejects := "you are rejecting whatever activity the service holds under fingerprint " + shownFingerprint(act.Fingerprint) +
		" (what your vote signs), and the intent below may not be the one that fingerprint stands for; rejecting is allowed: a rejection lets nothing through"
	if w.intents {
		out = append(out, "WARNING: the service sent another intent under this same fingerprint: "+rejects)
		rejects = "the same holds"
	}
	if w.moved {
		out = append(out, "WARNING: "+movedText(w, act)+": "+rejects)
	}
	return out
}

// swapRowMark starts the WHAT cell of an activity whose fingerprint came
// with two intents; movedRowMark that of one whose id came under two
// fingerprints.
const (
	swapRowMark  = "⚠ 2 intents, 1 fingerprint: "
	movedRowMark = "⚠ 2 fingerprints, 1 activity: "
)

// rowMark is the mark of a row w is held against.
func (w swapSeen) rowMark() string {
	if w.intents {
		return swapRowMark
	}
	return movedRowMark
}

// detailWarning is the detail's warning on a swapped activity.
func (w swapSeen) detailWarning(act *api.Activity) string {
	why := "the service sent another intent under this same fingerprint: do not approve it (a is refused; x may reject it); " +
		"this console has seen the fingerprint with two intents, so what it stands for cannot be told"
	if w.moved {
		what := movedText(w, act) + ": do not approve it (a is refused; x may reject it); what an approval would sign cannot be told"
		if w.intents {
			why += "; and " + what
		} else {
			why = what
		}
	}
	return "⚠ " + why + "; read it with 'vigil activity get --json " + api.SanitizeID(act.ID) + "' and ask its requester"
}

// swapWithdrawn is why an open approve dialog is withdrawn on a swap.
func swapWithdrawn(w swapSeen) string {
	if w.intents {
		return "the service sent another intent under the same fingerprint while it was open: what the fingerprint stands for cannot be told; do not approve it"
	}
	return "the service sent this activity under another fingerprint while it was open (an activity's fingerprint never changes): what an approval would sign cannot be told; do not approve it"
}
