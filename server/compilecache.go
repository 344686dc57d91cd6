package server

import (
	"container/list"
	"strconv"
	"sync"

	"github.com/vigil-console/vigil/policy"
)

// compileCacheBudget bounds the heap the compile cache keeps, as estimated
// by compiledSize. Stored policies only enter it, but it is shared by every
// organization, so it must stay bounded however many policies they store.
const compileCacheBudget = 64 << 20

// compiledSize estimates the heap one compiled policy keeps: measured at
// about 2 KiB plus 21 bytes per byte of expression text (a 16 KiB condition
// keeps about 250 KiB).
func compiledSize(condition, consensus string) int {
	return 2<<10 + 24*(len(condition)+len(consensus))
}

// sourceKey names a policy's three expressions unambiguously. Without a
// time it is compileKey's, which starts with a digit; with one it starts
// with "t", so that no policy with a time shares a key with one without.
func sourceKey(src policy.Source) string {
	if src.Time == "" {
		return compileKey(src.Condition, src.Consensus)
	}
	return "t" + compileKey(src.Condition, compileKey(src.Consensus, src.Time))
}

// compileCache keeps the most recently used compiled policies, keyed by
// their texts, within a budget of estimated heap. It saves recompiling an
// organization's unchanged policies each time its policies change.
type compileCache struct {
	mu     sync.Mutex
	budget int
	used   int
	order  *list.List // of *compileEntry, most recently used first
	byKey  map[string]*list.Element
}

type compileEntry struct {
	key      string
	size     int
	compiled *policy.Compiled
}

func newCompileCache(budget int) *compileCache {
	return &compileCache{budget: budget, order: list.New(), byKey: map[string]*list.Element{}}
}

// compileKey names a condition and consensus unambiguously: both are valid
// UTF-8 and may contain any character, NUL included, so the condition is
// length-prefixed rather than separated.
func compileKey(condition, consensus string) string {
	return strconv.Itoa(len(condition)) + ":" + condition + consensus
}

// compile returns the compiled policy for these texts, compiling it on a
// miss. A text that does not compile is not kept.
func (c *compileCache) compile(condition, consensus string) (*policy.Compiled, error) {
	return c.compileSource(policy.Source{Condition: condition, Consensus: consensus})
}

// compileSource is compile for a policy's three expressions.
func (c *compileCache) compileSource(src policy.Source) (*policy.Compiled, error) {
	key := sourceKey(src)
	c.mu.Lock()
	if el, ok := c.byKey[key]; ok {
		c.order.MoveToFront(el)
		c.mu.Unlock()
		return el.Value.(*compileEntry).compiled, nil
	}
	c.mu.Unlock()
	// Compile outside the lock: it takes milliseconds for a long text, and
	// two callers compiling the same text at once only waste work.
	compiled, err := policy.CompileSource(src)
	if err != nil {
		return nil, err
	}
	c.add(key, compiledSize(src.Condition, src.Consensus+src.Time), compiled)
	return compiled, nil
}

func (c *compileCache) add(key string, size int, compiled *policy.Compiled) {
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

// len is the number of compiled policies kept.
func (c *compileCache) len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.order.Len()
}

// size is the estimated heap of the compiled policies kept.
func (c *compileCache) size() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.used
}
