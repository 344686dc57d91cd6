package main

import (
	"context"
	"errors"
)

// cmdServe is scaffolding: its owner replaces this file.
func cmdServe(ctx context.Context, c cli, args []string) error {
	return errors.New("'serve' is not built yet")
}
