package screens

import (
	"bytes"
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
func demoHarness(t testing.TB, d *servertest.Demo, roots []proof.Root) *harness {
	t.Helper()
	return demoHarnessVia(t, d.Client("alice"), ProofSettings{Apps: d.Info.EnclaveApps, Roots: roots})
}

// demoHarnessVia is demoHarness with the client (one talking to a proxy in
// front of the service, say) and the proof settings given.
func demoHarnessVia(t testing.TB, c *api.Client, settings ProofSettings) *harness {
	t.Helper()
	return demoHarnessWithin(t, c, settings, 0)
}

// largeOrgCommands is how long the console's commands may take on an
// organization of a thousand users and more: its lists are megabytes, which
// the race detector on a busy machine reads in seconds.
const largeOrgCommands = 2 * time.Minute

// demoHarnessWithin is demoHarnessVia whose commands may run for up to
// slowCommands (harness.slowCommands; 0: the default).
func demoHarnessWithin(t testing.TB, c *api.Client, settings ProofSettings, slowCommands time.Duration) *harness {
	t.Helper()
	r := NewRoot(Options{Reader: c, Submitter: c, Profile: "demo", Theme: theme.Options{Dark: true, NoColor: true},
		Static: true, Tick: func(time.Duration, func(time.Time) tea.Msg) tea.Cmd { return nil },
		Proofs: settings})
	if slowCommands > 0 {
		r.common.Timeout = slowCommands
	}
	h := &harness{t: t, root: r, slowCommands: slowCommands}
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

// completed submits an activity as alice and has bob approve it if the root
// quorum needs a second vote.
func completed(t *testing.T, d *servertest.Demo, submit func(alice *api.Client) (*api.Activity, error)) *api.Activity {
	t.Helper()
	act, err := submit(d.Client("alice"))
	if err != nil {
		t.Fatal(err)
	}
	if act.Status != api.StatusCompleted {
		if act, err = d.Client("bob").ApproveActivity(context.Background(), act.Fingerprint); err != nil {
			t.Fatal(err)
		}
	}
	if act.Status != api.StatusCompleted {
		t.Fatalf("activity is %s, want completed", act.Status)
	}
	return act
}

// userTag is a completed CREATE_USER_TAG activity with an app proof.
func userTag(t *testing.T, d *servertest.Demo, name string) *api.Activity {
	t.Helper()
	return completed(t, d, func(alice *api.Client) (*api.Activity, error) {
		return alice.CreateUserTag(context.Background(), api.CreateUserTagParams{UserTagName: name,
			UserIDs: []string{d.Info.Members[0].UserID}}, api.WithAppProofs())
	})
}

func TestEndToEndAppProofOfACompletedActivity(t *testing.T) {
	d := servertest.StartDemo(t)
	act := userTag(t, d, "proof-e2e")

	h := demoHarness(t, d, demoRoots(t, d))
	h.key("v") // All: newest first
	a := h.activities()
	if len(a.items) == 0 || a.items[0].ID != act.ID {
		t.Fatalf("the new activity is not first")
	}
	h.key("enter")
	out := appProofsSection(t, h)
	for _, want := range []string{"App proofs (1)", "#1 SIGNATURE_SCHEME_EPHEMERAL_KEY_P256  VERIFIED",
		"app proof:      ✓", "activity:       ✓ the payload names this activity; its type, fingerprint, result hash match",
		"boot proof:     VERIFIED", "DEMO root — not AWS", `"activityId": "` + act.ID + `"`} {
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

// A service that serves one activity's genuine app proof as another's (here a
// proxy moves the list_app_proofs reply): the signature and the boot proof
// verify, but the proof is about another activity, so it is FAILED, saying
// which, never VERIFIED; replaying old proofs must not make an activity look
// enclave-attested.
func TestEndToEndAppProofOfAnotherActivityFails(t *testing.T) {
	d := servertest.StartDemo(t)
	ctx := context.Background()
	tag := userTag(t, d, "proofed-tag")
	policy := completed(t, d, func(alice *api.Client) (*api.Activity, error) {
		return alice.CreatePolicy(ctx, api.CreatePolicyParams{PolicyName: "no proofs of its own", Effect: "EFFECT_ALLOW",
			Condition: "activity.type == 'ACTIVITY_TYPE_CREATE_USER_TAG'", Notes: "e2e"})
	})
	tagProofs, err := d.Client("alice").QueryRaw(ctx, api.QueryListAppProofs,
		api.ListAppProofsRequest{OrganizationID: d.Info.OrganizationID, ActivityID: tag.ID})
	if err != nil {
		t.Fatal(err)
	}
	hostile := d.Rewriting(func(op string, request, reply []byte) []byte {
		if op == "query/"+api.QueryListAppProofs && bytes.Contains(request, []byte(policy.ID)) {
			return tagProofs
		}
		return reply
	})

	h := demoHarnessVia(t, d.ClientAt(hostile, "alice"), ProofSettings{Apps: d.Info.EnclaveApps, Roots: demoRoots(t, d)})
	h.key("v") // All: newest first
	if a := h.activities(); len(a.items) == 0 || a.items[0].ID != policy.ID {
		t.Fatalf("the policy activity is not first")
	}
	h.key("enter")
	out := appProofsSection(t, h)
	for _, want := range []string{"#1 SIGNATURE_SCHEME_EPHEMERAL_KEY_P256  FAILED",
		"app proof:      ✓ signed by the attested ephemeral key",
		"activity:       ✗ this proof is for activity " + tag.ID + " (CREATE_USER_TAG), not this one",
		"boot proof:     VERIFIED"} {
		if !strings.Contains(out, want) {
			t.Errorf("lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "P256  VERIFIED") {
		t.Errorf("another activity's proof shown as verified:\n%s", out)
	}
}

// A service that answers get_latest_boot_proof(signer) with policy-engine's
// genuine boot proof (a proxy swaps the reply): every cryptographic check
// passes, but the attested namespace names policy-engine, so signer's row is
// FAILED with the reason, not "signer VERIFIED".
func TestEndToEndBootProofOfAnotherAppFails(t *testing.T) {
	d := servertest.StartDemo(t)
	ctx := context.Background()
	engine, err := d.Client("alice").QueryRaw(ctx, api.QueryGetLatestBootProof,
		api.GetLatestBootProofRequest{OrganizationID: d.Info.OrganizationID, AppName: "policy-engine"})
	if err != nil {
		t.Fatal(err)
	}
	hostile := d.Rewriting(func(op string, request, reply []byte) []byte {
		if op == "query/"+api.QueryGetLatestBootProof && bytes.Contains(request, []byte(`"appName":"signer"`)) {
			return engine
		}
		return reply
	})
	h := demoHarnessVia(t, d.ClientAt(hostile, "alice"), ProofSettings{Apps: []string{"signer", "policy-engine"}, Roots: demoRoots(t, d)})
	h.key("2")
	out := h.plain()
	if r := rowOf(t, out, "signer"); !strings.Contains(r, "FAILED") {
		t.Errorf("signer served policy-engine's proof: %q", r)
	}
	if r := rowOf(t, out, "policy-engine"); !strings.Contains(r, "VERIFIED") {
		t.Errorf("policy-engine's own proof: %q", r)
	}
	want := `✗ app this proof is for app "policy-engine", not "signer": the attested manifest namespace is "vigil local service/policy-engine"`
	if !strings.Contains(out, want) {
		t.Errorf("lacks %q:\n%s", want, out)
	}
}

// Unpinned, a verified proof says what it does not prove, in the list and the
// report; pinned to its manifest hash, it is plainly VERIFIED.
func TestEndToEndUnpinnedVerdictSaysWhatItDoesNotProve(t *testing.T) {
	d := servertest.StartDemo(t)
	settings := ProofSettings{Apps: []string{"signer"}, Roots: demoRoots(t, d)}
	h := demoHarnessVia(t, d.Client("alice"), settings)
	h.key("2")
	if r := rowOf(t, h.plain(), "signer"); !strings.Contains(r, "VERIFIED (no pins)") {
		t.Errorf("unpinned row: %q", r)
	}
	h.key("enter")
	if out := h.plain(); !strings.Contains(out, "no pins set: any enclave under this root would pass") {
		t.Errorf("unpinned report:\n%s", out)
	}
	rep := h.bootProofs().apps[0].report
	if rep == nil || rep.Manifest == nil {
		t.Fatal("no report")
	}
	settings.AllowedManifestHashes = [][]byte{rep.Manifest.SHA256}
	h = demoHarnessVia(t, d.Client("alice"), settings)
	h.key("2")
	if out := h.plain(); !strings.Contains(rowOf(t, out, "signer"), "VERIFIED ") || strings.Contains(out, "no pins") {
		t.Errorf("pinned:\n%s", out)
	}
}

// A boot proof the service does not have: for an app of the profile, the
// console says to check the name in the profile (there is no id to check);
// for an app proof's key, that no enclave booted with it is known, so the
// proof cannot be trusted.
func TestEndToEndMissingBootProofSaysWhatToCheck(t *testing.T) {
	d := servertest.StartDemo(t)
	h := demoHarnessVia(t, d.Client("alice"), ProofSettings{Apps: []string{"policy-engine-x"}, Roots: demoRoots(t, d)})
	h.key("2")
	out := h.plain()
	if r := rowOf(t, out, "policy-engine-x"); !strings.Contains(r, "CANNOT VERIFY") {
		t.Errorf("row: %q", r)
	}
	out = strings.Join(strings.Fields(out), " ") // as one line: the preview wraps
	for _, want := range []string{"the service has no boot proof under this app name",
		`"policy-engine-x" is in enclave_apps of profile "demo": that is where to fix its name.`} {
		if !strings.Contains(out, want) {
			t.Errorf("lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "check the id") {
		t.Errorf("generic not-found advice:\n%s", out)
	}
	h.key("enter")
	if out := h.plain(); !strings.Contains(out, "that is where to fix its name") {
		t.Errorf("report:\n%s", out)
	}

	// An app proof whose key the service knows no boot proof for (a proxy
	// swaps the key in the list_app_proofs reply).
	act := userTag(t, d, "unknown-key")
	proofs, err := d.Client("alice").ListAppProofs(context.Background(), act.ID)
	if err != nil || len(proofs) != 1 {
		t.Fatalf("app proofs: %v %v", proofs, err)
	}
	key := proofs[0].PublicKey
	hostile := d.Rewriting(func(op string, request, reply []byte) []byte {
		if op == "query/"+api.QueryListAppProofs {
			return bytes.ReplaceAll(reply, []byte(key), []byte(key[:len(key)-2]+"00"))
		}
		return reply
	})
	h = demoHarnessVia(t, d.ClientAt(hostile, "alice"), ProofSettings{Roots: demoRoots(t, d)})
	h.key("v")
	h.key("enter")
	out = appProofsSection(t, h)
	// The reason follows a long key, which is broken where the width ends;
	// the reason's own words are not.
	if !strings.Contains(out, "P256  CANNOT VERIFY") ||
		!strings.Contains(strings.Join(strings.Fields(out), " "), "no enclave booted with this key is known to the service, so nothing signed with it (such as an app proof) can be trusted") {
		t.Errorf("unknown key:\n%s", out)
	}
}

// An app proof whose boot proof the service labels with an app the profile
// does not list: its pins cannot apply, and the label would only be checked
// against itself, so nothing is shown as verified.
func TestEndToEndAppProofOfAnUnlistedAppIsNotVerified(t *testing.T) {
	d := servertest.StartDemo(t)
	tag := userTag(t, d, "unlisted-app")
	hostile := d.Rewriting(func(op string, request, reply []byte) []byte {
		if op == "query/"+api.QueryGetBootProof {
			for _, app := range d.Info.EnclaveApps {
				reply = bytes.ReplaceAll(reply, []byte(`"enclaveApp":"`+app+`"`), []byte(`"enclaveApp":"unlisted"`))
			}
		}
		return reply
	})
	pins := map[string]map[int][]byte{d.Info.EnclaveApps[0]: {0: make([]byte, 48)}}
	for _, settings := range []ProofSettings{
		{Apps: d.Info.EnclaveApps, Roots: demoRoots(t, d)},
		{ExpectedPCRs: pins, Roots: demoRoots(t, d)}, // pins without enclave_apps
	} {
		h := demoHarnessVia(t, d.ClientAt(hostile, "alice"), settings)
		h.key("v")
		if a := h.activities(); len(a.items) == 0 || a.items[0].ID != tag.ID {
			t.Fatalf("the tag activity is not first")
		}
		h.key("enter")
		out := appProofsSection(t, h)
		if !strings.Contains(out, "P256  CANNOT VERIFY") || !strings.Contains(strings.ReplaceAll(out, "\n", ""), `runs app "unlisted", which this profile does not name`) ||
			strings.Contains(out, "P256  VERIFIED") {
			t.Errorf("an app proof of an unlisted app (settings %+v):\n%s", settings.Apps, out)
		}
	}
}
