package screens

import (
	"crypto/sha256"
	"slices"
	"unicode/utf8"

	"github.com/vigil-console/vigil/api"
)

// A real activity's fingerprint is the hash of its submission: it never
// changes. An activity id seen under a second fingerprint (a proxy showing
// activity X with fingerprint F1, later F2) is a swap as a fingerprint with
// two intents is: what an approval of it would sign cannot be told.

// maxFingerprintShown bounds each fingerprint kept per id, to say what
// changed (it comes from the service, unbounded).
const maxFingerprintShown = 128

// seenFingerprint is the first fingerprint seen under one activity id, the
// first one that differed from it, if any came, and when the id was seen
// last. Two are kept, not one: the copy on screen may carry either (a proxy
// rewriting some replies only, or swapping back), and the warning names the
// one it does not carry.
type seenFingerprint struct {
	first keptFingerprint
	other *keptFingerprint // nil until another fingerprint came
	last  int
}

// keptFingerprint is a fingerprint as the record keeps it: its hash, to
// compare, and its first bytes and length, to show.
type keptFingerprint struct {
	sum  [sha256.Size]byte
	head string // its first maxFingerprintShown bytes at most, cut at a rune's start
	size int    // its length in bytes
}

func keepFingerprint(fp string) keptFingerprint {
	head := fp
	if len(head) > maxFingerprintShown {
		n := maxFingerprintShown
		for n > 0 && !utf8.RuneStart(fp[n]) {
			n--
		}
		head = fp[:n]
	}
	return keptFingerprint{sum: sha256.Sum256([]byte(fp)), head: head, size: len(fp)}
}

// age says whether e is evidence of a swap, and when it was seen last.
func (e *seenFingerprint) age() (bool, int) { return e.other != nil, e.last }

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
		s.byID[key] = &seenFingerprint{first: keepFingerprint(act.Fingerprint), last: s.clock}
		evictOldest(s.byID)
		return false
	}
	e.last = s.clock
	if e.other != nil || e.first.sum == fp {
		return false
	}
	other := keepFingerprint(act.Fingerprint)
	e.other = &other
	return true
}

// swapSeen is what the record holds against one activity's copy.
type swapSeen struct {
	intents bool              // its fingerprint came with two intents or under two ids
	moved   bool              // its id came under two fingerprints
	others  []keptFingerprint // then, those of them the copy does not carry
}

func (w swapSeen) any() bool { return w.intents || w.moved }

// same reports whether w and x hold the same: a warning worked out under
// w says what it should under x.
func (w swapSeen) same(x swapSeen) bool {
	return w.intents == x.intents && w.moved == x.moved && slices.Equal(w.others, x.others)
}

// seenSwap is what the record holds against activity id with fingerprint.
func (s *intentsSeen) seenSwap(id, fingerprint string) swapSeen {
	w := swapSeen{intents: s.fingerprintSwapped(id, fingerprint)}
	e := s.byID[sha256.Sum256([]byte(id))]
	if e == nil || e.other == nil {
		return w
	}
	w.moved = true
	sum := sha256.Sum256([]byte(fingerprint))
	for _, k := range []keptFingerprint{e.first, *e.other} {
		if k.sum != sum {
			w.others = append(w.others, k)
		}
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
