package cli

import (
	"bytes"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/vigil-console/vigil/webhook"
)

// A listener restarted on the same --save DIR goes on numbering after the
// deliveries already there, and never writes over one: a forged body sent
// with a genuine delivery's headers (its event id travels in a header) is
// refused and saved apart, under DIR/refused/, and the genuine saved delivery
// still verifies.
func TestWebhookListenSaveNeverOverwritesAnEarlierRunsDelivery(t *testing.T) {
	e := newVerbEnv(t)
	saveDir := t.TempDir()
	url, out, stop := startStoppableListener(t, e, saveDir)

	first := hookAndTag(t, e, url)
	var genuine deliveryReport
	waitReports(t, out, "a verified delivery", 20*time.Second, func(rs []deliveryReport) bool {
		for _, r := range rs {
			if r.ActivityID == first && r.Verified {
				genuine = r
				return true
			}
		}
		return false
	})
	h, body := loadSaved(t, genuine.Saved)
	var n int
	if _, err := fmt.Sscanf(filepath.Base(genuine.Saved), "%06d-", &n); err != nil {
		t.Fatalf("saved as %s: %v", genuine.Saved, err)
	}

	// A restart on the same directory; deliveries 1..n-1 of the new run are
	// junk with well-formed headers, delivery n has the genuine headers and
	// a forged body.
	stop()
	url2, out2 := startListener(t, e, saveDir)
	for i := 1; i < n; i++ {
		junk := h.Clone()
		junk.Set(webhook.HeaderEventID, fmt.Sprintf("junk-%d", i))
		postDelivery(t, url2, junk, []byte(`{"x":1}`))
	}
	forged := bytes.Replace(body, []byte(first), []byte("forged"+first[6:]), 1)
	if st := postDelivery(t, url2, h, forged); st/100 == 2 {
		t.Fatalf("the forged delivery was accepted (%d)", st)
	}
	rs := waitReports(t, out2, "the forged delivery's report", 10*time.Second, func(rs []deliveryReport) bool { return len(rs) >= n })

	now, err := os.ReadFile(genuine.Saved + ".body")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(now, body) {
		t.Fatalf("the genuine delivery saved by the first run (%s.body) was overwritten in the second run:\nwas: %.120s\nnow: %.120s", genuine.Saved, body, now)
	}
	code, o, errOut := e.run("", "webhook", "verify", "--max-age", "1h", "--body", genuine.Saved+".body", "--headers", genuine.Saved+".headers")
	wantExit(t, "webhook verify of the genuine delivery", code, 0, o, errOut)

	forgedReport := rs[len(rs)-1]
	if forgedReport.Verified || forgedReport.Saved == "" {
		t.Fatalf("the forged delivery's report: %+v", forgedReport)
	}
	if filepath.Dir(forgedReport.Saved) != filepath.Join(saveDir, "refused") {
		t.Errorf("the refused delivery was saved as %s, not under %s", forgedReport.Saved, filepath.Join(saveDir, "refused"))
	}
	saved, err := os.ReadFile(forgedReport.Saved + ".body")
	if err != nil || !bytes.Equal(saved, forged) {
		t.Errorf("the refused delivery's saved body (%v): %.120s", err, saved)
	}
	// Every delivery of both runs has its own files.
	bodies, _ := filepath.Glob(filepath.Join(saveDir, "*.body"))
	refused, _ := filepath.Glob(filepath.Join(saveDir, "refused", "*.body"))
	if got := len(bodies) + len(refused); got < n+len(rs) {
		t.Errorf("%d saved deliveries, want at least %d (run 1: %d, run 2: %d):\n%s", got, n+len(rs), n, len(rs), strings.Join(append(bodies, refused...), "\n"))
	}
}

// A name that is taken when the delivery is saved (a file that appeared after
// the listener started) is left alone: the delivery moves to the next number.
func TestWebhookSaveMovesToTheNextFreeName(t *testing.T) {
	dir := t.TempDir()
	taken := filepath.Join(dir, "000001-ev-1.body")
	if err := os.WriteFile(taken, []byte("earlier"), 0o600); err != nil {
		t.Fatal(err)
	}
	l := &listener{saveDir: dir, nextFile: 1}
	base, err := l.saveLocked("ev-1", dir, http.Header{}, []byte("new"))
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(taken); string(got) != "earlier" {
		t.Fatalf("%s was written over: %q", taken, got)
	}
	if got, _ := os.ReadFile(base + ".body"); string(got) != "new" || base == strings.TrimSuffix(taken, ".body") {
		t.Fatalf("saved as %s holding %q", base, got)
	}
}
