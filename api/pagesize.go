package api

import (
	"strings"
	"sync"
)

// maxListLimit is the largest page list_activities takes.
const maxListLimit = 100

// maxRememberedListings bounds how many filters a Client remembers a page
// size for; a console uses two or three, so this is only a guard against a
// caller listing with ever new filters.
const maxRememberedListings = 32

// pageSizes remembers, per filter of list_activities, the largest page that
// fit in the client's reply limit, so that a console polling a list of large
// activities asks for that page at once instead of halving down to it again
// (each halving reads up to the whole reply limit). Safe for concurrent use.
type pageSizes struct {
	mu   sync.Mutex
	page map[string]int // listing key → page to start from; absent: the caller's limit
}

// listingKey names the listing opts filters; pages of the same filters hold
// the same kind of activities, so one page size serves all of them (and
// Before/After only move the window, which growth after a small page covers).
func listingKey(opts ListActivitiesOptions) string {
	return strings.Join(opts.Statuses, ",") + "|" + strings.Join(opts.Types, ",")
}

// start is the page to ask for first when the caller asks for limit.
func (p *pageSizes) start(key string, limit int) int {
	p.mu.Lock()
	defer p.mu.Unlock()
	if page, ok := p.page[key]; ok && page < limit {
		return page
	}
	return limit
}

// tooLarge records that a page of page activities was larger than the reply
// limit: ask for at most half of it from now on.
func (p *pageSizes) tooLarge(key string, page int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.page == nil {
		p.page = map[string]int{}
	}
	if _, ok := p.page[key]; !ok && len(p.page) >= maxRememberedListings {
		clear(p.page)
	}
	p.page[key] = max(1, page/2)
}

// fit records that a page of page activities, asked for instead of the
// caller's limit, came back in replyBytes of at most maxReply. A reply under
// a quarter of the limit lets the page double (a page twice as long most
// likely fits), so that one large activity that has left the window does not
// keep pages short for ever; a quarter rather than a half keeps a page near
// the limit from doubling over it and halving back on every other poll.
func (p *pageSizes) fit(key string, page, limit int, replyBytes int, maxReply int64) {
	if page >= limit || int64(replyBytes) > maxReply/4 {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	remembered, ok := p.page[key]
	if !ok || remembered != page {
		return // another call learned otherwise meanwhile; keep what it learned
	}
	if page*2 >= maxListLimit {
		delete(p.page, key)
		return
	}
	p.page[key] = page * 2
}
