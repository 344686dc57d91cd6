package policy

import (
	"container/list"
	"strconv"
	"sync"

	"github.com/vigil-console/vigil/api"
)

// CompiledSize estimates the heap one compiled policy keeps: measured at
// about 2 KiB plus 21 bytes per byte of expression text (a 16 KiB condition
// keeps about 250 KiB).
func CompiledSize(src Source) int {
	return 2<<10 + 24*(len(src.Condition)+len(src.Consensus)+len(src.Time))
}

// sourceKey names a policy's three expressions unambiguously. Without a
// time it is compileKey's, which starts with a digit; with one it starts
// with "t", so that no policy with a time shares a key with one without.
func sourceKey(src Source) string {
	if src.Time == "" {
		return compileKey(src.Condition, src.Consensus)
	}
	return "t" + compileKey(src.Condition, compileKey(src.Consensus, src.Time))
}

// compileKey names a condition and consensus unambiguously: both are valid
// UTF-8 and may contain any character, NUL included, so the condition is
// length-prefixed rather than separated.
func compileKey(condition, consensus string) string {
	return strconv.Itoa(len(condition)) + ":" + condition + consensus
}

// CompileCache keeps the most recently used compiled policies, keyed by
// their texts, within a budget of estimated heap (CompiledSize). It saves
// recompiling an organization's unchanged policies each time its policies
// are read again. It is safe for concurrent use. Only stored policies
// should enter it: a cache filled with drafts or submissions would hold
// whatever anyone typed or sent; and it compiles as CompileStored does.
type CompileCache struct {
	mu       sync.Mutex
	budget   int
	used     int
	compiles int
	order    *list.List // of *compileEntry, most recently used first
	byKey    map[string]*list.Element
}

type compileEntry struct {
	key      string
	size     int
	compiled *Compiled
}

// NewCompileCache is an empty cache that keeps at most budget bytes of
// compiled policies, as estimated by CompiledSize.
func NewCompileCache(budget int) *CompileCache {
	return &CompileCache{budget: budget, order: list.New(), byKey: map[string]*list.Element{}}
}

// Compile returns the compiled policy for these texts, compiling it on a
// miss. A text that does not compile is not kept.
func (c *CompileCache) Compile(src Source) (*Compiled, error) {
	key := sourceKey(src)
	c.mu.Lock()
	if el, ok := c.byKey[key]; ok {
		c.order.MoveToFront(el)
		c.mu.Unlock()
		return el.Value.(*compileEntry).compiled, nil
	}
	c.compiles++
	c.mu.Unlock()
	// Compile outside the lock: it takes milliseconds for a long text, and
	// two callers compiling the same text at once only waste work.
	compiled, err := CompileStored(src)
	if err != nil {
		return nil, err
	}
	c.add(key, CompiledSize(src), compiled)
	return compiled, nil
}

func (c *CompileCache) add(key string, size int, compiled *Compiled) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.byKey[key]; ok || size > c.budget {
		return
	}
	c.byKey[key] = c.order.PushFront(&compileEntry{key: key, size: size, compiled: compiled})
	c.used += size
	for c.used > c.budget {
		oldest := c.order.Back()
		e := oldest.Value.(*compileEntry)
		c.order.Remove(oldest)
		delete(c.byKey, e.key)
		c.used -= e.size
	}
}

// PoliciesOf is the package's PoliciesOf, compiling through the cache.
func (c *CompileCache) PoliciesOf(records []api.Policy) ([]Policy, []error) {
	return policiesOf(records, c.Compile)
}

// Len is the number of compiled policies kept.
func (c *CompileCache) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.order.Len()
}

// Size is the estimated heap of the compiled policies kept.
func (c *CompileCache) Size() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.used
}

// Compiles is how many times the cache compiled a text (its misses) since
// it was made.
func (c *CompileCache) Compiles() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.compiles
}
