package server

import (
	"strconv"

	"github.com/vigil-console/vigil/api"
)

// encodedReply is a query's reply already encoded exactly as api.Marshal
// encodes its value; writeJSON sends it as it is.
type encodedReply []byte

// activitiesPage builds a list_activities reply (and get_activity's, a list
// of one), byte for byte what
// api.Marshal(api.ListActivitiesResponse{...}) gives, from each activity's
// JSON. Encoding a page of activities with their votes was most of the cost
// of the console's pending list (polled every 5 s, between votes), so each
// listed activity's JSON is kept: until any write to activities, votes or
// users (which empties the cache, as it empties the cached votes), for the
// votes that count now and for whether the viewer may approve it.
type activitiesPage struct{ b []byte }

// newActivitiesPage is an empty page sized for the encodings it will hold,
// so that building a page of large activities copies each byte once.
func newActivitiesPage(encoded [][]byte) *activitiesPage {
	size := len(`{"activities":[]}`)
	for _, b := range encoded {
		size += len(b) + 1 // and its comma
	}
	p := &activitiesPage{b: make([]byte, 0, size)}
	p.b = append(p.b, `{"activities":[`...)
	return p
}

// add appends an activity's JSON (encodedActivity).
func (p *activitiesPage) add(b []byte) {
	if p.b[len(p.b)-1] != '[' {
		p.b = append(p.b, ',')
	}
	p.b = append(p.b, b...)
}

// encodedActivity is a's JSON: the cached encoding when there is one for its
// current votes and canApprove, otherwise build's activity, encoded and kept
// if the votes generation is still q's (cacheGens).
func encodedActivity(c *cache, q querier, a *activity, canApprove bool, build func() (api.Activity, error)) ([]byte, error) {
	key := encodedKey(a, canApprove)
	if b, ok := get(c, &c.encoded, key); ok && cacheUsable(q, changedVotes) {
		cacheHit(q)
		return b, nil
	}
	gen := c.cacheGens(q).votes
	out, err := build()
	if err != nil {
		return nil, err
	}
	b, err := api.Marshal(out)
	if err != nil {
		return nil, err
	}
	// By the row's size, not the encoding's: votes (about 900 bytes each)
	// must not push a large quorum's ordinary activities out of the cache.
	if a.stored <= maxCachedActivityBytes {
		putBounded(c, gen, &c.votesGen, &c.encoded, key, b, maxListCacheEntries)
	}
	return b, nil
}

func (p *activitiesPage) reply() encodedReply {
	return append(p.b, "]}"...)
}

// encodedKey names one encoding of a listed activity: its row version, how
// many of its votes count now (they are the last ones: currentVotes keeps a
// suffix) and the viewer's canApprove (canReject goes with it).
func encodedKey(a *activity, canApprove bool) string {
	k := make([]byte, 0, 48)
	k = strconv.AppendInt(k, a.Seq, 10)
	k = append(k, '/')
	k = strconv.AppendInt(k, a.Updated.UnixNano(), 10)
	k = append(k, '/')
	k = strconv.AppendInt(k, int64(len(a.Votes)), 10)
	if canApprove {
		k = append(k, "/a"...)
	}
	return string(k)
}
