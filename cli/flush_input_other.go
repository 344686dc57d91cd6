//go:build !(linux || darwin || dragonfly || freebsd || netbsd || openbsd)

package cli

// flushInput cannot discard typed-ahead input here: a y typed before the
// question may still answer it.
func flushInput(uintptr) error { return nil }
