package screens

import (
	"crypto/sha256"
	"slices"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/ui"
)

// A real activity's fingerprint is the hash of its submission: it never
// changes. An activity id seen under a second fingerprint (a proxy showing
// activity X with fingerprint F1, later F2) is a swap as a fingerprint with
// two intents is: what an approval of it would sign cannot be told.

// maxFingerprintShown bounds the first fingerprint kept per id, to say
// what changed (it comes from the service, unbounded).
const maxFingerprintShown = 128

// seenFingerprint is the first fingerprint seen under one activity id,
// whether another came since, and when it was seen last.
type seenFingerprint struct {
	fingerprint [sha256.Size]byte
	first       string // the first fingerprint, cut to maxFingerprintShown bytes
	moved       bool
	last        int
}

// age says whether e is evidence of a swap, and when it was seen last.
func (e *seenFingerprint) age() (bool, int) { return e.moved, e.last }

// noteFingerprint records act's fingerprint under its id; it reports
// whether the id is newly seen under a second fingerprint. An activity
// sent with no fingerprint has none to compare.
func (s *intentsSeen) noteFingerprint(act *api.Activity) bool {
	if act.Fingerprint == "" {
		return false
	}
	if s.byID == nil {
		s.byID = map[[sha256.Size]byte]*seenFingerprint{}
	}
	key, fp := sha256.Sum256([]byte(act.ID)), sha256.Sum256([]byte(act.Fingerprint))
	e, ok := s.byID[key]
	if !ok {
		first := act.Fingerprint
		if len(first) > maxFingerprintShown {
			first = first[:maxFingerprintShown]
		}
		s.byID[key] = &seenFingerprint{fingerprint: fp, first: first, last: s.clock}
		evictOldest(s.byID)
		return false
	}
	e.last = s.clock
	if e.moved || e.fingerprint == fp {
		return false
	}
	e.moved = true
	return true
}

// swapSeen is what the record holds against one activity's copy.
type swapSeen struct {
	intents bool   // its fingerprint came with two intents or under two ids
	moved   bool   // its id came under two fingerprints
	first   string // then, the first fingerprint it came with (cut)
}

func (w swapSeen) any() bool { return w.intents || w.moved }

// seenSwap is what the record holds against activity id with fingerprint.
func (s *intentsSeen) seenSwap(id, fingerprint string) swapSeen {
	w := swapSeen{intents: s.fingerprintSwapped(id, fingerprint)}
	if e := s.byID[sha256.Sum256([]byte(id))]; e != nil && e.moved {
		w.moved, w.first = true, e.first
	}
	return w
}

// evictOldest forgets, once m is over maxIntentsSeen, a quarter of it: the
// entries seen least recently, those that are no evidence of a swap before
// those that are (a service rotating fingerprints or ids must not wash the
// evidence out). Done in one go, the sort costs little per note.
func evictOldest[V interface{ age() (bool, int) }](m map[[sha256.Size]byte]V) {
	if len(m) <= maxIntentsSeen {
		return
	}
	type aged struct {
		key  [sha256.Size]byte
		kept bool
		last int
	}
	all := make([]aged, 0, len(m))
	for k, e := range m {
		kept, last := e.age()
		all = append(all, aged{k, kept, last})
	}
	slices.SortFunc(all, func(x, y aged) int {
		if x.kept != y.kept {
			if x.kept {
				return 1
			}
			return -1
		}
		return x.last - y.last
	})
	for _, x := range all[:len(all)-maxIntentsSeen*3/4] {
		delete(m, x.key)
	}
}

// shownFingerprint is a fingerprint as the console shows one.
func shownFingerprint(fp string) string { return ui.Clean(api.SanitizeID(fp)) }

// movedText says in plain words what changed when act's id came under two
// fingerprints.
func movedText(w swapSeen, act *api.Activity) string {
	return "the service sent this activity with fingerprint " + shownFingerprint(w.first) + " before and now with " + shownFingerprint(act.Fingerprint) +
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
