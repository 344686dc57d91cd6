package screens

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"io"
	"slices"
	"strconv"
	"unicode/utf8"

	tea "charm.land/bubbletea/v2"

	"github.com/vigil-console/vigil/api"
)

// A fingerprint is what a vote signs, and the console cannot check it
// against the intent it shows. So the screen remembers, for every
// fingerprint it has seen, the activity id and the intent that first came
// with it, whatever copy brought it (a list refresh, the open detail's
// reads, a vote's reply, another screen's). A fingerprint that came with a
// second intent, or under a second activity id (a vote on either counts on
// whichever the service holds under it), cannot be told what it stands
// for: approving it is refused, the detail warns, the list rows are marked.
// Rejecting stays allowed: a rejection of a suspicious activity is safe
// whichever intent the service holds.
//
// The other way round, an activity id seen under a second fingerprint is
// flagged too (intent_record_ids.go): a real activity's fingerprint is the
// hash of its submission and never changes.

// maxIntentsSeen bounds the record: past it, the entries seen least
// recently are forgotten first, those with two intents last.
const maxIntentsSeen = 4096

// intentsSeen is the screen's record of the first activity id and intent
// seen per fingerprint.
type intentsSeen struct {
	byKey map[[sha256.Size]byte]*seenIntent
	byID  map[[sha256.Size]byte]*seenFingerprint // the first fingerprint per activity id
	clock int                                    // counts notes: when each entry was seen last
}

// seenIntent is the first activity id and intent seen under one
// fingerprint, whether another came under it since, and when it was seen
// last. raw is the hash of the JSON of the last copy found to hold that
// intent: a copy sent again byte for byte (every refresh, on an honest
// service) needs no canonical form.
type seenIntent struct {
	id      [sha256.Size]byte
	sum     string
	raw     [sha256.Size]byte
	hasRaw  bool
	swapped bool
	last    int
}

// seenKey keys the record on a hash of the fingerprint (it comes from the
// service, unbounded); an activity sent with none is keyed on its id, so
// such activities are not all one fingerprint.
func seenKey(id, fingerprint string) [sha256.Size]byte {
	if fingerprint == "" {
		return sha256.Sum256([]byte("id:" + id))
	}
	return sha256.Sum256([]byte("fingerprint:" + fingerprint))
}

// note records act's id and intent under its fingerprint; it reports
// whether that fingerprint is newly seen with a second intent or id.
func (s *intentsSeen) note(act *api.Activity) bool { return s.noteSum(act, "") }

// noteSum is note given sum, intentSum(act.Intent) worked out already, or
// "" to work it out here.
func (s *intentsSeen) noteSum(act *api.Activity, sum string) bool {
	s.clock++
	moved := s.noteFingerprint(act)
	return s.noteIntent(act, sum) || moved
}

// noteIntent records act's id and intent under its fingerprint; it reports
// whether that fingerprint is newly seen with a second intent or id.
func (s *intentsSeen) noteIntent(act *api.Activity, sum string) bool {
	if s.byKey == nil {
		s.byKey = map[[sha256.Size]byte]*seenIntent{}
	}
	key, id := seenKey(act.ID, act.Fingerprint), sha256.Sum256([]byte(act.ID))
	e, ok := s.byKey[key]
	if ok {
		e.last = s.clock
		if e.swapped {
			return false
		}
	}
	var raw [sha256.Size]byte
	hasRaw := false
	if sum == "" {
		js, err := json.Marshal(act.Intent)
		raw, hasRaw = sha256.Sum256(js), err == nil
		if ok && hasRaw && e.hasRaw && e.id == id && e.raw == raw {
			return false // the same bytes as last time
		}
		sum = sumJSON(js, err)
	}
	if !ok {
		s.byKey[key] = &seenIntent{id: id, sum: sum, raw: raw, hasRaw: hasRaw, last: s.clock}
		evictOldest(s.byKey)
		return false
	}
	if e.id == id && e.sum == sum {
		if hasRaw {
			e.raw, e.hasRaw = raw, true
		}
		return false
	}
	e.swapped = true
	return true
}

// swapped reports whether the fingerprint of activity id came with two
// intents or under two ids, or the id under two fingerprints: approving it
// is refused.
func (s *intentsSeen) swapped(id, fingerprint string) bool {
	return s.seenSwap(id, fingerprint).any()
}

// fingerprintSwapped reports whether the fingerprint of activity id came
// with two intents or under two ids.
func (s *intentsSeen) fingerprintSwapped(id, fingerprint string) bool {
	e := s.byKey[seenKey(id, fingerprint)]
	return e != nil && e.swapped
}

// age says whether e is evidence of a swap, and when it was seen last.
func (e *seenIntent) age() (bool, int) { return e.swapped, e.last }

// copiesIn are the copies of activities msg brings from the service.
// A placeholder (an activity shown by id only) is none.
func copiesIn(msg tea.Msg) []*api.Activity {
	var out []*api.Activity
	add := func(acts ...*api.Activity) {
		for _, a := range acts {
			if a != nil {
				out = append(out, a)
			}
		}
	}
	switch msg := msg.(type) {
	case activitiesLoadedMsg:
		for i := range msg.items {
			add(&msg.items[i])
		}
	case activityDetailMsg:
		add(msg.activity)
	case activitySettledMsg:
		add(msg.activity)
	case waitingRecordMsg:
		add(msg.activity)
	case activityVotedMsg:
		add(msg.activity, msg.current)
	case voteRecheckedMsg:
		add(msg.vote.activity, msg.vote.current)
	case voteDialogRecordMsg:
		add(msg.activity)
	case ShowActivityMsg:
		add(msg.Activity)
	case pendingTopPolledMsg: // what a notice told was waiting
		for i := range msg.items {
			add(&msg.items[i])
		}
	}
	return out
}

// noteCopies records the intents of the copies msg brings; it reports
// whether a fingerprint is newly seen with two intents or ids.
func (a *Activities) noteCopies(msg tea.Msg) bool {
	swapped := false
	if l, ok := msg.(activitiesLoadedMsg); ok && len(l.sums) == len(l.items) {
		if l.rawSums != nil {
			a.rawSums = l.rawSums
		}
		for i := range l.items {
			swapped = a.intents.noteSum(&l.items[i], l.sums[i]) || swapped
		}
		return swapped
	}
	for _, act := range copiesIn(msg) {
		swapped = a.intents.note(act) || swapped
	}
	return swapped
}

// swappedIntent reports whether act's fingerprint came with two intents
// or under two ids, or its id under two fingerprints.
func (a *Activities) swappedIntent(act *api.Activity) bool {
	return act != nil && a.intents.swapped(act.ID, act.Fingerprint)
}

// pendingVote is newPendingVote, warned when act is swapped (only a
// rejection gets this far: voteBlock refuses approval).
func (a *Activities) pendingVote(act *api.Activity, approve bool) *pendingVote {
	v := newPendingVote(a.c, act, approve)
	defer func() {
		// Opened again, or restated, it wraps only the lines that changed.
		v.dialog.ReuseWrap(a.lastVote)
		a.lastVote = v.dialog
	}()
	w := a.intents.seenSwap(act.ID, act.Fingerprint)
	v.swap = w
	if !w.any() {
		return v
	}
	d := &v.dialog
	lines := swapDialogLines(w, act)
	d.Lines = append(lines, d.Lines...)
	warn := map[int]bool{}
	for i := range lines {
		warn[i] = true
	}
	for i, w := range d.Warn {
		warn[i+len(lines)] = w
	}
	d.Warn = warn
	return v
}

// intentSum is the SHA-256 of in's JSON in a canonical form (canonicalJSON):
// the caches of what an intent shows are keyed on it, and the record of
// intents seen compares it, not the fingerprint alone, which the console
// cannot check against the intent. A member order or escape the service (or
// a proxy) chose is not another intent.
func intentSum(in api.Intent) string {
	out, err := json.Marshal(in)
	return sumJSON(out, err)
}

// sumJSON is intentSum of an intent's JSON out, or of the error encoding it.
func sumJSON(out []byte, err error) string {
	if err != nil {
		return "unencodable: " + err.Error() // never equal to a hash: a cache built for it is rebuilt
	}
	if canon, err := canonicalJSON(out); err == nil {
		out = canon
	}
	sum := sha256.Sum256(out)
	return string(sum[:])
}

// errNotCanonical: the JSON holds what a canonical form would hide (a
// member sent twice, bytes that are not UTF-8, an escape of half a
// surrogate pair); it is hashed as sent.
var errNotCanonical = errors.New("not canonicalisable")

// canonicalJSON re-encodes the JSON value data with every object's members
// sorted by key, strings escaped one way and numbers as written. A member
// sent twice, bytes that are not UTF-8 or an escape of a lone surrogate are
// refused: decoding would drop one of two values, or replace what the raw
// form shows with U+FFFD.
func canonicalJSON(data []byte) ([]byte, error) {
	if !utf8.Valid(data) || loneSurrogateEscape(data) {
		return nil, errNotCanonical
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var out bytes.Buffer
	if err := canonicalValue(dec, &out); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errNotCanonical // trailing data
	}
	return out.Bytes(), nil
}

// canonicalValue writes the next value of dec to out, canonically.
func canonicalValue(dec *json.Decoder, out *bytes.Buffer) error {
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	switch t := tok.(type) {
	case json.Delim:
		switch t {
		case '{':
			type member struct {
				key string
				val []byte
			}
			var members []member
			seen := map[string]bool{}
			for dec.More() {
				kt, err := dec.Token()
				if err != nil {
					return err
				}
				k, _ := kt.(string)
				if seen[k] {
					return errNotCanonical
				}
				seen[k] = true
				var v bytes.Buffer
				if err := canonicalValue(dec, &v); err != nil {
					return err
				}
				members = append(members, member{k, v.Bytes()})
			}
			if _, err := dec.Token(); err != nil {
				return err
			}
			slices.SortFunc(members, func(x, y member) int {
				return bytes.Compare([]byte(x.key), []byte(y.key))
			})
			out.WriteByte('{')
			for i, m := range members {
				if i > 0 {
					out.WriteByte(',')
				}
				writeString(out, m.key)
				out.WriteByte(':')
				out.Write(m.val)
			}
			out.WriteByte('}')
		case '[':
			out.WriteByte('[')
			for i := 0; dec.More(); i++ {
				if i > 0 {
					out.WriteByte(',')
				}
				if err := canonicalValue(dec, out); err != nil {
					return err
				}
			}
			if _, err := dec.Token(); err != nil {
				return err
			}
			out.WriteByte(']')
		default:
			return errNotCanonical
		}
	case string:
		writeString(out, t)
	case json.Number:
		out.WriteString(t.String())
	case bool:
		out.WriteString(strconv.FormatBool(t))
	case nil:
		out.WriteString("null")
	default:
		return errNotCanonical
	}
	return nil
}

// writeString writes s as a JSON string, <, > and & bare.
func writeString(out *bytes.Buffer, s string) {
	enc := json.NewEncoder(out)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)           // a string always encodes
	out.Truncate(out.Len() - 1) // Encode's newline
}
