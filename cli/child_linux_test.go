package cli

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// startChild starts cmd so that the kernel kills it (SIGKILL) when this
// test binary dies, even killed from outside (a go test -timeout, a CI
// runner's SIGKILL): a vigil serve or demo left running would hold its
// ports and data directory. Every test that starts a long-lived process
// starts it here.
//
// Pdeathsig fires when the THREAD that forked the child exits, not the
// process. The thread is locked while forking, so the fork happens on it,
// then handed back to the runtime: the Go runtime never ends a thread of
// its own accord, only when a goroutine locked to it returns without
// unlocking, which no test does (this helper unlocks before returning).
func startChild(cmd *exec.Cmd) error {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Pdeathsig = syscall.SIGKILL
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	return cmd.Start()
}

// playTestRole is this test binary started by TestChildDiesWithItsParent:
// "parent" starts a "sleeper" by startChild, prints its pid and waits to be
// killed; "sleeper" waits. Neither waits longer than sleptOut, so a failed
// run leaves nothing for long.
func playTestRole(role string) int {
	switch role {
	case "parent":
		sleeper := exec.Command(os.Args[0])
		sleeper.Env = childEnv(testRoleEnv + "=sleeper")
		if err := startChild(sleeper); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		fmt.Println(sleeper.Process.Pid)
	case "sleeper":
	default:
		fmt.Fprintf(os.Stderr, "%s=%q: no such part\n", testRoleEnv, role)
		return 2
	}
	time.Sleep(sleptOut)
	return 0
}

const sleptOut = 10 * time.Minute

// A child started by startChild does not outlive the process that started
// it, killed with SIGKILL (nothing of it runs): the kernel kills the child.
func TestChildDiesWithItsParent(t *testing.T) {
	parent := exec.Command(os.Args[0])
	parent.Env = childEnv(testRoleEnv + "=parent")
	var errOut bytes.Buffer
	parent.Stderr = &errOut
	out, err := parent.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := startChild(parent); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(out).ReadString('\n')
	pid, perr := strconv.Atoi(strings.TrimSpace(line))
	if err != nil || perr != nil {
		parent.Process.Kill()
		parent.Wait()
		t.Fatalf("the parent printed no pid (%v, %v): %q\n%s", err, perr, line, errOut.String())
	}
	if err := parent.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	parent.Wait()
	// The kernel signals the child as the parent's thread exits; its death
	// is then the child's own to finish: wait for it, boundedly.
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if !running(pid) {
			return
		}
	}
	syscall.Kill(pid, syscall.SIGKILL)
	t.Fatalf("the child %d still runs 30s after its parent was killed", pid)
}

// running reports whether process pid runs: it exists, and is no zombie
// (dead, waiting for whoever adopted it to reap it).
func running(pid int) bool {
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	// pid (comm) STATE …: comm may hold spaces and parentheses, so the state
	// follows the last ')'.
	i := bytes.LastIndexByte(stat, ')')
	if i < 0 || i+2 >= len(stat) {
		return false
	}
	state := stat[i+2]
	return state != 'Z' && state != 'X'
}
