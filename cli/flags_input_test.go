package cli

import (
	"context"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/internal/fifotest"
)

// An input file (a request body, a proof, a key to import) that is a named
// pipe nobody writes to reads as empty instead of blocking vigil past
// Ctrl-C; a device is refused.
func TestReadInputNamedPipeDoesNotBlock(t *testing.T) {
	path := fifotest.Make(t, "body")
	c := proc{stdin: strings.NewReader("")}
	type result struct {
		data []byte
		err  error
	}
	r := fifotest.Call(t, path, "readInput", func() result {
		data, _, err := readInput(context.Background(), c, path, "the input", 100)
		return result{data, err}
	})
	if r.err != nil || len(r.data) != 0 {
		t.Errorf("a FIFO without a writer: %q, %v; want it read as empty", r.data, r.err)
	}
	if _, _, err := readInput(context.Background(), c, "/dev/zero", "the input", 100); err == nil || !strings.Contains(err.Error(), "is a device, not a regular file") {
		t.Errorf("/dev/zero: %v", err)
	}
}
