package cli

import (
	"context"
	"os"
	"os/signal"
	"runtime"
	"syscall"
	"testing"
	"time"
)

// Closing the terminal sends SIGHUP. It must end the command's context as
// Ctrl-C does, so that 'vigil demo' puts its webhook back and 'vigil serve'
// shuts down gracefully, rather than the process dying with its cleanup
// skipped.
func TestClosingTheTerminalCancelsTheCommandLikeCtrlC(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("sends itself SIGHUP")
	}
	// Caught here too, so that without the fix the test fails instead of
	// the hangup killing the test binary.
	seen := make(chan os.Signal, 1)
	signal.Notify(seen, syscall.SIGHUP)
	defer signal.Stop(seen)

	ctx, stop := cancelOnStopSignal(context.Background())
	defer stop()
	self, err := os.FindProcess(os.Getpid())
	if err != nil {
		t.Fatal(err)
	}
	if err := self.Signal(syscall.SIGHUP); err != nil {
		t.Fatal(err)
	}
	<-seen
	select {
	case <-ctx.Done():
	case <-time.After(30 * time.Second):
		t.Fatal("SIGHUP (the terminal closed) did not cancel the command: its cleanup would be skipped")
	}
}
