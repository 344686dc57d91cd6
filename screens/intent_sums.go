package screens

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"hash"
	"slices"

	"github.com/vigil-console/vigil/api"
)

// rawSums maps rawKey of an intent to its intentSum. The canonical form
// behind intentSum costs some 3 ms for an intent of 30 KB; a refresh every
// 5 s brings the same intents byte for byte, and rawKey hashes them as
// held, with no re-encoding. A cryptographic hash, not a faster one: a
// service that could make two intents collide here would hide a swap from
// the record.
type rawSums map[[sha256.Size]byte]string

// intentSums are the intentSum of each of acts, taken from prev for an
// intent whose rawKey prev holds; next holds those of acts only, so it is
// bounded by a page. prev is only read.
func intentSums(acts []api.Activity, prev rawSums) (sums []string, next rawSums) {
	sums, next = make([]string, len(acts)), make(rawSums, len(acts))
	for i := range acts {
		key, err := rawKey(acts[i].Intent)
		if err != nil {
			sums[i] = intentSum(acts[i].Intent)
			continue
		}
		sum, ok := prev[key]
		if !ok {
			sum = intentSum(acts[i].Intent)
		}
		sums[i], next[key] = sum, sum
	}
	return sums, next
}

// rawKey is the SHA-256 of what in's JSON is made of: the JSON of its
// known fields, then each kept key (api.Intent.Other) with its bytes as
// sent, each part prefixed by its length. Equal keys are equal parts, so
// equal JSON and equal sums; the kept bytes are hashed, not re-encoded
// (json.Marshal validates and compacts them, at ten times the cost).
func rawKey(in api.Intent) ([sha256.Size]byte, error) {
	other := in.Other
	in.Other = nil
	known, err := json.Marshal(in)
	if err != nil {
		return [sha256.Size]byte{}, err
	}
	h := sha256.New()
	part(h, known)
	keys := make([]string, 0, len(other))
	for k := range other {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		part(h, []byte(k))
		part(h, other[k])
	}
	var out [sha256.Size]byte
	h.Sum(out[:0])
	return out, nil
}

// part writes b to h after its length, so that parts cannot run together.
func part(h hash.Hash, b []byte) {
	var n [8]byte
	binary.BigEndian.PutUint64(n[:], uint64(len(b)))
	h.Write(n[:])
	h.Write(b)
}
