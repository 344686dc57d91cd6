package main

import (
	"context"
	"errors"
)

// cmdConsole is scaffolding: its owner replaces this file.
func cmdConsole(ctx context.Context, c cli, args []string) error {
	return errors.New("'console' is not built yet")
}
