package main

import (
	"context"
	"errors"
)

// cmdProof is scaffolding: its owner replaces this file.
func cmdProof(ctx context.Context, c cli, args []string) error {
	return errors.New("'proof' is not built yet")
}
