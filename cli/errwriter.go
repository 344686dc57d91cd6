package cli

import "io"

// errWriter passes writes on to w until one fails, then keeps that error and
// writes nothing more: a printer of several lines checks err once, at the end,
// and a result cut short (disk full, reader gone) is not reported as done.
type errWriter struct {
	w   io.Writer
	err error
}

func (e *errWriter) Write(p []byte) (int, error) {
	if e.err != nil {
		return 0, e.err
	}
	n, err := e.w.Write(p)
	e.err = err
	return n, err
}
