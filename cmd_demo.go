package main

import (
	"context"
	"errors"
)

// cmdDemo is scaffolding: its owner replaces this file.
func cmdDemo(ctx context.Context, c cli, args []string) error {
	return errors.New("'demo' is not built yet")
}
