package cli

import (
	"context"
	"encoding/pem"
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

	"github.com/vigil-console/vigil/proof"
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
	env, err := startDemo(context.Background(), "", discardLogger(), discardLogger())
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
	// Apps verify concurrently, and the renderer redraws only the cells that
	// change, so the output stream cannot say which rows are done. Until a
	// frame shows every row verified, ask for a full repaint (a resize) and
	// judge only what is drawn after it.
	// WaitFor hands the condition everything read so far, not what is new:
	// mark is an offset into it.
	mark, width := 0, 160
	teatest.WaitFor(t, tm.Output(), func(seen []byte) bool {
		plain := ansi.Strip(string(seen[mark:]))
		done := strings.Count(plain, "VERIFIED") >= len(env.info.EnclaveApps) && !strings.Contains(plain, "verifying")
		for _, w := range want {
			done = done && strings.Contains(plain, w)
		}
		if !done {
			mark = len(seen)
			width = 160 + (width-159)%2 // 160, 161, 160, …
			tm.Send(tea.WindowSizeMsg{Width: width, Height: 48})
		}
		return done
	}, teatest.WithDuration(15*time.Second), teatest.WithCheckInterval(50*time.Millisecond))
	tm.Send(tea.KeyPressMsg{Code: 'q', Text: "q"})
	tm.WaitFinished(t, teatest.WithFinalTimeout(5*time.Second))
	// The program has finished: the model can be read without racing it.
	frame := root.Render()
	if strings.Contains(frame, "FAILED") || strings.Count(frame, "VERIFIED") != len(env.info.EnclaveApps) {
		t.Errorf("not every app verified:\n%s", frame)
	}
}

// A trusted_roots root is named in reports by its path as written in the
// config file, which is what the on-call finds there, not by its base name
// (two roots/…/root.pem would read alike) nor the resolved path.
func TestProfileTrustedRootIsNamedAsWritten(t *testing.T) {
	now := time.Now()
	auth, err := proof.NewDemoAuthority(now)
	if err != nil {
		t.Fatal(err)
	}
	enc, err := proof.NewDemoEnclave(auth, "signer", "o", "l", now)
	if err != nil {
		t.Fatal(err)
	}
	const written = "roots/ours.pem"
	path := writeConfig(t, "[profiles.p]\nbase_url = \"http://127.0.0.1:8080\"\norganization_id = \"o\"\ntrusted_roots = [\""+written+"\"]\n")
	file := filepath.Join(filepath.Dir(path), "roots", "ours.pem")
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: auth.Root().Cert.Raw}), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, err := loadConfig(path)
	if err != nil {
		t.Fatal(err)
	}
	s, err := profileProofSettings(cfg.Profiles["p"])
	if err != nil {
		t.Fatal(err)
	}
	rep := proof.VerifyBootProof(enc.BootProof, s.Options("signer", now))
	if want := "demo root: " + written; rep.Anchor != want {
		t.Errorf("anchor %q, want %q", rep.Anchor, want)
	}
}
