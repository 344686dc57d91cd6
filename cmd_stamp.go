package main

import (
	"context"
	"errors"
)

// cmdStamp is scaffolding: its owner replaces this file.
func cmdStamp(ctx context.Context, c cli, args []string) error {
	return errors.New("'stamp' is not built yet")
}
