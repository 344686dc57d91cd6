package api

import (
	"errors"
	"runtime"
	"strings"
	"testing"
)

// deepReply is an activity reply whose intent nests depth objects, each
// under a 64-byte key, as a hostile service or proxy may send.
func deepReply(depth int) []byte {
	key := `"` + strings.Repeat("k", 64) + `":`
	var b strings.Builder
	b.WriteString(`{"activity":{"id":"a","intent":`)
	for range depth {
		b.WriteString("{" + key)
	}
	b.WriteString("1")
	for range depth {
		b.WriteString("}")
	}
	b.WriteString("}}")
	return []byte(b.String())
}

// replyCheckBytes is the least memory CheckReplyJSON allocated over a few
// checks of reply (the least, so that another goroutine's allocations do not
// count).
func replyCheckBytes(t *testing.T, reply []byte) uint64 {
	t.Helper()
	least := ^uint64(0)
	for range 3 {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		err := CheckReplyJSON(reply, &ActivityResponse{})
		runtime.ReadMemStats(&after)
		if err != nil {
			t.Fatalf("CheckReplyJSON of a deep but unambiguous reply: %v", err)
		}
		least = min(least, after.TotalAlloc-before.TotalAlloc)
	}
	return least
}

// A reply may nest as deep as encoding/json reads (10,000). Checking it must
// cost memory in proportion to its size, or a reply of under a megabyte
// exhausts the memory of vigil request, activity get or wait.
func TestCheckReplyJSONDeepNestingMemoryIsLinear(t *testing.T) {
	small, large := deepReply(1000), deepReply(4000)
	a, b := replyCheckBytes(t, small), replyCheckBytes(t, large)
	t.Logf("depth 1000: %d bytes allocated; depth 4000: %d", a, b)
	// Four times the depth is four times the reply: allow 6× (slack for
	// the maps and slices that grow by doubling), far below the 16× of
	// memory quadratic in the depth.
	if b > 6*a+64<<10 {
		t.Errorf("checking a reply 4× as deep allocated %.1f× the memory (%d vs %d bytes): the cost grows faster than the reply", float64(b)/float64(a), b, a)
	}
}

// The path of a problem deep in a reply is still given in full.
func TestCheckReplyJSONDeepProblemPath(t *testing.T) {
	reply := []byte(`{"activity":{"intent":{"a":[{},{"b":{"c":1,"c":2}}]}}}`)
	err := CheckReplyJSON(reply, &ActivityResponse{})
	var se *StrictJSONError
	if !errors.As(err, &se) || se.Kind != JSONDuplicateKey {
		t.Fatalf("got %v, want a duplicate key error", err)
	}
	if want := "activity.intent.a[1].b"; se.Path != want {
		t.Errorf("path %q, want %q", se.Path, want)
	}
}

func BenchmarkCheckReplyJSONDeep(b *testing.B) {
	reply := deepReply(9990) // with the two levels around it, encoding/json's limit
	b.SetBytes(int64(len(reply)))
	b.ReportAllocs()
	for b.Loop() {
		if err := CheckReplyJSON(reply, &ActivityResponse{}); err != nil {
			b.Fatal(err)
		}
	}
}
