package proof

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/vigil-console/vigil/api"
)

// namespaceEnclave is a demo enclave of the app policy-engine whose attested
// manifest namespace is ns, its boot proof labelled label by the service.
func namespaceEnclave(t *testing.T, auth *DemoAuthority, ns, label string, now time.Time) api.BootProof {
	t.Helper()
	enc, err := newDemoEnclave(auth, "policy-engine", "preprod", "l", now, demoParams{pcrCount: attestablePCRs, namespace: ns})
	if err != nil {
		t.Fatal(err)
	}
	bp := enc.BootProof
	bp.EnclaveApp = label
	return bp
}

// Another app's genuine boot proof, relabelled by the service (whose label is
// not attested), fails the app check however its attested namespace names
// that app: flat ("policy-engine") or with a trailing slash. A namespace that
// names no app at all fails too: the label alone ties nothing.
func TestAnotherAppsNamespaceFailsTheAppCheck(t *testing.T) {
	now := time.Now()
	auth, err := NewDemoAuthority(now)
	if err != nil {
		t.Fatal(err)
	}
	opts := Options{Roots: []Root{auth.Root()}, App: "signer"}
	for _, ns := range []string{"policy-engine", "preprod/policy-engine/", "preprod/policy-engine//"} {
		rep := VerifyBootProof(namespaceEnclave(t, auth, ns, "signer", now), opts)
		if !slices.Equal(rep.FailedChecks(), []string{CheckApp}) ||
			!strings.HasPrefix(rep.Check(CheckApp).Reason, `this proof is for app "policy-engine", not "signer"`) {
			t.Errorf("namespace %q (policy-engine's enclave) labelled signer: %s", ns, dump(rep))
		}
	}
	for _, ns := range []string{"/", "//"} {
		rep := VerifyBootProof(namespaceEnclave(t, auth, ns, "signer", now), opts)
		if !slices.Equal(rep.FailedChecks(), []string{CheckApp}) || !strings.Contains(rep.Check(CheckApp).Reason, "names no app") {
			t.Errorf("namespace %q labelled signer: %s", ns, dump(rep))
		}
	}
}

// The app's own proof passes whichever way its namespace names it.
func TestNamespaceNamingTheAppPasses(t *testing.T) {
	now := time.Now()
	auth, err := NewDemoAuthority(now)
	if err != nil {
		t.Fatal(err)
	}
	opts := Options{Roots: []Root{auth.Root()}, App: "policy-engine"}
	for _, ns := range []string{"policy-engine", "preprod/policy-engine", "preprod/policy-engine/"} {
		rep := VerifyBootProof(namespaceEnclave(t, auth, ns, "policy-engine", now), opts)
		if rep.Verdict != Verified || rep.Check(CheckApp).Status != Pass {
			t.Errorf("namespace %q as policy-engine: %s", ns, dump(rep))
		}
		// The label still has to agree: it picks the pins the console applies.
		rep = VerifyBootProof(namespaceEnclave(t, auth, ns, "signer", now), opts)
		if !slices.Equal(rep.FailedChecks(), []string{CheckApp}) {
			t.Errorf("namespace %q labelled signer, asked policy-engine: %s", ns, dump(rep))
		}
	}
}
