package proof

// TestProofMutations: a seeded mutation fuzz with an oracle over genuine boot
// proofs and app proofs (the production fixture pair, and a demo enclave built
// here whose member, ephemeral and root keys the test holds). Two attacker
// models (the mutators are in mutation_shared_test.go):
//
//   - the service ("svc/…"): rewrites anything it ships (the boot proof's
//     fields, the envelope, the app proofs) but holds no key. Oracle: a verdict
//     that is not FAILED shows exactly the genuine facts (document, manifest,
//     approvals as a set, anchor, each passing app proof's payload and its
//     binding), unless the mutation is one that changes no meaning.
//   - the root ("doc/…", "doc-cbor/…"): re-signs the attestation payload under
//     the trusted demo root. Oracle: a verdict that is not FAILED still binds
//     the document to the manifest and key (user_data, public_key, PCR0–3,
//     PCR17 equal the genuine ones) and shows the genuine manifest.
//
// JSON v2 manifests have their own class, TestV2ManifestRespellingMutations
// (mutation_v2_test.go): the mutators here re-encode Borsh.
//
// VIGIL_PROOF_MUTATIONS sets the count (default 1000, a few seconds), VIGIL_PROOF_SEED
// the seed (default 202); the classes run in turn, each on a random case.

import (
	"bytes"
	"encoding/json"
	"fmt"
	mrand "math/rand/v2"
	"os"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/vigil-console/vigil/api"
)

// fzFacts is what a report shows, as text; approvals as a sorted set.
type fzFacts struct {
	Doc, Manifest, Approvals, Anchor string
	AppProofs                        []string // payload|binding status, for passing proofs
}

func fzFactsOf(rep *Report, aps []api.AppProof) fzFacts {
	var f fzFacts
	if rep.Document != nil {
		d := *rep.Document
		b, _ := json.Marshal(d)
		f.Doc = string(b)
	}
	if rep.Manifest != nil {
		m := *rep.Manifest
		var set []string
		for _, a := range m.Approvals {
			set = append(set, fmt.Sprintf("%q %x valid=%v member=%v", a.Alias, a.PubKey, a.Valid, a.Member))
		}
		sort.Strings(set)
		set = slices.Compact(set)
		f.Approvals = strings.Join(set, "\n")
		m.Approvals = nil
		b, _ := json.Marshal(m)
		f.Manifest = string(b)
	}
	f.Anchor = rep.Anchor
	for i, p := range aps {
		if c := rep.Check(fmt.Sprintf("app-proof[%d]", i)); c != nil && c.Status == Pass {
			var bind Status
			if c := rep.Check(BindingCheckID(i)); c != nil {
				bind = c.Status
			}
			f.AppProofs = append(f.AppProofs, p.ProofPayload+"|"+string(bind))
		}
	}
	sort.Strings(f.AppProofs)
	return f
}

type fzCase struct {
	name    string
	bp      api.BootProof
	aps     []api.AppProof
	opts    Options
	genuine fzFacts
	demo    *fzEnclave
}

// fzTally counts one class's runs: changed counts those that changed the
// input (a mutation that leaves it as it was tests nothing).
type fzTally struct{ runs, changed, failed, notFailed, violations int }

func TestProofMutations(t *testing.T) {
	n := 1000
	if s := os.Getenv("VIGIL_PROOF_MUTATIONS"); s != "" {
		var err error
		if n, err = strconv.Atoi(s); err != nil || n < len(fzMutations) {
			t.Fatalf("VIGIL_PROOF_MUTATIONS=%q: want a count of at least %d (one per class)", s, len(fzMutations))
		}
	}
	seed := uint64(202)
	if s := os.Getenv("VIGIL_PROOF_SEED"); s != "" {
		var err error
		if seed, err = strconv.ParseUint(s, 10, 64); err != nil {
			t.Fatalf("VIGIL_PROOF_SEED=%q: want an unsigned integer", s)
		}
	}
	rng := mrand.New(mrand.NewPCG(seed, seed^0x5eed))

	fbp, faps := fixturePair(t)
	now := time.Now().Truncate(time.Second)
	d := fzBuild(t, now)
	subj := &Subject{ActivityID: "act-1", Type: "ACTIVITY_TYPE_CREATE_USERS", OrganizationID: "org-1"}
	dp := []api.AppProof{
		d.appProof(t, `{"activityId":"act-1","type":"ACTIVITY_TYPE_CREATE_USERS","organizationId":"org-1"}`),
		d.appProof(t, `{"type":"APP_PROOF_TYPE_ADDRESS_DERIVATION","organizationId":"org-1","address":"0xabc"}`),
	}
	fixture := &fzCase{name: "fixture", bp: fbp, aps: faps, opts: Options{AppProofs: faps}}
	demo := &fzCase{name: "demo", bp: d.bp, aps: dp, demo: d,
		opts: Options{AppProofs: dp, Roots: []Root{d.auth.Root()}, Activity: subj, App: "signer", Now: now}}
	for _, c := range []*fzCase{fixture, demo} {
		rep := VerifyBootProof(c.bp, c.opts)
		if rep.Verdict == Failed {
			t.Fatalf("%s: genuine input fails: %s", c.name, dump(rep))
		}
		c.genuine = fzFactsOf(rep, c.aps)
	}

	tally := map[string]*fzTally{}
	violations := 0
	for i := range n {
		m := fzMutations[i%len(fzMutations)]
		c := demo
		if !m.demoOnly && rng.IntN(2) == 0 {
			c = fixture
		}
		bp, aps := c.bp, slices.Clone(c.aps)
		m.apply(t, rng, c, &bp, &aps)
		tl := tally[m.class]
		if tl == nil {
			tl = &fzTally{}
			tally[m.class] = tl
		}
		tl.runs++
		if bp != c.bp || !reflect.DeepEqual(aps, c.aps) {
			tl.changed++
		}
		opts := c.opts
		opts.AppProofs = aps
		rep := VerifyBootProof(bp, opts)
		if ic := rep.Check("internal"); ic != nil {
			t.Errorf("#%d %s %s: internal error: %s", i, c.name, m.class, ic.Reason)
		}
		if rep.Verdict == Failed {
			tl.failed++
			continue
		}
		tl.notFailed++
		// Every class is judged, meaning-preserving ones too: what a
		// respelt input shows must still be the genuine facts.
		bad := fzOracle(c, rep, aps, m.rootModel)
		if len(bad) == 0 {
			continue
		}
		tl.violations++
		violations++
		if violations <= 20 {
			t.Errorf("VIOLATION #%d seed=%d %s %s verdict %s:\n%s\n%s", i, seed, c.name, m.class, rep.Verdict, strings.Join(bad, "\n"), dump(rep))
		}
	}
	for _, m := range fzMutations {
		tl := tally[m.class]
		if tl == nil {
			tl = &fzTally{}
		}
		note := ""
		if m.preserving && tl.failed > 0 {
			note = " (meaning-preserving: each FAILED is a false alarm, not a miss)"
		}
		t.Logf("%-30s runs %4d changed %4d FAILED %4d not-failed %4d violations %d%s", m.class, tl.runs, tl.changed, tl.failed, tl.notFailed, tl.violations, note)
		// A class that stops changing its input would pass while testing nothing.
		if tl.changed == 0 {
			t.Errorf("mutation class %s never changed its input (%d runs)", m.class, tl.runs)
		}
	}
	if violations > 0 {
		t.Errorf("%d oracle violations (seed %d)", violations, seed)
	}
}

// fzOracle says how a not-FAILED report of a mutated input differs from what
// the genuine input shows; empty when it shows the genuine facts.
func fzOracle(c *fzCase, rep *Report, aps []api.AppProof, rootModel bool) []string {
	got := fzFactsOf(rep, aps)
	var bad []string
	if rootModel {
		// The document is the root's word; its binding to the manifest and key must hold.
		g, dd := c.demo.raw, rep.Document
		if dd == nil || !bytes.Equal(dd.UserData, g.UserData) || !bytes.Equal(dd.PublicKey, g.PublicKey) {
			bad = append(bad, "user_data/public_key changed")
		}
		for _, k := range []int{0, 1, 2, 3, livePCR} {
			if dd == nil || !bytes.Equal(dd.PCRs[k], g.PCRs[uint64(k)]) {
				bad = append(bad, fmt.Sprintf("PCR%d changed", k))
			}
		}
		if got.Manifest != c.genuine.Manifest || got.Approvals != c.genuine.Approvals || !slices.Equal(got.AppProofs, c.genuine.AppProofs) {
			bad = append(bad, "manifest/approvals/app proofs changed")
		}
		return bad
	}
	if got.Doc != c.genuine.Doc {
		bad = append(bad, "document:\n  got  "+got.Doc+"\n  want "+c.genuine.Doc)
	}
	if got.Manifest != c.genuine.Manifest {
		bad = append(bad, "manifest:\n  got  "+got.Manifest+"\n  want "+c.genuine.Manifest)
	}
	if got.Approvals != c.genuine.Approvals {
		bad = append(bad, "approvals:\n  got  "+got.Approvals+"\n  want "+c.genuine.Approvals)
	}
	if got.Anchor != c.genuine.Anchor {
		bad = append(bad, "anchor "+got.Anchor)
	}
	for _, p := range got.AppProofs {
		if !slices.Contains(c.genuine.AppProofs, p) {
			bad = append(bad, "app proof not genuine: "+p)
		}
	}
	return bad
}
