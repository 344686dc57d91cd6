package cli

import (
	"context"
	"fmt"
	"io"
)

// readStopping reads src to its end, at most limit+1 bytes, unless ctx
// ends first (Ctrl-C, SIGTERM, SIGHUP), as confirm and readHidden stop at a
// prompt: a producer that never ends its output, or a terminal nobody
// types into, must not hold the command past the stop signal. from names
// src in messages; on standard input that is a terminal, standard error
// first says what is read and how to end it. A read left blocked goes with
// the process, which ends once the command returns.
func readStopping(ctx context.Context, c proc, src io.Reader, from, what string, limit int) ([]byte, error) {
	if _, ok := stdinTerminal(c); ok && src == c.stdin {
		fmt.Fprintf(c.stderr, "reading %s from standard input; end with Ctrl-D\n", what)
	}
	type result struct {
		data []byte
		err  error
	}
	got := make(chan result, 1)
	go func() {
		data, err := io.ReadAll(io.LimitReader(src, int64(limit)+1))
		got <- result{data, err}
	}()
	select {
	case r := <-got:
		if r.err != nil {
			return nil, fmt.Errorf("read %s: %w", from, r.err)
		}
		return r.data, nil
	case <-ctx.Done():
		// ctx ends on a stop signal (or the command's own deadline): say that,
		// not Go's "context canceled", and keep the cause for errors.Is.
		return nil, fmt.Errorf("reading %s from %s: stopped before it ended (%w); nothing was sent", what, from, ctx.Err())
	}
}
