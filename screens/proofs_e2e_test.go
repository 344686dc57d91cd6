package screens

import (
	"context"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/proof"
	"github.com/vigil-console/vigil/server/servertest"
	"github.com/vigil-console/vigil/ui/theme"
)

// demoHarness drives the console on the real service as alice, with the demo's
// apps and the roots given.
func demoHarness(t *testing.T, d *servertest.Demo, roots []proof.Root) *harness {
	t.Helper()
	c := d.Client("alice")
	r := NewRoot(Options{Reader: c, Submitter: c, Profile: "demo", Theme: theme.Options{Dark: true, NoColor: true},
		Static: true, Tick: func(time.Duration, func(time.Time) tea.Msg) tea.Cmd { return nil },
		Proofs: ProofSettings{Apps: d.Info.EnclaveApps, Roots: roots}})
	h := &harness{t: t, root: r}
	h.send(tea.WindowSizeMsg{Width: 160, Height: 48})
	h.run(r.Init())
	return h
}

func demoRoots(t *testing.T, d *servertest.Demo) []proof.Root {
	t.Helper()
	roots, err := proof.ParseRootsPEM("demo-root.pem", d.Info.DemoRootPEM)
	if err != nil {
		t.Fatal(err)
	}
	return roots
}

func TestEndToEndBootProofsOfTheLocalService(t *testing.T) {
	d := servertest.StartDemo(t)
	if len(d.Info.EnclaveApps) == 0 {
		t.Fatal("the demo has no enclave apps")
	}

	t.Run("demo root trusted", func(t *testing.T) {
		h := demoHarness(t, d, demoRoots(t, d))
		h.key("2")
		out := h.plain()
		for _, app := range d.Info.EnclaveApps {
			if r := rowOf(t, out, app); !strings.Contains(r, "VERIFIED") || !strings.Contains(r, "DEMO root — not AWS") {
				t.Errorf("%s: %q", app, r)
			}
		}
		h.key("enter")
		if out := h.plain(); !strings.Contains(out, "✓ pcr17") || !strings.Contains(out, "DEMO root — not AWS") {
			t.Errorf("detail:\n%s", out)
		}
	})

	t.Run("only the AWS root trusted", func(t *testing.T) {
		h := demoHarness(t, d, nil)
		h.key("2")
		out := h.plain()
		for _, app := range d.Info.EnclaveApps {
			if r := rowOf(t, out, app); !strings.Contains(r, "FAILED") {
				t.Errorf("%s: %q", app, r)
			}
		}
		if !strings.Contains(out, "✗ cert-chain") {
			t.Errorf("the chain check is not the one shown failing:\n%s", out)
		}
		h.key("enter")
		// cert-chain and nothing else.
		if out := h.plain(); !strings.Contains(out, "FAILED — failed: cert-chain ") {
			t.Errorf("detail:\n%s", out)
		}
	})
}

func TestEndToEndAppProofOfACompletedActivity(t *testing.T) {
	d := servertest.StartDemo(t)
	ctx := context.Background()
	alice, bob := d.Client("alice"), d.Client("bob")
	var userIDs []string
	for _, m := range d.Info.Members {
		userIDs = append(userIDs, m.UserID)
	}
	act, err := alice.CreateUserTag(ctx, api.CreateUserTagParams{UserTagName: "proof-e2e", UserIDs: userIDs[:1]}, api.WithAppProofs())
	if err != nil {
		t.Fatal(err)
	}
	if act.Status != api.StatusCompleted {
		if act, err = bob.ApproveActivity(ctx, act.Fingerprint); err != nil {
			t.Fatal(err)
		}
	}
	if act.Status != api.StatusCompleted {
		t.Fatalf("activity is %s, want completed", act.Status)
	}

	h := demoHarness(t, d, demoRoots(t, d))
	h.key("v") // All: newest first
	a := h.activities()
	if len(a.items) == 0 || a.items[0].ID != act.ID {
		t.Fatalf("the new activity is not first")
	}
	h.key("enter")
	out := appProofsSection(t, h)
	for _, want := range []string{"App proofs (1)", "#1 SIGNATURE_SCHEME_EPHEMERAL_KEY_P256  VERIFIED",
		"app proof:      ✓", "boot proof:     VERIFIED", "DEMO root — not AWS", `"activityId": "` + act.ID + `"`} {
		if !strings.Contains(out, want) {
			t.Errorf("lacks %q:\n%s", want, out)
		}
	}

	// Without the demo root the same proof is not verified.
	h = demoHarness(t, d, nil)
	h.key("v")
	h.key("enter")
	out = appProofsSection(t, h)
	if !strings.Contains(out, "P256  FAILED") || !strings.Contains(out, "boot proof:     FAILED failed: cert-chain") {
		t.Errorf("without the demo root:\n%s", out)
	}
}
