package proof

import (
	"encoding/binary"
	"errors"
	"fmt"
	"unicode/utf8"
)

// borshReader reads the subset of Borsh that QOS manifests use. Every length is
// checked against the bytes that remain, so no allocation is sized by the input
// beyond the input itself.
type borshReader struct {
	b    []byte
	off  int
	over error // the first count over one of vigil's own bounds (overLimit)
}

var errShort = errors.New("unexpected end of input")

func (r *borshReader) remaining() int { return len(r.b) - r.off }

func (r *borshReader) fail(what string, err error) error {
	return fmt.Errorf("%s at byte %d: %w", what, r.off, err)
}

// overLimit records a count over one of vigil's own bounds (tooMany,
// tooManyPivot) and lets the read go on: only bytes read whole show which
// Borsh version they are (readBorshVersions), and a v0 manifest with 17 args
// starts like a v1 one with 17 bridges. The caller returns r.over once the
// bytes have been read to their end.
func (r *borshReader) overLimit(what string, err error) {
	if r.over == nil {
		r.over = r.fail(what, err)
	}
}

func (r *borshReader) u8(what string) (byte, error) {
	if r.remaining() < 1 {
		return 0, r.fail(what, errShort)
	}
	v := r.b[r.off]
	r.off++
	return v, nil
}

func (r *borshReader) u16(what string) (uint16, error) {
	if r.remaining() < 2 {
		return 0, r.fail(what, errShort)
	}
	v := binary.LittleEndian.Uint16(r.b[r.off:])
	r.off += 2
	return v, nil
}

func (r *borshReader) u32(what string) (uint32, error) {
	if r.remaining() < 4 {
		return 0, r.fail(what, errShort)
	}
	v := binary.LittleEndian.Uint32(r.b[r.off:])
	r.off += 4
	return v, nil
}

func (r *borshReader) boolean(what string) (bool, error) {
	v, err := r.u8(what)
	if err != nil {
		return false, err
	}
	switch v {
	case 0:
		return false, nil
	case 1:
		return true, nil
	}
	return false, r.fail(what, fmt.Errorf("bool byte is %d", v))
}

func (r *borshReader) fixed(what string, n int) ([]byte, error) {
	if r.remaining() < n {
		return nil, r.fail(what, errShort)
	}
	v := r.b[r.off : r.off+n : r.off+n]
	r.off += n
	return v, nil
}

// bytes reads a Vec<u8>: u32 length then the bytes.
func (r *borshReader) bytes(what string) ([]byte, error) {
	n, err := r.u32(what)
	if err != nil {
		return nil, err
	}
	if int64(n) > int64(r.remaining()) {
		return nil, r.fail(what, fmt.Errorf("length %d exceeds the %d bytes left", n, r.remaining()))
	}
	return r.fixed(what, int(n))
}

func (r *borshReader) str(what string) (string, error) {
	b, err := r.bytes(what)
	if err != nil {
		return "", err
	}
	if !utf8.Valid(b) {
		return "", r.fail(what, errors.New("string is not valid UTF-8"))
	}
	return string(b), nil
}

// count reads a Vec length and bounds it by the bytes left, given the smallest
// possible encoding of one element.
func (r *borshReader) count(what string, minElem int) (int, error) {
	n, err := r.u32(what)
	if err != nil {
		return 0, err
	}
	if int64(n)*int64(minElem) > int64(r.remaining()) {
		return 0, r.fail(what, fmt.Errorf("%d elements cannot fit in the %d bytes left", n, r.remaining()))
	}
	return int(n), nil
}

// borshWriter builds Borsh bytes (used by the demo enclave).
type borshWriter struct{ b []byte }

func (w *borshWriter) u8(v byte)    { w.b = append(w.b, v) }
func (w *borshWriter) u16(v uint16) { w.b = binary.LittleEndian.AppendUint16(w.b, v) }
func (w *borshWriter) u32(v uint32) { w.b = binary.LittleEndian.AppendUint32(w.b, v) }
func (w *borshWriter) raw(v []byte) { w.b = append(w.b, v...) }
func (w *borshWriter) bytes(v []byte) {
	w.u32(uint32(len(v)))
	w.raw(v)
}
func (w *borshWriter) str(v string) { w.bytes([]byte(v)) }
func (w *borshWriter) strings(v []string) {
	w.u32(uint32(len(v)))
	for _, s := range v {
		w.str(s)
	}
}
