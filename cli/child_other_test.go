//go:build !linux

package cli

import "os/exec"

// startChild starts cmd. Only Linux can have the kernel kill a child when
// its parent dies (child_linux_test.go); elsewhere a test killed from
// outside may leave it running.
func startChild(cmd *exec.Cmd) error {
	return cmd.Start()
}

// playTestRole has no part to play where startChild cannot tie a child to
// its parent.
func playTestRole(string) int {
	return 2
}
