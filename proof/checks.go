package proof

import (
	"bytes"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/hex"
	"fmt"
	"slices"
	"strings"

	"github.com/vigil-console/vigil/api"
)

// AppProofScheme is the only app-proof signature scheme there is.
const AppProofScheme = "SIGNATURE_SCHEME_EPHEMERAL_KEY_P256"

// The PCRs of QOS's manifest commitments and their domain strings
// (tkhq/qos src/qos_nsm/src/nitro/mod.rs:47-65): at boot QOS extends PCR16
// with a commitment to the manifest and the boot-time setup key and PCR17
// with one to the manifest and the live key, then locks all 32 PCRs
// (src/qos_core/src/protocol/services/attestation.rs:39-101).
const (
	setupPCR       = 16
	setupDomain    = "qos-setup-manifest-pcr-commitment-v1"
	livePCR        = 17
	liveDomain     = "qos-live-manifest-pcr-commitment-v1"
	attestablePCRs = 32
)

// pcrCheck compares PCR0–3 with the manifest and refuses debug-mode documents.
func (v *verifier) pcrCheck(m *Manifest) {
	rep := v.rep
	if v.att == nil {
		rep.add(CheckPCRs, namePCRs, Fail, "cannot check: "+v.attErr.Error())
		return
	}
	pcrs := v.att.doc.PCRs
	if p0, ok := pcrs[0]; ok && isZero(p0) {
		rep.add(CheckPCRs, namePCRs, Fail, "PCR0 is all zeros: the enclave runs in debug mode, where the host can read and change its memory, so this attestation proves nothing about the code running")
		return
	}
	if _, ok := pcrs[0]; !ok && m == nil {
		// A Nitro document always carries PCR0; without it nothing tells
		// this document from a debug-mode one, so it is not passed over as
		// not applicable. (With a manifest, the comparison below says so.)
		rep.add(CheckPCRs, namePCRs, Fail, "PCR0 is missing from the document: whether the enclave runs in debug mode (PCR0 all zeros) cannot be told, so this attestation proves nothing about the code running")
		return
	}
	if m == nil {
		if rep.Check(CheckManifestDecode).Status == NotApplicable {
			rep.add(CheckPCRs, namePCRs, NotApplicable, "no manifest given to compare PCR0–3 with (the document is not in debug mode)")
		} else {
			rep.add(CheckPCRs, namePCRs, Fail, "cannot check: the manifest did not decode")
		}
		return
	}
	var bad []string
	for i, want := range []HexBytes{m.Enclave.PCR0, m.Enclave.PCR1, m.Enclave.PCR2, m.Enclave.PCR3} {
		got, ok := pcrs[i]
		switch {
		case !ok:
			bad = append(bad, fmt.Sprintf("PCR%d is missing from the document", i))
		case !bytes.Equal(got, want):
			bad = append(bad, fmt.Sprintf("PCR%d is %s, the manifest expects %s", i, hexOrNone(got), hexOrNone(want)))
		}
	}
	if len(bad) > 0 {
		rep.add(CheckPCRs, namePCRs, Fail, strings.Join(bad, "; "))
		return
	}
	rep.add(CheckPCRs, namePCRs, Pass, "PCR0–3 equal the manifest's enclave measurements")
}

// attestedManifestHash is the manifest hash the verifier trusts most: the
// document's user_data when there is a document, else the manifest's own hash.
func (v *verifier) attestedManifestHash(m *Manifest) []byte {
	if v.att != nil {
		return v.att.raw.UserData
	}
	if m != nil {
		return m.SHA256
	}
	return nil
}

// approvalCheck verifies the envelope's manifest-set approvals: each a P-256
// signature (64-byte r‖s over SHA-256 of the 32-byte manifest hash) by the
// signing half of a manifest-set member's key, at least threshold distinct members,
// over the manifest the document attests.
func (v *verifier) approvalCheck(env *envelope, envErr error, shown *Manifest) {
	rep := v.rep
	if env == nil {
		rep.add(CheckApprovals, nameApprovals, Fail, "cannot check: "+envErr.Error())
		return
	}
	hash := env.manifest.SHA256
	want := v.attestedManifestHash(shown)
	if !bytes.Equal(hash, want) {
		rep.add(CheckApprovals, nameApprovals, Fail, fmt.Sprintf("the envelope approves manifest %s, but the attested manifest is %s", hex.EncodeToString(hash), hexOrNone(want)))
		return
	}
	set := env.manifest.ManifestSet
	// Membership is a map lookup, and only a member's signature is checked:
	// the cheap checks come before the P-256 verification.
	members := make(map[memberKey]bool, len(set.Members))
	for _, m := range set.Members {
		members[memberKey{m.Alias, string(m.PubKey)}] = true
	}
	// seen counts signers by the signing half, the key each signature is checked
	// with: two members sharing it are one signer, not two.
	seen := map[string]bool{}
	var approvals []Approval
	problems := memberProblems(set.Members)
	// approvedBy is the approval (1-based) that first named each member: QOS
	// refuses an envelope with a second one (DuplicateApproval).
	approvedBy := map[memberKey]int{}
	for i, a := range env.approvals {
		ap := Approval{Alias: a.member.Alias, PubKey: a.member.PubKey}
		mk := memberKey{a.member.Alias, string(a.member.PubKey)}
		ap.Member = members[mk]
		if !ap.Member {
			ap.Reason = "signer is not a manifest-set member (signature not checked)"
			problems = append(problems, fmt.Sprintf("approval %d (%q) is not from a manifest-set member", i+1, clip(a.member.Alias)))
			approvals = append(approvals, ap)
			continue
		}
		if first, ok := approvedBy[mk]; ok {
			ap.Reason = fmt.Sprintf("a second approval by the member of approval %d (signature not checked)", first)
			problems = append(problems, fmt.Sprintf("approval %d: member %q approved twice (approvals %d and %d); QOS refuses an envelope with a duplicate approval", i+1, clip(a.member.Alias), first, i+1))
			approvals = append(approvals, ap)
			continue
		}
		approvedBy[mk] = i + 1
		key, err := qosSigningKey(a.member.PubKey)
		if err == nil {
			err = verifyP256(key, hash, a.signature)
		}
		if err != nil {
			ap.Reason = err.Error()
			problems = append(problems, fmt.Sprintf("approval %d (%q): %v", i+1, clip(a.member.Alias), err))
		} else {
			ap.Valid = true
			seen[string(a.member.PubKey[qosPublicKeyLen/2:])] = true
		}
		approvals = append(approvals, ap)
	}
	if shown != nil {
		shown.Approvals = approvals
		shown.ShareSetApprovals = env.shareApprovals
		shown.ShareSetApprovalsNote = ShareSetApprovalsNote
	}
	n := len(seen)
	switch {
	case set.Threshold == 0:
		rep.add(CheckApprovals, nameApprovals, Fail, "the manifest set's threshold is 0, so no approval is required: not a quorum")
	case len(problems) > 0:
		rep.add(CheckApprovals, nameApprovals, Fail, joinFirst(problems, maxProblemsListed))
	case n < int(set.Threshold):
		rep.add(CheckApprovals, nameApprovals, Fail, fmt.Sprintf("%d valid approvals from distinct members (each with its own signing key), the threshold is %d of %d", n, set.Threshold, len(set.Members)))
	default:
		rep.add(CheckApprovals, nameApprovals, Pass, fmt.Sprintf("%d valid approvals from distinct manifest-set members, each with its own signing key, threshold %d of %d", n, set.Threshold, len(set.Members)))
	}
}

// memberProblems lists what makes a manifest set one QOS refuses
// (ensure_unique_members, boot.rs), naming the members:
//   - a key that is not a 130-byte QOS key of two P-256 points: the member
//     can sign no approval, so "threshold t of n" would overstate who can
//     approve, whether or not the member approved;
//   - two members with one alias: their approvals are shown alike, so nobody
//     can tell which operator approved;
//   - two members sharing a signing half (bytes 65..130): one key could meet a
//     threshold meant for distinct operators;
//   - two members sharing an encryption half.
func memberProblems(members []Member) []string {
	var problems []string
	alias := make(map[string]int, len(members))
	signing := make(map[string]string, len(members))
	encryption := make(map[string]string, len(members))
	for i, m := range members {
		if first, ok := alias[m.Alias]; ok {
			problems = append(problems, fmt.Sprintf("manifest-set members %d and %d are both named %q, so their approvals cannot be told apart", first+1, i+1, clip(m.Alias)))
		} else {
			alias[m.Alias] = i
		}
		if len(m.PubKey) != qosPublicKeyLen {
			problems = append(problems, fmt.Sprintf("manifest-set member %q has a malformed key (%d bytes, not a %d-byte QOS key)", clip(m.Alias), len(m.PubKey), qosPublicKeyLen))
			continue
		}
		if _, err := qosSigningKey(m.PubKey); err != nil {
			problems = append(problems, fmt.Sprintf("manifest-set member %q has a malformed key (%v): it can sign no approval", clip(m.Alias), err))
		}
		sign, enc := string(m.PubKey[qosPublicKeyLen/2:]), string(m.PubKey[:qosPublicKeyLen/2])
		if other, ok := signing[sign]; ok {
			problems = append(problems, fmt.Sprintf("manifest-set members %q and %q share one signing key (%s…), so they are one signer and cannot count as two approvals",
				clip(other), clip(m.Alias), hex.EncodeToString(m.PubKey[qosPublicKeyLen/2:qosPublicKeyLen/2+8])))
		} else {
			signing[sign] = m.Alias
		}
		if other, ok := encryption[enc]; ok {
			problems = append(problems, fmt.Sprintf("manifest-set members %q and %q share one encryption key (%s…); QOS refuses a set whose members share a key",
				clip(other), clip(m.Alias), hex.EncodeToString(m.PubKey[:8])))
		} else {
			encryption[enc] = m.Alias
		}
	}
	return problems
}

// memberKey identifies a quorum-set member: an approval counts only when both
// its alias and its key are a member's.
type memberKey struct{ alias, pubKey string }

// maxProblemsListed is how many problems a reason lists before it counts the
// rest: a hostile envelope's every approval can fail.
const maxProblemsListed = 5

// joinFirst joins the first n problems and says how many more there are.
func joinFirst(problems []string, n int) string {
	if len(problems) <= n {
		return strings.Join(problems, "; ")
	}
	return fmt.Sprintf("%s; … and %d more", strings.Join(problems[:n], "; "), len(problems)-n)
}

// pinCheck compares the document with the configured expected PCRs and allowed
// manifest hashes, and the manifest with the pinned pivot hash, manifest set
// and quorum key (contentPins). Each pin goes to Report.Pins; the check's
// reason names every pin, the failed ones first.
func (v *verifier) pinCheck(m *Manifest) {
	rep := v.rep
	if len(v.opts.ExpectedPCRs) == 0 && len(v.opts.AllowedManifestHashes) == 0 && !v.opts.contentPinsSet() {
		rep.add(CheckPins, namePins, NotApplicable, "no pins configured (expected PCRs, manifest hashes, pivot hash, manifest set, quorum key)")
		return
	}
	if v.att == nil {
		rep.add(CheckPins, namePins, Fail, "cannot check: "+v.attErr.Error())
		return
	}
	var pins []PinResult
	idx := make([]int, 0, len(v.opts.ExpectedPCRs))
	for i := range v.opts.ExpectedPCRs {
		idx = append(idx, i)
	}
	slices.Sort(idx)
	for _, i := range idx {
		want := v.opts.ExpectedPCRs[i]
		got, ok := v.att.doc.PCRs[i]
		p := PinResult{Pin: fmt.Sprintf("pcr%d", i), Status: Pass, Reason: fmt.Sprintf("PCR%d is pinned", i)}
		switch {
		case !ok:
			p.Status, p.Reason = Fail, fmt.Sprintf("PCR%d is pinned but missing from the document", i)
		case !bytes.Equal(got, want):
			p.Status, p.Reason = Fail, fmt.Sprintf("PCR%d is %s, pinned %s", i, hexOrNone(got), hexOrNone(want))
		}
		pins = append(pins, p)
	}
	if len(v.opts.AllowedManifestHashes) > 0 {
		h := v.attestedManifestHash(m)
		p := PinResult{Pin: PinManifestHash, Status: Pass, Reason: "manifest hash " + hexOrNone(h) + " is allowed"}
		if !slices.ContainsFunc(v.opts.AllowedManifestHashes, func(a []byte) bool { return bytes.Equal(a, h) }) {
			p.Status, p.Reason = Fail, fmt.Sprintf("manifest hash %s is not among the %d allowed", hexOrNone(h), len(v.opts.AllowedManifestHashes))
		}
		pins = append(pins, p)
	}
	pins = append(pins, v.contentPins(m)...)
	rep.Pins = pins
	var bad, good []string
	for _, p := range pins {
		if p.Status == Fail {
			bad = append(bad, p.Reason)
		} else {
			good = append(good, p.Pin)
		}
	}
	if len(bad) > 0 {
		reason := strings.Join(bad, "; ")
		if len(good) > 0 {
			reason += " (matched: " + strings.Join(good, ", ") + ")"
		}
		rep.add(CheckPins, namePins, Fail, reason)
		return
	}
	rep.add(CheckPins, namePins, Pass, strings.Join(good, ", ")+" match the configured pins")
}

// LiveManifestCommitment is the value QOS extends into PCR17 of a live enclave:
// SHA-384(48 zero bytes ‖ SHA-384(preimage)), where the preimage is the canonical
// JSON {"domain","ephemeralPublicKey","manifestHash"} with lowercase hex values.
func LiveManifestCommitment(manifestHash, ephemeralPublicKey []byte) []byte {
	return manifestCommitment(liveDomain, manifestHash, ephemeralPublicKey)
}

// SetupManifestCommitment is the value QOS extends into PCR16 at boot: the
// same construction as LiveManifestCommitment with the setup domain.
func SetupManifestCommitment(manifestHash, setupPublicKey []byte) []byte {
	return manifestCommitment(setupDomain, manifestHash, setupPublicKey)
}

// manifestCommitment is qos_nsm's manifest_pcr_commitment (mod.rs:119-147)
// extended into a zero PCR (pcr_extend_sha384).
func manifestCommitment(domain string, manifestHash, publicKey []byte) []byte {
	pre := `{"domain":"` + domain + `","ephemeralPublicKey":"` + hex.EncodeToString(publicKey) +
		`","manifestHash":"` + hex.EncodeToString(manifestHash) + `"}`
	c := sha512.Sum384([]byte(pre))
	ext := sha512.Sum384(append(make([]byte, 48), c[:]...))
	return ext[:]
}

// pcr17Check verifies a manifest commitment on documents with PCRs past
// PCR15 (QOS's have 32): the live one
// (PCR17), which a document carrying the live key has, or else the setup one
// (PCR16), which the boot attestation carrying the setup key has. QOS's
// verifier accepts either, whichever kind it asks for
// (verify_attestation_doc_against_manifest_setup and _live, mod.rs:263-290).
// A setup document's key is not the live key that signs app proofs: the
// reference verifier of app proofs checks only the live commitment (tkhq/
// rust-sdk proofs/src/lib.rs:437), so appProofChecks fails app proofs
// against such a document.
func (v *verifier) pcr17Check() {
	rep := v.rep
	if v.att == nil {
		rep.add(CheckPCR17, namePCR17, Fail, "cannot check: "+v.attErr.Error())
		return
	}
	// N/A only on a document with no PCR past PCR15 (Nitro's 16-PCR form):
	// judged by the count, one of 17 to 31 PCRs would skip a PCR17 that
	// commits to nothing here, or is missing.
	if !hasPCRFrom(v.att.doc.PCRs, setupPCR) {
		rep.add(CheckPCR17, namePCR17, NotApplicable, fmt.Sprintf("the document has %d PCRs; the live-manifest commitment is only in 32-PCR documents", len(v.att.doc.PCRs)))
		return
	}
	ud, pk := v.att.raw.UserData, v.att.raw.PublicKey
	if len(ud) != 32 || len(pk) != qosPublicKeyLen {
		rep.add(CheckPCR17, namePCR17, Fail, fmt.Sprintf("user_data (%d bytes) and public_key (%d bytes) must be 32 and 130 bytes to form the commitment", len(ud), len(pk)))
		return
	}
	want := LiveManifestCommitment(ud, pk)
	if bytes.Equal(v.att.doc.PCRs[livePCR], want) {
		rep.add(CheckPCR17, namePCR17, Pass, "live attestation: PCR17 commits to the attested manifest hash and ephemeral key")
		return
	}
	if bytes.Equal(v.att.doc.PCRs[setupPCR], SetupManifestCommitment(ud, pk)) {
		v.setupAttestation = true
		rep.add(CheckPCR17, namePCR17, Pass, "setup attestation: PCR16 commits to the attested manifest hash and this document's key, the boot-time setup key; it is not the live key that signs app proofs")
		return
	}
	rep.add(CheckPCR17, namePCR17, Fail, fmt.Sprintf("neither commitment is to this manifest and key: PCR17 is %s, the live commitment would be %s; PCR16 is %s, the setup commitment would be %s",
		hexOrNone(v.att.doc.PCRs[livePCR]), hex.EncodeToString(want), hexOrNone(v.att.doc.PCRs[setupPCR]), hex.EncodeToString(SetupManifestCommitment(ud, pk))))
}

// hasPCRFrom reports whether pcrs holds any PCR numbered first or higher.
func hasPCRFrom(pcrs map[int]HexBytes, first int) bool {
	for i := range pcrs {
		if i >= first {
			return true
		}
	}
	return false
}

// appProofChecks verifies each app proof against the attested ephemeral key
// (the document's public_key). When the document did not decode, no key is
// attested: the boot proof's advertised key is the service's word alone, so
// every app proof fails rather than pass as signed by an attested key.
func (v *verifier) appProofChecks() {
	rep := v.rep
	if len(v.opts.AppProofs) == 0 {
		rep.add(CheckAppProofs, nameAppProof, NotApplicable, "no app proofs given")
		return
	}
	var key []byte
	if v.att != nil {
		key = v.att.raw.PublicKey
	}
	for i, p := range v.opts.AppProofs {
		id := fmt.Sprintf("app-proof[%d]", i)
		if v.att == nil {
			rep.add(id, nameAppProof, Fail, "cannot be checked: the attestation document did not decode, so no ephemeral key is attested (the boot proof's own key is only the service's word)")
		} else if v.setupAttestation {
			rep.add(id, nameAppProof, Fail, "the document is a setup attestation (PCR16): its key is the enclave's boot-time setup key, not the live key that signs app proofs; check app proofs against a live attestation (PCR17)")
		} else if err := checkAppProof(p, key); err != nil {
			rep.add(id, nameAppProof, Fail, err.Error())
		} else {
			rep.add(id, nameAppProof, Pass, "signed by the attested ephemeral key over the payload as received")
		}
		st, reason := BindAppProof(p, v.opts.Activity)
		rep.add(BindingCheckID(i), nameBinding, st, reason)
		// A proof that cannot be tied to the activity asked about proves less
		// than VERIFIED says, though nothing failed.
		if st == NotApplicable && v.opts.Activity != nil {
			rep.unbound = true
		}
	}
}

func checkAppProof(p api.AppProof, attested []byte) error {
	if p.Scheme != AppProofScheme {
		return fmt.Errorf("scheme is %q, want %s", clip(p.Scheme), AppProofScheme)
	}
	pub, err := hex.DecodeString(strings.TrimPrefix(p.PublicKey, "0x"))
	if err != nil {
		return fmt.Errorf("publicKey is not hex")
	}
	key, err := qosSigningKey(pub)
	if err != nil {
		return fmt.Errorf("publicKey: %w", err)
	}
	if len(attested) == 0 {
		return fmt.Errorf("there is no attested ephemeral key to compare with")
	}
	if !bytes.Equal(pub, attested) {
		return fmt.Errorf("publicKey is not the boot proof's attested ephemeral key: this proof was made by another enclave")
	}
	sig, err := hex.DecodeString(strings.TrimPrefix(p.Signature, "0x"))
	if err != nil {
		return fmt.Errorf("signature is not hex")
	}
	if err := verifyP256(key, []byte(p.ProofPayload), sig); err != nil {
		return fmt.Errorf("signature over the payload: %w", err)
	}
	return nil
}

// sha256Sum is a small helper for tests and the demo.
func sha256Sum(b []byte) []byte { s := sha256.Sum256(b); return s[:] }

// appCheck compares the app asked for with the app the proof is for: the
// attested one (the namespace's last segment, "preprod/signer" for the
// production signer, or a flat namespace itself) and the service's label
// enclaveApp (not attested). Either naming another app fails: an unpinned
// verification passes for any enclave, so the attested name is what ties the
// proof to the app, and a namespace naming none fails too (the label alone
// would let another app's genuine proof, relabelled, pass).
func (v *verifier) appCheck(label string, m *Manifest) {
	rep, want := v.rep, v.opts.App
	if want == "" {
		rep.add(CheckApp, nameApp, NotApplicable, "no app name given to compare with")
		return
	}
	if m == nil {
		rep.add(CheckApp, nameApp, Fail, "cannot check: the manifest, whose namespace names the app, did not decode")
		return
	}
	attested := namespaceApp(m.Namespace.Name)
	switch {
	case attested == "":
		rep.add(CheckApp, nameApp, Fail, fmt.Sprintf("cannot tie this proof to app %q: the attested manifest namespace %q names no app, and the service's label enclaveApp is not attested", clip(want), clip(m.Namespace.Name)))
	case attested != want:
		rep.add(CheckApp, nameApp, Fail, fmt.Sprintf("this proof is for app %q, not %q: the attested manifest namespace is %q", clip(attested), clip(want), clip(m.Namespace.Name)))
	case label != want:
		rep.add(CheckApp, nameApp, Fail, fmt.Sprintf("this proof is for app %q, not %q, says the service's label enclaveApp (not attested)", clip(label), clip(want)))
	default:
		rep.add(CheckApp, nameApp, Pass, fmt.Sprintf("the attested manifest namespace %q names app %q, as does the service's label", clip(m.Namespace.Name), clip(want)))
	}
}

// namespaceApp is the app a QOS namespace names: its last non-empty "/"
// segment ("preprod/signer" and "preprod/signer/" → "signer"), the namespace
// itself when flat ("signer"), or "" when it is empty or only slashes.
func namespaceApp(ns string) string {
	ns = strings.TrimRight(ns, "/")
	return ns[strings.LastIndexByte(ns, '/')+1:]
}
