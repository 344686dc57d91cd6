package server

import (
	"context"
	"errors"
	"io"
	"net/http"

	"github.com/vigil-console/vigil/api"
)

// bodyHold is a body's hold on its budget: release it once the request is
// answered. The zero bodyHold holds nothing.
type bodyHold struct{ c *bodyClaim }

func (h bodyHold) release() { h.c.release() }

// readBody reads the body, at most api.MaxRequestBodyBytes (more is a 413),
// holding budget for it as it arrives.
func readBody(w http.ResponseWriter, r *http.Request, budget *bodyBudget) ([]byte, bodyHold, error) {
	return readBodyUpTo(w, r, budget, api.MaxRequestBodyBytes)
}

// readBodyUpTo is readBody for a body that is held only up to keep bytes
// (at most api.MaxRequestBodyBytes): a longer one is read to its end and
// discarded, as discardBody does, and answered errBodyOverKeep.
//
// The body is held in pieces of bodyChunk bytes, each taken from the
// budget once its first byte has arrived: a request that declares a large
// body and stalls holds what it has sent and less than one piece more,
// whatever its Content-Length says, and one sent chunked is not counted at
// the most a body may be.
func readBodyUpTo(w http.ResponseWriter, r *http.Request, budget *bodyBudget, keep int64) ([]byte, bodyHold, error) {
	n := r.ContentLength
	if n > keep {
		// Refused whatever it holds: read only to answer as before (413,
		// or a 400 if it breaks off first), without keeping any of it.
		if err := discardBody(w, r); err != nil {
			return nil, bodyHold{}, err
		}
		return nil, bodyHold{}, errBodyOverKeep
	}
	var src io.Reader = r.Body
	most := n // the declared length, no more: net/http ends the body there
	switch {
	case n >= 0:
	case keep == api.MaxRequestBodyBytes:
		src, most = http.MaxBytesReader(w, r.Body, keep), keep // then a 413
	default:
		src, most = io.LimitReader(r.Body, keep+1), keep+1 // one byte over says it is too long
	}
	hold := bodyHold{budget.claim(peerOf(r))}
	body, err := readPieces(r.Context(), src, most, n >= 0, hold.c)
	if err != nil {
		hold.release()
		if err == errBusy {
			return nil, bodyHold{}, err
		}
		return nil, bodyHold{}, bodyReadError(err, r.ContentLength)
	}
	if n < 0 && int64(len(body)) > keep {
		hold.release()
		if err := discardRest(w, r, int64(len(body))); err != nil {
			return nil, bodyHold{}, err
		}
		return nil, bodyHold{}, errBodyOverKeep
	}
	return body, hold, nil
}

// readPieces reads src to its end in pieces of at most bodyChunk bytes,
// each taken from c once its first byte has arrived. src yields at most
// most bytes; when exact, it is a body declared that long, and one that
// ends sooner is io.ErrUnexpectedEOF. A piece the budget has no room for is
// errBusy.
func readPieces(ctx context.Context, src io.Reader, most int64, exact bool, c *bodyClaim) ([]byte, error) {
	var pieces [][]byte
	var total int64
	for {
		var first [1]byte
		k, err := fill(src, first[:])
		if k == 0 {
			if err == io.EOF {
				if exact && total < most {
					return nil, io.ErrUnexpectedEOF
				}
				break
			}
			return nil, err
		}
		size := min(bodyChunk, most-total)
		if size < 1 { // src yields no more than most: never so
			return nil, errors.New("the body runs past its length")
		}
		if err := c.acquire(ctx, size); err != nil {
			return nil, err
		}
		piece := make([]byte, size)
		piece[0] = first[0]
		got := 0
		if err == nil { // else the body ended with its first byte
			got, err = fill(src, piece[1:])
		}
		pieces = append(pieces, piece[:1+got])
		total += int64(1 + got)
		if err == io.EOF {
			if exact && total < most {
				return nil, io.ErrUnexpectedEOF
			}
			break
		}
		if err != nil {
			return nil, err
		}
	}
	switch len(pieces) {
	case 0:
		return []byte{}, nil
	case 1:
		return pieces[0], nil
	}
	// Joined once whole, which for that moment takes twice the body's
	// size: the client has sent all of it by then.
	body := make([]byte, 0, total)
	for _, p := range pieces {
		body = append(body, p...)
	}
	return body, nil
}

// fill reads from src until buf is full; it returns io.EOF only when src
// ended (a source that breaks off says so with its own error).
func fill(src io.Reader, buf []byte) (int, error) {
	n := 0
	for n < len(buf) {
		k, err := src.Read(buf[n:])
		n += k
		if err != nil {
			return n, err
		}
	}
	return n, nil
}

// errBodyOverKeep is readBodyUpTo's answer to a body longer than it keeps,
// read to its end: the caller says what it makes of it.
var errBodyOverKeep = errors.New("the body is longer than is kept")

// discardBody reads the body to its end, or past api.MaxRequestBodyBytes,
// keeping none of it, for a request refused whatever its body says: the
// answer is what readBody's would be if the body cannot be read (413, 400),
// without the memory.
func discardBody(w http.ResponseWriter, r *http.Request) error { return discardRest(w, r, 0) }

// discardRest is discardBody for a body of which read bytes (at most
// api.MaxRequestBodyBytes) have been read already.
func discardRest(w http.ResponseWriter, r *http.Request, read int64) error {
	_, err := io.Copy(io.Discard, http.MaxBytesReader(w, r.Body, api.MaxRequestBodyBytes-read))
	if err != nil {
		return bodyReadError(err, r.ContentLength)
	}
	return nil
}

// bodyReadError is the answer to a body that could not be read; declared is
// its Content-Length (-1 when it was sent chunked).
func bodyReadError(err error, declared int64) error {
	var mbe *http.MaxBytesError
	if errors.As(err, &mbe) {
		return tooLarge(api.MaxRequestBodyBytes, declared)
	}
	return invalidf("BAD_BODY", "could not read the request body: %v", err)
}
