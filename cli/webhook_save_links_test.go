//go:build unix

package cli

import (
	"crypto/sha256"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/vigil-console/vigil/server"
	"github.com/vigil-console/vigil/webhook"
)

// victimFile writes a file of the user's outside the --save directory, for
// a planted link to lead to, and returns its path and content.
func victimFile(t *testing.T, root string) (path, content string) {
	t.Helper()
	path = filepath.Join(root, "victim.rc")
	content = "export IMPORTANT=1\n"
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return path, content
}

func privateDir(t *testing.T, path string) string {
	t.Helper()
	if err := os.Mkdir(path, 0o700); err != nil {
		t.Fatal(err)
	}
	return path
}

func unchanged(t *testing.T, path, want, what string) {
	t.Helper()
	if got, err := os.ReadFile(path); err != nil || string(got) != want {
		t.Fatalf("%s: %s now holds %q (%v); want it untouched", what, path, got, err)
	}
}

// DIR/accepted-events a symbolic link (planted, or left between runs): a
// listener starting there would rewrite the file the link leads to with its
// list of ids. It is refused, naming the link and what to do.
func TestWebhookListenRefusesAcceptedEventsThatIsASymlink(t *testing.T) {
	root := t.TempDir()
	victim, content := victimFile(t, root)
	dir := privateDir(t, filepath.Join(root, "save"))
	link := filepath.Join(dir, acceptedFile)
	if err := os.Symlink(victim, link); err != nil {
		t.Fatal(err)
	}
	_, err := newListener(nil, hookOrg, time.Minute, 48*time.Hour, dir, func(deliveryReport) error { return nil }, time.Now())
	unchanged(t, victim, content, "starting a listener on a --save DIR whose accepted-events is a link")
	if err == nil || !strings.Contains(err.Error(), link+" is a symbolic link") || !strings.Contains(err.Error(), "rm "+link) {
		t.Fatalf("newListener: %v; want a refusal naming %s as a link and saying to remove it", err, link)
	}
}

// A link put in place of accepted-events while the listener runs: the
// append of an accepted event is refused rather than written into the
// link's target, and the compaction replaces the link itself.
func TestWebhookListenJournalNeverWritesThroughALink(t *testing.T) {
	root := t.TempDir()
	victim, content := victimFile(t, root)
	dir := privateDir(t, filepath.Join(root, "save"))
	now := time.Now()
	l, err := newListener(nil, hookOrg, time.Minute, 48*time.Hour, dir, func(deliveryReport) error { return nil }, now)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, acceptedFile)
	if err := os.Remove(path); err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	if err := os.Symlink(victim, path); err != nil {
		t.Fatal(err)
	}
	if _, err := l.journalLocked("evt-1", sha256.Sum256([]byte("body")), now); err == nil || !strings.Contains(err.Error(), "symbolic link") {
		t.Errorf("journalLocked with %s a link: %v; want it refused", path, err)
	}
	unchanged(t, victim, content, "appending an accepted event")
	l.seen["evt-2"] = acceptedEvent{at: now}
	if err := l.compactAcceptedLocked(); err != nil {
		t.Fatal(err)
	}
	unchanged(t, victim, content, "compacting accepted-events")
	if fi, err := os.Lstat(path); err != nil || !fi.Mode().IsRegular() {
		t.Fatalf("after compaction %s is %v (%v); want a regular file in the link's place", path, fi.Mode(), err)
	}
	if b, _ := os.ReadFile(path); !strings.Contains(string(b), " evt-2 ") {
		t.Errorf("compacted %s holds %q; want the remembered event", path, b)
	}
}

// DIR/refused a link to another directory: the listener removes the oldest
// refused deliveries it finds there, so it would remove files elsewhere.
func TestWebhookListenRefusesARefusedDirThatIsASymlink(t *testing.T) {
	root := t.TempDir()
	elsewhere := privateDir(t, filepath.Join(root, "elsewhere"))
	kept := filepath.Join(elsewhere, "000001-report.body")
	if err := os.WriteFile(kept, []byte("mine"), 0o600); err != nil {
		t.Fatal(err)
	}
	dir := privateDir(t, filepath.Join(root, "save"))
	link := filepath.Join(dir, refusedDir)
	if err := os.Symlink(elsewhere, link); err != nil {
		t.Fatal(err)
	}
	_, err := newListener(nil, hookOrg, time.Minute, 48*time.Hour, dir, func(deliveryReport) error { return nil }, time.Now())
	if err == nil || !strings.Contains(err.Error(), link+" is a symbolic link") {
		t.Fatalf("newListener with %s a link: %v; want it refused naming the link", link, err)
	}
	unchanged(t, kept, "mine", "starting a listener")
}

// A --save DIR others may write is refused, as the keys store refuses its
// directory: anyone could delete deliveries already acknowledged (the
// service will not send them again) or plant links.
func TestWebhookListenRefusesASaveDirOthersMayWrite(t *testing.T) {
	dir := privateDir(t, filepath.Join(t.TempDir(), "save"))
	if err := os.Chmod(dir, 0o777); err != nil {
		t.Fatal(err)
	}
	_, _, err := startWebhookListener("127.0.0.1:0", "http://127.0.0.1:1", hookOrg, webhook.DefaultMaxAge, server.WebhookRedeliveryHorizon, dir,
		func(deliveryReport) error { return nil })
	if err == nil {
		t.Fatalf("a listener was started saving in %s (mode 0777)", dir)
	}
	for _, want := range []string{"--save " + dir, "is writable by others (mode 0777)", "run: chmod o-w " + dir} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("the refusal does not say %q: %v", want, err)
		}
	}
}

// The demo writes DIR/demo-root.pem anew at each start: a link there is
// replaced, not the file it leads to.
func TestDemoRootPEMReplacesALinkNotItsTarget(t *testing.T) {
	root := t.TempDir()
	victim, content := victimFile(t, root)
	data := privateDir(t, filepath.Join(root, "demo"))
	pem := filepath.Join(data, "demo-root.pem")
	if err := os.Symlink(victim, pem); err != nil {
		t.Fatal(err)
	}
	if _, _, err := prepareDemoIn(t, data, "http://127.0.0.1:1"); err != nil {
		t.Fatalf("demo start: %v", err)
	}
	unchanged(t, victim, content, "a demo start")
	if fi, err := os.Lstat(pem); err != nil || !fi.Mode().IsRegular() {
		t.Fatalf("%s is %v (%v); want the demo root written in the link's place", pem, fi.Mode(), err)
	}
}

// DIR/accepted-events with a second name (cp -al DIR backup): the refusal's
// advice must keep what the file holds, the ids of deliveries already
// accepted, or their redeliveries after the restart would be saved and
// acknowledged again. Followed in a shell as printed, it lets the listener
// start with those ids.
func TestWebhookListenHardLinkedAcceptedEventsAdviceKeepsTheJournal(t *testing.T) {
	root := t.TempDir()
	dir := privateDir(t, filepath.Join(root, "save dir"))
	journal := filepath.Join(dir, acceptedFile)
	content := strconv.FormatInt(time.Now().UnixMilli(), 10) + " evt-1 " + strings.Repeat("ab", 32) + "\n"
	if err := os.WriteFile(journal, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(journal, filepath.Join(root, "backup")); err != nil {
		t.Fatal(err)
	}
	_, err := newListener(nil, hookOrg, time.Minute, 48*time.Hour, dir, func(deliveryReport) error { return nil }, time.Now())
	if err == nil {
		t.Fatal("newListener started on a hard-linked accepted-events")
	}
	_, advice, ok := strings.Cut(err.Error(), "(cp -p ")
	advice, _, _ = strings.Cut(advice, ")")
	if !ok || advice == "" {
		t.Fatalf("refusal %q: want a cp -p that keeps the content", err)
	}
	if out, err := exec.Command("sh", "-c", "cp -p "+advice).CombinedOutput(); err != nil {
		t.Fatalf("cp -p %s: %v\n%s", advice, err, out)
	}
	unchanged(t, journal, content, "following the advice")
	if _, err := newListener(nil, hookOrg, time.Minute, 48*time.Hour, dir, func(deliveryReport) error { return nil }, time.Now()); err != nil {
		t.Fatalf("after the advice, newListener: %v", err)
	}
}
