//go:build !(linux || darwin || dragonfly || freebsd || netbsd || openbsd)

package cli

// echoOff is left to the reader here (term.ReadPassword turns echo off as
// it starts).
func echoOff(uintptr) error { return nil }
