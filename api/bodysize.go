package api

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strings"
)

// CheckRequestSize refuses params whose submit would carry a body over
// MaxRequestBodyBytes, the service's limit, as NewActivityRequest does: a
// *ValidationError naming what to cut, before anything is sent. The
// envelope is built with the longest timestamp there is, so params that
// pass here pass at any time. The console's forms call it before their
// confirm.
func CheckRequestSize(op Operation, organizationID string, params Params, appProofs bool) error {
	_, err := NewActivityRequest(op, organizationID, params, math.MaxInt64, appProofs)
	return err
}

// checkBodySize refuses an encoded envelope over MaxRequestBodyBytes. Each
// list and field is within its own limit (Validate), but the limits
// multiply (100 invitations of 100 tags each), so the error names the
// largest list, and the largest list inside it, for the user to cut.
func checkBodySize(envelope, params []byte) error {
	if len(envelope) <= MaxRequestBodyBytes {
		return nil
	}
	parts := largestParts(params)
	head := fmt.Sprintf("the request encodes to %d bytes, over the %d bytes (1 MiB) a request may carry", len(envelope), MaxRequestBodyBytes)
	if len(parts) == 0 {
		return &ValidationError{Problem: head + "; make the request smaller"}
	}
	var lists []string
	field := parts[0].path
	for _, p := range parts {
		if p.items >= 0 {
			lists = append(lists, fmt.Sprintf("%s (%d items, %d bytes)", p.path, p.items, p.bytes))
			field = p.path
		}
	}
	if len(lists) == 0 {
		return &ValidationError{Field: field, Problem: fmt.Sprintf("is %d bytes encoded; %s: shorten it", parts[0].bytes, head)}
	}
	return &ValidationError{Field: field, Problem: fmt.Sprintf("makes the request too large: %s, and the largest list is %s: send fewer or shorter items per request (split it into several)",
		head, strings.Join(lists, ", within it "))}
}

// encodedPart is one value on the way down to the largest: its path, its
// encoded size, and its number of items when it is a list (else -1).
type encodedPart struct {
	path         string
	items, bytes int
}

// largestParts follows the largest member or item down from the JSON value
// raw and returns the values met on the way, outermost first.
func largestParts(raw []byte) []encodedPart {
	var out []encodedPart
	path := ""
	for depth := 0; depth < maxStrictJSONDepth; depth++ {
		raw = bytes.TrimSpace(raw)
		if len(raw) == 0 {
			return out
		}
		switch raw[0] {
		case '[':
			var items []json.RawMessage
			if json.Unmarshal(raw, &items) != nil || len(items) == 0 {
				return out
			}
			if path != "" {
				out[len(out)-1].items = len(items)
			}
			i := 0
			for j, it := range items {
				if len(it) > len(items[i]) {
					i = j
				}
			}
			path, raw = fmt.Sprintf("%s[%d]", path, i), items[i]
		case '{':
			var members map[string]json.RawMessage
			if json.Unmarshal(raw, &members) != nil || len(members) == 0 {
				return out
			}
			keys := make([]string, 0, len(members))
			for k := range members {
				keys = append(keys, k)
			}
			sort.Strings(keys) // equal sizes name the same key every time
			key := keys[0]
			for _, k := range keys {
				if len(members[k]) > len(members[key]) {
					key = k
				}
			}
			path, raw = joinPath(path, key), members[key]
			out = append(out, encodedPart{path: path, items: -1, bytes: len(raw)})
		default:
			return out
		}
	}
	return out
}
