package main

import (
	"context"
	"errors"
)

// cmdKeys is scaffolding: its owner replaces this file.
func cmdKeys(ctx context.Context, c cli, args []string) error {
	return errors.New("'keys' is not built yet")
}
