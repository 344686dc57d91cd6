package screens

import (
	"bytes"
	"context"
	"crypto/sha256"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/server/servertest"
	"github.com/vigil-console/vigil/ui/theme"
)

// opsHarness drives the console on the real service as alice, logging to log,
// with the demo's TLS fetcher key.
func opsHarness(t *testing.T, d *servertest.Demo, log *bytes.Buffer) *harness {
	t.Helper()
	return opsHarnessWithin(t, d, log, 0)
}

// opsHarnessWithin is opsHarness whose commands may run for up to
// slowCommands (0: the default).
func opsHarnessWithin(t *testing.T, d *servertest.Demo, log *bytes.Buffer, slowCommands time.Duration) *harness {
	t.Helper()
	c := d.Client("alice")
	r := NewRoot(Options{Reader: c, Submitter: c, Profile: "demo", Theme: theme.Options{Dark: true, NoColor: true},
		Refresh: 30 * time.Second, Static: true, Tick: func(time.Duration, func(time.Time) tea.Msg) tea.Cmd { return nil },
		Logger:              slog.New(slog.NewTextHandler(log, &slog.HandlerOptions{Level: slog.LevelDebug})),
		TLSFetcherPublicKey: d.Info.TLSFetcherPublicKey})
	if slowCommands > 0 {
		r.common.Timeout = slowCommands
	}
	h := &harness{t: t, root: r, slowCommands: slowCommands}
	h.send(tea.WindowSizeMsg{Width: 160, Height: 48})
	h.run(r.Init())
	return h
}

func memberID(t *testing.T, d *servertest.Demo, name string) string {
	t.Helper()
	for _, m := range d.Info.Members {
		if m.Name == name {
			return m.UserID
		}
	}
	t.Fatalf("no demo member %s", name)
	return ""
}

// followed returns the activity the form submitted, after checking that the
// console went to Activities and opened it; bob approves it when it waits, and
// the activity is returned as the service then holds it.
func followed(t *testing.T, h *harness, d *servertest.Demo) *api.Activity {
	t.Helper()
	var act *api.Activity
	for _, m := range h.msgs {
		if s, ok := m.(opSubmittedMsg); ok {
			if s.err != nil {
				t.Fatalf("%s failed: %v", s.op, s.err)
			}
			act = s.activity
		}
	}
	if act == nil {
		t.Fatalf("nothing was submitted:\n%s", h.frame())
	}
	if h.root.ActiveTitle() != "Activities" || h.activities().detail == nil || h.activities().detail.activity.ID != act.ID {
		t.Fatalf("the console did not open activity %s in Activities:\n%s", act.ID, h.frame())
	}
	ctx := context.Background()
	if !api.IsTerminal(act.Status) {
		if _, err := d.Client("bob").ApproveActivity(ctx, act.Fingerprint); err != nil {
			t.Fatalf("bob approves: %v", err)
		}
	}
	got, err := d.Client("alice").GetActivity(ctx, act.ID)
	if err != nil {
		t.Fatal(err)
	}
	return got
}

func TestEndToEndOperationForms(t *testing.T) {
	d := servertest.StartDemo(t)
	ctx := context.Background()
	var log bytes.Buffer

	t.Run("create invitations", func(t *testing.T) {
		h := opsHarness(t, d, &log)
		openOperation(h, "create invitations")
		h.typeText("dave <dave@example.com>, erin <erin@example.com>")
		h.submitAndConfirm()
		a := followed(t, h, d)
		if a.Status != api.StatusCompleted || a.Result.CreateInvitationsResult == nil || len(a.Result.CreateInvitationsResult.InvitationIDs) != 2 {
			t.Fatalf("invitations: %+v", a)
		}
		// The open detail follows the activity: the next refresh shows bob's
		// approval completed it.
		h.send(activitiesTickMsg{gen: h.activities().autoGen})
		if got := h.activities().detail.activity.Status; got != api.StatusCompleted {
			t.Errorf("the open detail still says %s after the refresh", got)
		}
		if inv := a.Intent.CreateInvitationsIntent.Invitations[1]; inv.ReceiverUserName != "erin" || inv.SenderUserID != memberID(t, d, "alice") {
			t.Errorf("invitation: %+v", inv)
		}
	})

	t.Run("create user tag", func(t *testing.T) {
		h := opsHarness(t, d, &log)
		openOperation(h, "create user tag")
		h.typeText("oncall")
		h.key("tab")
		f := &h.root.dialogs.Top().(*opFormDialog).form
		bob := memberID(t, d, "bob")
		for range 20 { // move to bob in the list and pick him
			if strings.Contains(h.frame(), "bob ("+bob+")") {
				break
			}
			h.key("right")
		}
		h.key("space")
		if got := f.Values()["userIds"]; got != bob {
			t.Fatalf("picked %q, want bob %s", got, bob)
		}
		h.submitAndConfirm()
		a := followed(t, h, d)
		if a.Result.CreateUserTagResult == nil {
			t.Fatalf("tag: %+v", a)
		}
		u, err := d.Client("alice").GetUser(ctx, bob)
		if err != nil || !strings.Contains(strings.Join(u.UserTags, ","), a.Result.CreateUserTagResult.UserTagID) {
			t.Errorf("bob lacks the new tag: %+v %v", u, err)
		}
	})

	// No user picked: the tag alone (userIds: [], which SPEC.md allows).
	t.Run("create user tag without users", func(t *testing.T) {
		h := opsHarness(t, d, &log)
		openOperation(h, "create user tag")
		h.typeText("given-later")
		h.submitAndConfirm()
		a := followed(t, h, d)
		r := a.Result.CreateUserTagResult
		if a.Status != api.StatusCompleted || r == nil || r.UserTagID == "" || r.UserIDs == nil || len(r.UserIDs) != 0 {
			t.Fatalf("tag without users: %s %+v", a.Status, r)
		}
	})

	t.Run("create smart contract interface", func(t *testing.T) {
		abi := `[{"type":"function","name":"transfer","inputs":[{"name":"to","type":"address"}]}]`
		file := filepath.Join(t.TempDir(), "dai.abi.json")
		if err := os.WriteFile(file, []byte(abi), 0o600); err != nil {
			t.Fatal(err)
		}
		h := opsHarness(t, d, &log)
		openOperation(h, "create smart contract interface")
		h.typeText("0x6B175474E89094C44Da98b954EedeAC495271d0F")
		h.key("tab")
		h.key("tab")
		h.typeText("DAI")
		h.key("tab")
		h.send(tea.PasteMsg{Content: file})
		h.key("ctrl+s")
		// The confirm names the file as read; the file changing after it does
		// not change what is sent.
		sum := sha256.Sum256([]byte(abi))
		if out := h.frame(); !strings.Contains(out, fmt.Sprintf("sha256 %x", sum[:8])) || !strings.Contains(out, fmt.Sprintf("interface: %d bytes", len(abi))) {
			t.Fatalf("the confirm should give the file's size and digest:\n%s", out)
		}
		if err := os.WriteFile(file, []byte(`[{"type":"function","name":"drain"}]`), 0o600); err != nil {
			t.Fatal(err)
		}
		h.key("y")
		a := followed(t, h, d)
		if a.Result.CreateSmartContractInterfaceResult == nil || a.Intent.CreateSmartContractInterfaceIntent.SmartContractInterface != abi {
			t.Fatalf("the interface sent should be the one confirmed: %+v", a.Intent.CreateSmartContractInterfaceIntent)
		}
		var toasts strings.Builder
		for _, e := range h.root.log.entries {
			toasts.WriteString(e.text + "\n")
		}
		if want := fmt.Sprintf("interface: %d bytes of 400000 allowed", len(abi)); !strings.Contains(toasts.String(), want) {
			t.Errorf("the toast should say the size against the limit (%q):\n%s", want, toasts.String())
		}
	})

	// The demo's ids, from its own activities' intents.
	acts, err := d.Client("alice").ListActivities(ctx, api.ListActivitiesOptions{Limit: 100})
	if err != nil {
		t.Fatal(err)
	}
	var treasury, deployment string
	for _, a := range acts {
		if p := a.Intent.DeleteWalletAccountsIntent; p != nil && a.Status == api.StatusFailed {
			treasury = p.WalletAccountIDs[0]
		}
		if p := a.Intent.DeleteTvcDeploymentIntent; p != nil {
			deployment = p.DeploymentID
		}
	}
	if treasury == "" || deployment == "" {
		t.Fatal("demo ids not found")
	}

	t.Run("delete wallet accounts", func(t *testing.T) {
		h := opsHarness(t, d, &log)
		openOperation(h, "delete wallet accounts")
		h.typeText(treasury)
		h.key("tab")
		h.key("right") // without export
		h.submitAndConfirm()
		a := followed(t, h, d)
		if a.Status != api.StatusCompleted || a.Result.DeleteWalletAccountsResult == nil || a.Intent.DeleteWalletAccountsIntent.DeleteWithoutExport == nil {
			t.Fatalf("wallet account deletion: %+v", a)
		}
	})

	t.Run("delete tvc deployment", func(t *testing.T) {
		h := opsHarness(t, d, &log)
		openOperation(h, "delete tvc deployment")
		h.typeText(deployment)
		h.submitAndConfirm()
		a := followed(t, h, d)
		if a.Status != api.StatusCompleted || a.Result.DeleteTvcDeploymentResult == nil {
			t.Fatalf("tvc deletion: %+v", a)
		}
	})

	t.Run("create read only session", func(t *testing.T) {
		h := opsHarness(t, d, &log)
		openOperation(h, "create read only session")
		h.submitAndConfirm()
		a := followed(t, h, d)
		if a.Result.CreateReadOnlySessionResult == nil || a.Result.CreateReadOnlySessionResult.UserID != memberID(t, d, "alice") {
			t.Fatalf("session: %+v", a)
		}
		// The token is a bearer credential: the open detail says it is hidden and
		// never draws it.
		token := a.Result.CreateReadOnlySessionResult.Session
		frame := ansi.Strip(h.root.Render())
		if token == "" || strings.Contains(h.root.Render(), token) || !strings.Contains(strings.Join(strings.Fields(frame), " "), "(hidden: a") {
			t.Errorf("the session token is drawn, or its place is not marked hidden:\n%s", frame)
		}
	})

	t.Run("get onramp transaction status", func(t *testing.T) {
		want, err := d.Client("alice").GetOnrampTransactionStatus(ctx, "onramp-demo-1", false)
		if err != nil {
			t.Fatal(err)
		}
		h := opsHarness(t, d, &log)
		h.key(":")
		h.typeText("get onramp transaction status")
		h.key("enter")
		h.typeText("onramp-demo-1")
		h.key("ctrl+s")
		if out := h.frame(); !strings.Contains(out, "on-ramp transaction onramp-demo-1: "+want) {
			t.Errorf("want the status %s shown:\n%s", want, out)
		}
	})
}

func TestOauth2SecretNeverInTheLogMessagesOrAnyFrame(t *testing.T) {
	d := servertest.StartDemo(t)
	const secret = "s3cr3t-Client-VALUE-7f1e"
	var log bytes.Buffer
	h := opsHarness(t, d, &log)
	var frames []string
	step := func(f func()) {
		f()
		frames = append(frames, h.root.Render())
	}
	step(func() { openOperation(h, "update oauth2 credential") })
	step(func() { h.typeText("no-such-credential") })
	step(func() { h.key("tab") })
	step(func() { h.key("right") })
	step(func() { h.key("tab") })
	step(func() { h.typeText("1234") })
	step(func() { h.key("tab") })
	for _, r := range secret {
		step(func() { h.key(string(r)) })
	}
	step(func() { h.key("ctrl+s") })
	step(func() { h.key("y") })
	a := followed(t, h, d)
	frames = append(frames, h.root.Render())
	// The service accepted it only after decrypting the secret with its TLS
	// fetcher key; it fails later because the credential does not exist.
	enc := a.Intent.UpdateOauth2CredentialIntent.EncryptedClientSecret
	if enc == "" || strings.Contains(enc, secret) {
		t.Fatalf("encryptedClientSecret %q", enc)
	}
	if a.Failure == nil || !strings.Contains(a.Failure.Message, "not found") {
		t.Errorf("want a not-found failure: %+v", a.Failure)
	}
	step(func() { h.key("m") })
	var messages strings.Builder
	for _, e := range h.root.log.entries {
		messages.WriteString(e.text + "\n")
	}
	if messages.Len() == 0 || log.Len() == 0 {
		t.Fatalf("nothing was logged (messages %d, log %d bytes): the test would prove nothing", messages.Len(), log.Len())
	}
	check := func(what, text string) {
		if strings.Contains(strings.ToLower(text), strings.ToLower(secret)) || strings.Contains(text, secret[:10]) {
			t.Errorf("the secret appears in %s", what)
		}
	}
	check("the log", log.String())
	check("the messages view", messages.String())
	for i, f := range frames {
		check("frame "+string(rune('0'+i%10)), f)
	}
	for _, m := range h.msgs {
		if s, ok := m.(opSubmittedMsg); ok && s.form != nil {
			if strings.Contains(s.form.form.Values()["clientSecret"], secret[:4]) {
				t.Errorf("the form keeps the secret after sending")
			}
		}
	}
}
