//go:build !(linux || darwin || dragonfly || freebsd || netbsd || openbsd)

package cli

import (
	"os"

	"github.com/charmbracelet/x/term"
)

// No job-control or quit signals here (Windows): nothing to handle.
func hiddenReadSignals() []os.Signal           { return nil }
func isQuitSignal(os.Signal) bool              { return false }
func readTypedLine(fd uintptr) ([]byte, error) { return term.ReadPassword(fd) }
