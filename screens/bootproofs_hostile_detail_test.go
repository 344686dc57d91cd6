package screens

import (
	"testing"
	"time"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/proof"
	"github.com/vigil-console/vigil/ui"
	"github.com/vigil-console/vigil/ui/theme"
)

// A boot proof that verifies may still carry terminal controls in every free
// string its manifest's author or the service chose (namespace, aliases,
// restart, args, bridges, env, dns, qos commit, module id, certificate names,
// labels, approval reasons): the Boot proofs detail shows each escaped.
func TestBootProofDetailEscapesEveryFreeString(t *testing.T) {
	const hostile = "\x1b]0;pwned\x07\x1b[31mpwned\u202e\u200b\u009b2J\r"
	key := proof.HexBytes(make([]byte, 130))
	members := []proof.Member{{Alias: "m0" + hostile, PubKey: key}, {Alias: hostile, PubKey: key}}
	set := proof.QuorumSet{Threshold: 2, Members: members}
	doc := &proof.Document{ModuleID: "mod" + hostile, Digest: "SHA384" + hostile, Timestamp: testNow,
		PCRs:        map[int]proof.HexBytes{0: make([]byte, 48)},
		Certificate: proof.CertInfo{Subject: "cn" + hostile, Issuer: "is" + hostile}}
	m := &proof.Manifest{Version: "v2" + hostile, Namespace: proof.Namespace{Name: "ns" + hostile + "/signer"},
		Pivot:       proof.Pivot{Restart: "Always" + hostile, Args: []string{"--x" + hostile}, Bridges: []string{hostile}, Env: `{"K":"` + hostile + `"}`, DebugMode: true},
		ManifestSet: set, ShareSet: set, PatchSet: &set, DNS: hostile,
		Enclave:   proof.NitroConfig{QOSCommit: "c" + hostile},
		Approvals: []proof.Approval{{Alias: "m0" + hostile, PubKey: key, Valid: true, Member: true}, {Alias: hostile, PubKey: key, Reason: "bad" + hostile}}}
	rep := &proof.Report{Verdict: proof.Verified, Document: doc, Manifest: m, Anchor: "demo root: " + hostile, DocumentTime: testNow,
		Checks: []proof.Check{{ID: "app" + hostile, Name: "n" + hostile, Status: proof.Pass, Reason: "r" + hostile}}}
	bp := &api.BootProof{EnclaveApp: "signer" + hostile, Owner: "o" + hostile, DeploymentLabel: "l" + hostile, CreatedAt: api.NewTime(testNow)}
	for _, opts := range []theme.Options{{Dark: true, NoColor: true}, {Dark: true}} {
		th := theme.New(opts)
		w := &reportWriter{db: ui.NewDetailBuilder(th), th: th, now: testNow.Add(time.Minute)}
		w.verdict(appBootProof{app: "signer" + hostile, proof: bp, report: rep})
		w.checks(rep)
		w.anchor(rep)
		w.document(rep.Document)
		w.manifest(rep.Manifest)
		w.approvals(rep.Manifest)
		w.labels(bp)
		checkClean(t, "boot proof detail", w.db.String())
	}
}
