// Package replyfuzz mutates the local service's JSON replies structurally,
// with a seeded RNG, for fuzzing the console and the CLI under a hostile
// service (servertest.Demo.Rewriting): dropped, duplicated and renamed
// keys, other types, huge and deep values, wrong enums, other objects' ids,
// out-of-range times, a status that changes between reads, and votes moved
// between replies. Replies are parsed with their keys in order, so
// duplicate keys can be written. Test-only.
package replyfuzz

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"sort"
	"strings"
	"sync"
)

// Classes of mutation. GetDiverge changes the id or fingerprint of a reply
// about one activity (get_activity's, or a submission's) from the one the
// list showed.
const (
	Drop       = "drop-field"
	Dup        = "duplicate-key"
	Rename     = "rename-case"
	Retype     = "change-type"
	HugeArray  = "huge-array"
	HugeString = "huge-string"
	Deep       = "deep-nesting"
	Enum       = "wrong-enum"
	OtherID    = "other-object-id"
	Timestamp  = "timestamp-out-of-range"
	StatusFlip = "status-between-reads"
	GetDiverge = "id-or-fingerprint-list-vs-get"
	MoveVotes  = "votes-moved"
	Pass       = "pass"
)

// Classes is every class of mutation (not Pass), for checking that a run
// applied each.
func Classes() []string {
	return []string{Drop, Dup, Rename, Retype, HugeArray, HugeString, Deep, Enum, OtherID, Timestamp, StatusFlip, GetDiverge, MoveVotes}
}

// Mutator mutates replies (Rewrite) and keeps a tally per class and the
// last mutations made. It is safe for concurrent use.
type Mutator struct {
	mu    sync.Mutex
	rng   *rand.Rand
	rate  int // percent of replies mutated
	tally map[string]int
	log   []string // the last 200 mutations
	votes []any    // votes seen in earlier replies
	ids   []string
	flips map[string]int
}

// New is a Mutator seeded with seed that mutates rate percent of replies.
func New(seed uint64, rate int) *Mutator {
	return &Mutator{rng: rand.New(rand.NewPCG(seed, 99)), rate: rate, tally: map[string]int{}, flips: map[string]int{}}
}

// Rewrite is a servertest.Rewrite.
func (m *Mutator) Rewrite(op string, request, reply []byte) []byte {
	m.mu.Lock()
	defer m.mu.Unlock()
	v, err := parse(reply)
	if err != nil {
		return reply
	}
	m.harvest(v)
	if m.rng.IntN(100) >= m.rate {
		// Left as sent, unless it fits a class no reply has had yet: the
		// replies some classes fit (a get after a list, a reply with votes)
		// are few, and which of them the rate picks shifts with every
		// request the program under test adds, so a short run would
		// otherwise leave a class untested by chance.
		if out, ok := m.firstOfClass(op, reply); ok {
			return out
		}
		m.tally[Pass]++
		return reply
	}
	// The least-applied class that fits this reply, ties in random order:
	// short runs (the default test runs) still apply every class, even
	// those few replies fit (a get after a list, a reply with votes).
	classes := Classes()
	m.rng.Shuffle(len(classes), func(i, j int) { classes[i], classes[j] = classes[j], classes[i] })
	sort.SliceStable(classes, func(i, j int) bool { return m.tally[classes[i]] < m.tally[classes[j]] })
	class, ok := "", false
	for _, class = range classes {
		if v, ok = m.apply(class, op, v); ok {
			break
		}
	}
	if !ok {
		m.tally[Pass]++
		return reply
	}
	return m.record(op, class, v)
}

// firstOfClass mutates reply by a class no reply has had yet that fits it,
// if any (m.mu held).
func (m *Mutator) firstOfClass(op string, reply []byte) ([]byte, bool) {
	for _, class := range Classes() {
		if m.tally[class] > 0 {
			continue
		}
		v, err := parse(reply)
		if err != nil {
			return nil, false
		}
		if v, ok := m.apply(class, op, v); ok {
			return m.record(op, class, v), true
		}
	}
	return nil, false
}

// record tallies a mutation by class, logs it and returns the reply v
// became (m.mu held).
func (m *Mutator) record(op, class string, v any) []byte {
	m.tally[class]++
	var b bytes.Buffer
	write(&b, v)
	out := b.Bytes()
	m.log = append(m.log, fmt.Sprintf("%s %s: %.300s", op, class, out))
	if len(m.log) > 200 {
		m.log = m.log[len(m.log)-200:]
	}
	return out
}

// Summary is the tally, sorted.
func (m *Mutator) Summary() string {
	m.mu.Lock()
	defer m.mu.Unlock()
	var ks []string
	for k := range m.tally {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	var s []string
	for _, k := range ks {
		s = append(s, fmt.Sprintf("%s=%d", k, m.tally[k]))
	}
	return strings.Join(s, " ")
}

// Tally is how many replies each class mutated (Pass: left as sent).
func (m *Mutator) Tally() map[string]int {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := make(map[string]int, len(m.tally))
	for k, v := range m.tally {
		out[k] = v
	}
	return out
}

// LastLog is the last n mutations (of at most 200 kept): the operation,
// the class and the start of the reply as rewritten.
func (m *Mutator) LastLog(n int) []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]string(nil), m.log[max(0, len(m.log)-n):]...)
}

func (m *Mutator) harvest(v any) {
	walk(v, func(parent any, key string, val any) {
		if key == "votes" {
			if a, ok := val.([]any); ok && len(a) > 0 {
				m.votes = append(m.votes[max(0, len(m.votes)-20):], a...)
			}
		}
		if s, ok := val.(string); ok && (key == "id" || key == "fingerprint" || strings.HasSuffix(key, "Id")) && len(m.ids) < 500 {
			m.ids = append(m.ids, s)
		}
	})
}

var hostile = []string{"\x1b[2J\x1b]0;pwn\x07", "\u202eevil", "\u009b31m", "\r\x08\x7f", "財務\u200b", "", " ", "\x00"}

func (m *Mutator) pick(ns []node, want func(node) bool) (node, bool) {
	var c []node
	for _, n := range ns {
		if want == nil || want(n) {
			c = append(c, n)
		}
	}
	if len(c) == 0 {
		return node{}, false
	}
	return c[m.rng.IntN(len(c))], true
}

func isObjEntry(n node) bool { return n.o != nil }

func (m *Mutator) randomValue(depth int) any {
	switch m.rng.IntN(7) {
	case 0:
		return nil
	case 1:
		return json.Number([]string{"0", "-1", "1e308", "9223372036854775808", "-9999999999999", "1.5", "3"}[m.rng.IntN(7)])
	case 2:
		return hostile[m.rng.IntN(len(hostile))]
	case 3:
		return m.rng.IntN(2) == 0
	case 4:
		if depth > 2 {
			return []any{}
		}
		return []any{m.randomValue(depth + 1), m.randomValue(depth + 1)}
	case 5:
		if depth > 2 {
			return obj{}
		}
		return obj{{"x", m.randomValue(depth + 1)}}
	}
	return "other"
}

func (m *Mutator) apply(class, op string, root any) (any, bool) {
	ns := nodes(root)
	switch class {
	case Drop:
		n, ok := m.pick(ns, isObjEntry)
		if !ok {
			return root, false
		}
		// remove n.o[n.i]: obj is a slice header; rebuild in place via parent search
		return removeEntry(root, n), true
	case Dup:
		n, ok := m.pick(ns, isObjEntry)
		if !ok {
			return root, false
		}
		return insertEntry(root, n, kv{n.key, m.mutatedValue(n.get())}, m.rng.IntN(2) == 0), true
	case Rename:
		n, ok := m.pick(ns, isObjEntry)
		if !ok {
			return root, false
		}
		k := n.o[n.i].K
		switch m.rng.IntN(3) {
		case 0:
			k = strings.ToUpper(k)
		case 1:
			if k != "" {
				k = strings.ToUpper(k[:1]) + k[1:]
			}
		default:
			k = k + "_"
		}
		if m.rng.IntN(2) == 0 {
			// case variant beside the original: duplicate under another case
			return insertEntry(root, n, kv{k, m.mutatedValue(n.get())}, m.rng.IntN(2) == 0), true
		}
		n.o[n.i].K = k
		return root, true
	case Retype:
		n, ok := m.pick(ns, nil)
		if !ok {
			return root, false
		}
		n.set(m.retype(n.get()))
		return root, true
	case HugeArray:
		n, ok := m.pick(ns, func(n node) bool { a, ok := n.get().([]any); return ok && len(a) > 0 })
		if !ok {
			return root, false
		}
		a := n.get().([]any)
		k := 200 + m.rng.IntN(3000)
		big := make([]any, 0, k)
		for i := 0; i < k; i++ {
			big = append(big, a[i%len(a)])
		}
		n.set(big)
		return root, true
	case HugeString:
		n, ok := m.pick(ns, func(n node) bool { _, ok := n.get().(string); return ok })
		if !ok {
			return root, false
		}
		unit := []string{"W", "財", "\u202e", "\x1b[1m", "\u009b", "e\u0301", "👍"}[m.rng.IntN(7)]
		n.set(strings.Repeat(unit, 1000+m.rng.IntN(100000)))
		return root, true
	case Deep:
		n, ok := m.pick(ns, nil)
		if !ok {
			return root, false
		}
		d := 50 + m.rng.IntN(5000)
		var v any = n.get()
		for i := 0; i < d; i++ {
			if m.rng.IntN(2) == 0 {
				v = []any{v}
			} else {
				v = obj{{"a", v}}
			}
		}
		n.set(v)
		return root, true
	case Enum:
		n, ok := m.pick(ns, func(n node) bool {
			k := strings.ToLower(n.key)
			return n.o != nil && (k == "status" || k == "selection" || k == "effect" || k == "type" || strings.HasSuffix(k, "type") || k == "role" || k == "action")
		})
		if !ok {
			return root, false
		}
		vals := []any{"ACTIVITY_STATUS_COMPLETED", "ACTIVITY_STATUS_CONSENSUS_NEEDED", "ACTIVITY_STATUS_FAILED", "ACTIVITY_STATUS_REJECTED",
			"VOTE_SELECTION_APPROVED", "VOTE_SELECTION_REJECTED", "EFFECT_DENY", "ACTIVITY_TYPE_DELETE_USERS", "BOGUS", "\x1b]0;pwn\x07", "\u009b2J\u202e", "activity_status_completed", "", json.Number("3"), nil}
		n.set(vals[m.rng.IntN(len(vals))])
		return root, true
	case OtherID:
		n, ok := m.pick(ns, func(n node) bool {
			_, s := n.get().(string)
			return s && n.o != nil && (n.key == "id" || strings.HasSuffix(n.key, "Id") || n.key == "fingerprint")
		})
		if !ok || len(m.ids) == 0 {
			return root, false
		}
		n.set(m.ids[m.rng.IntN(len(m.ids))])
		return root, true
	case Timestamp:
		n, ok := m.pick(ns, func(n node) bool {
			k := strings.ToLower(n.key)
			return n.o != nil && (strings.Contains(k, "time") || strings.HasSuffix(k, "at") || k == "seconds" || k == "nanos" || strings.Contains(k, "date"))
		})
		if !ok {
			return root, false
		}
		vals := []any{"-62135596801", "253402300800", "-1", "abc", json.Number("-5"), json.Number("253402300800"), "1e30", nil, "", "9223372036854775807",
			obj{{"seconds", "253402300800"}, {"nanos", json.Number("0")}}, obj{{"seconds", "-99999999999"}, {"nanos", json.Number("-1")}}, "2026-13-45T99:99:99Z", "10000-01-01T00:00:00Z"}
		n.set(vals[m.rng.IntN(len(vals))])
		return root, true
	case StatusFlip:
		var st []node
		for _, n := range ns {
			if n.o != nil && n.key == "status" {
				st = append(st, n)
			}
		}
		if len(st) == 0 {
			return root, false
		}
		order := []string{"ACTIVITY_STATUS_CONSENSUS_NEEDED", "ACTIVITY_STATUS_COMPLETED", "ACTIVITY_STATUS_REJECTED", "ACTIVITY_STATUS_FAILED", "ACTIVITY_STATUS_CREATED", "ACTIVITY_STATUS_PENDING"}
		for _, n := range st {
			id := sibling(n.o, "id")
			m.flips[id]++
			n.set(order[(m.flips[id]+m.rng.IntN(2))%len(order)])
		}
		return root, true
	case GetDiverge:
		// A reply about one activity: a read's, or a submission's (a vote's).
		if !strings.Contains(op, "get_activity") && !strings.HasPrefix(op, "submit/") {
			return root, false
		}
		n, ok := m.pick(ns, func(n node) bool { return n.o != nil && (n.key == "id" || n.key == "fingerprint") })
		if !ok {
			return root, false
		}
		s, _ := n.get().(string)
		if len(m.ids) > 0 && m.rng.IntN(2) == 0 {
			n.set(m.ids[m.rng.IntN(len(m.ids))])
		} else if s != "" {
			b := []byte(s)
			i := m.rng.IntN(len(b))
			b[i] = "0123456789abcdef"[m.rng.IntN(16)]
			n.set(string(b))
		}
		return root, true
	case MoveVotes:
		n, ok := m.pick(ns, func(n node) bool { return n.o != nil && n.key == "votes" })
		if !ok || len(m.votes) == 0 {
			return root, false
		}
		var a []any
		if cur, ok := n.get().([]any); ok {
			a = append(a, cur...)
		}
		k := 1 + m.rng.IntN(3)
		for i := 0; i < k; i++ {
			a = append(a, m.votes[m.rng.IntN(len(m.votes))])
		}
		if m.rng.IntN(3) == 0 {
			a = a[len(a)-k:] // replace the votes entirely
		}
		n.set(a)
		return root, true
	}
	return root, false
}

func sibling(o obj, k string) string {
	for _, e := range o {
		if e.K == k {
			s, _ := e.V.(string)
			return s
		}
	}
	return ""
}

func (m *Mutator) mutatedValue(v any) any {
	if m.rng.IntN(2) == 0 {
		return m.retype(v)
	}
	return m.randomValue(0)
}

func (m *Mutator) retype(v any) any {
	switch x := v.(type) {
	case string:
		switch m.rng.IntN(4) {
		case 0:
			return json.Number("12345")
		case 1:
			return nil
		case 2:
			return []any{x}
		}
		return obj{{"value", x}}
	case json.Number:
		switch m.rng.IntN(3) {
		case 0:
			return string(x)
		case 1:
			return nil
		}
		return []any{x}
	case nil:
		return m.randomValue(0)
	case bool:
		return []any{"true", json.Number("1"), nil}[m.rng.IntN(3)]
	case []any:
		if len(x) > 0 && m.rng.IntN(2) == 0 {
			return x[0]
		}
		return []any{obj{}, nil, "x", json.Number("1")}[m.rng.IntN(4)]
	case obj:
		return []any{[]any{x}, "obj", nil, json.Number("0")}[m.rng.IntN(4)]
	}
	return nil
}

// VotedFingerprint is the fingerprint a request signs when op is a vote
// (approve_activity or reject_activity): what a fuzz's oracle compares with
// what the member was shown before the vote.
func VotedFingerprint(op string, request []byte) (string, bool) {
	if op != "submit/approve_activity" && op != "submit/reject_activity" {
		return "", false
	}
	var body struct {
		Parameters struct {
			Fingerprint string `json:"fingerprint"`
		} `json:"parameters"`
	}
	json.Unmarshal(request, &body) // a body that does not read names no fingerprint: ""
	return body.Parameters.Fingerprint, true
}

// Unapplied is the classes (Classes) that total, a run's tally summed over
// its seeds, never applied: what the run did not test.
func Unapplied(total map[string]int) []string {
	var missing []string
	for _, class := range Classes() {
		if total[class] == 0 {
			missing = append(missing, class)
		}
	}
	return missing
}
