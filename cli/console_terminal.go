package cli

import (
	"os"

	"github.com/charmbracelet/x/term"
)

// errNeedsTerminal is why the console does not start without a terminal: run
// with standard output a pipe or a file ('vigil > log', 'vigil demo | tee')
// it would draw into that and leave the real terminal blank with the keyboard
// taken; with no terminal at all (cron, 'ssh host vigil') Bubble Tea fails
// with a chain of its own errors.
const errNeedsTerminal = "the console needs a terminal on standard output (and a keyboard); for scripts use the verbs: vigil activity list, vigil activity get ID, vigil activity approve ID … (vigil help lists them)"

// needTerminal refuses, before anything starts, a console that has no
// terminal to draw on or read keys from. Streams other than the process's own
// (tests) are taken as they are.
func needTerminal(c proc) error {
	if c.stdout == os.Stdout && !term.IsTerminal(os.Stdout.Fd()) {
		return usagef("%s", errNeedsTerminal)
	}
	if c.stdin == os.Stdin && !term.IsTerminal(os.Stdin.Fd()) {
		// Bubble Tea then reads keys from the controlling terminal.
		tty, err := os.Open("/dev/tty")
		if err != nil {
			return usagef("%s", errNeedsTerminal)
		}
		tty.Close()
	}
	return nil
}
