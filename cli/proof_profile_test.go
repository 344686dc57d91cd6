package cli

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/teatest/v2"
)

func TestProfileTrustedRootErrorsNameTheFile(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "nope.pem")
	notPEM := filepath.Join(dir, "junk.pem")
	if err := os.WriteFile(notPEM, []byte("not a certificate\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{missing, notPEM} {
		p := Profile{Name: "prod", TrustedRoots: []string{path}}
		_, err := profileProofSettings(p)
		if err == nil || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), `profile "prod" trusted_roots`) {
			t.Errorf("%s: error %v should name the profile setting and the file", path, err)
		}
		if _, err := consoleModel(p, false, func(string) string { return "" }, discardLogger()); err == nil || !strings.Contains(err.Error(), path) {
			t.Errorf("console with %s: %v", path, err)
		}
	}
}

// The demo profile trusts the demo root and names the demo's enclave apps, so
// the console opened by 'vigil demo' shows every boot proof VERIFIED, anchored at
// the demo root and labelled as not AWS.
func TestDemoConsoleVerifiesBootProofsWithTheDemoRoot(t *testing.T) {
	env, err := startDemo(context.Background(), "", discardLogger())
	if err != nil {
		t.Fatal(err)
	}
	defer env.Close()
	c := proc{stdin: strings.NewReader(""), stdout: io.Discard, stderr: io.Discard, getenv: func(string) string { return "" }}
	p, err := loadProfile(c, env.configPath, "alice")
	if err != nil {
		t.Fatal(err)
	}
	s, err := profileProofSettings(p)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(s.Apps, env.info.EnclaveApps) || len(s.Roots) != 1 || !s.Roots[0].Demo {
		t.Fatalf("demo settings: apps %v, roots %+v", s.Apps, s.Roots)
	}
	root, err := consoleModel(p, false, c.getenv, discardLogger())
	if err != nil {
		t.Fatal(err)
	}
	tm := teatest.NewTestModel(t, root, teatest.WithInitialTermSize(160, 48))
	waitForText(t, tm, "Vigil Demo")
	tm.Type("2")
	want := append([]string{"DEMO root — not AWS"}, env.info.EnclaveApps...)
	// Apps verify concurrently: wait until every row's verdict has been drawn after
	// the last "verifying…", not just the first one's.
	var seen []byte
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool {
		seen = append(seen, b...)
		plain := ansi.Strip(string(seen))
		for _, w := range want {
			if !strings.Contains(plain, w) {
				return false
			}
		}
		idx := indexesOf(plain, "VERIFIED")
		n := len(env.info.EnclaveApps)
		return len(idx) >= n && strings.LastIndex(plain, "verifying") < idx[len(idx)-n]
	}, teatest.WithDuration(15*time.Second), teatest.WithCheckInterval(20*time.Millisecond))
	tm.Send(tea.KeyPressMsg{Code: 'q', Text: "q"})
	tm.WaitFinished(t, teatest.WithFinalTimeout(5*time.Second))
	// The program has finished: the model can be read without racing it.
	frame := root.Render()
	if strings.Contains(frame, "FAILED") || strings.Count(frame, "VERIFIED") != len(env.info.EnclaveApps) {
		t.Errorf("not every app verified:\n%s", frame)
	}
}

// indexesOf returns where each occurrence of sub starts in s.
func indexesOf(s, sub string) []int {
	var out []int
	for i := 0; ; {
		j := strings.Index(s[i:], sub)
		if j < 0 {
			return out
		}
		out = append(out, i+j)
		i += j + len(sub)
	}
}
