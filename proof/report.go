// Package proof verifies enclave boot proofs (AWS Nitro attestation documents that
// commit to a QuorumOS manifest) and the app proofs signed by the attested enclave
// key (DESIGN.md §5). Every byte it reads is treated as hostile: decoding errors
// become failed checks with reasons, never panics.
package proof

import (
	"encoding/hex"
	"encoding/json"
	"time"
)

// Status is the outcome of one check.
type Status string

const (
	Pass          Status = "pass"
	Fail          Status = "fail"
	NotApplicable Status = "n/a"
)

// Verdict summarises a report.
//
//   - VERIFIED: no check failed and every core check (cose-signature, cert-chain, user-data, public-key,
//     manifest-decode, pcrs, approvals) passed.
//   - PARTIAL: no check failed, but at least one core check was not applicable
//     because its input was absent (for example a bare attestation document with
//     no manifest, or a boot proof without a manifest envelope). What did run
//     passed; what the missing input would have bound was not checked. Also
//     PARTIAL: an app proof checked against an activity (Options.Activity)
//     whose payload names no activity, so it cannot be tied to it.
//   - FAILED: at least one check failed.
//
// Optional checks (pins, PCR17, app proofs) being not applicable never lowers
// VERIFIED to PARTIAL: they are N/A because nothing was configured or given.
type Verdict string

const (
	Verified Verdict = "VERIFIED"
	Partial  Verdict = "PARTIAL"
	Failed   Verdict = "FAILED"
)

// Stable check IDs.
const (
	CheckCOSE           = "cose-signature"
	CheckChain          = "cert-chain"
	CheckUserData       = "user-data"
	CheckPublicKey      = "public-key"
	CheckManifestDecode = "manifest-decode"
	CheckApp            = "app"
	CheckPCRs           = "pcrs"
	CheckApprovals      = "approvals"
	CheckPins           = "pins"
	CheckPCR17          = "pcr17"
	CheckAppProofs      = "app-proofs" // only when no app proof was given (N/A)
)

// coreChecks are the checks whose N/A status makes a report PARTIAL.
var coreChecks = []string{CheckCOSE, CheckChain, CheckUserData, CheckPublicKey, CheckManifestDecode, CheckPCRs, CheckApprovals}

// Check is one verification step.
type Check struct {
	ID     string `json:"id"`
	Name   string `json:"name"`
	Status Status `json:"status"`
	Reason string `json:"reason"`
}

// Report is the result of a verification. It is never nil.
type Report struct {
	Verdict      Verdict       `json:"verdict"`
	Checks       []Check       `json:"checks"`
	Document     *Document     `json:"document,omitempty"`
	Manifest     *Manifest     `json:"manifest,omitempty"`
	Anchor       string        `json:"anchor,omitempty"`
	DocumentTime time.Time     `json:"documentTime,omitzero"`
	Age          time.Duration `json:"age"`
	// Caveat says what a verdict that did not fail does not prove (no pins
	// set, or PCR pins only: PinCaveat); empty when there is nothing to add.
	Caveat string `json:"caveat,omitempty"`
	// Pins are the pins the pins check compared, each with its outcome;
	// empty when none is configured.
	Pins []PinResult `json:"pins,omitempty"`

	// unbound: an app proof was to be bound to an activity and its payload
	// names none (its binding check is N/A), so the verdict is at most PARTIAL.
	unbound bool
}

// Check returns the check with the given ID, or nil.
func (r *Report) Check(id string) *Check {
	for i := range r.Checks {
		if r.Checks[i].ID == id {
			return &r.Checks[i]
		}
	}
	return nil
}

// FailedChecks returns the IDs of the failed checks, in report order.
func (r *Report) FailedChecks() []string {
	var ids []string
	for _, c := range r.Checks {
		if c.Status == Fail {
			ids = append(ids, c.ID)
		}
	}
	return ids
}

func (r *Report) add(id, name string, st Status, reason string) {
	r.Checks = append(r.Checks, Check{ID: id, Name: name, Status: st, Reason: reason})
}

func (r *Report) finish() {
	r.Verdict = Verified
	for _, c := range r.Checks {
		if c.Status == Fail {
			r.Verdict = Failed
			return
		}
	}
	// Without a manifest pin the checks show a genuine enclave booted a
	// manifest its own quorum approved, not that it runs the code the user
	// expects.
	r.Caveat = r.PinCaveat()
	for _, id := range coreChecks {
		if c := r.Check(id); c == nil || c.Status != Pass {
			r.Verdict = Partial
		}
	}
	if r.unbound {
		r.Verdict = Partial
	}
}

// HexBytes is a byte string that prints as lowercase hex in JSON.
type HexBytes []byte

func (h HexBytes) String() string { return hex.EncodeToString(h) }

// MarshalJSON encodes the bytes as a hex string.
func (h HexBytes) MarshalJSON() ([]byte, error) { return json.Marshal(hex.EncodeToString(h)) }

// UnmarshalJSON decodes a hex string.
func (h *HexBytes) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	v, err := hex.DecodeString(s)
	if err != nil {
		return err
	}
	*h = v
	return nil
}

// Document is a decoded Nitro attestation document.
type Document struct {
	ModuleID    string           `json:"moduleId"`
	Timestamp   time.Time        `json:"timestamp"`
	Digest      string           `json:"digest"`
	PCRs        map[int]HexBytes `json:"pcrs"`
	UserData    HexBytes         `json:"userData,omitempty"`
	PublicKey   HexBytes         `json:"publicKey,omitempty"`
	Nonce       HexBytes         `json:"nonce,omitempty"`
	Certificate CertInfo         `json:"certificate"`
	CABundle    []CertInfo       `json:"cabundle"`
}

// CertInfo describes one certificate of the document.
type CertInfo struct {
	Subject   string    `json:"subject"`
	Issuer    string    `json:"issuer"`
	NotBefore time.Time `json:"notBefore"`
	NotAfter  time.Time `json:"notAfter"`
	SHA256    HexBytes  `json:"sha256"`
	Error     string    `json:"error,omitempty"`
}

// Manifest is a decoded QuorumOS manifest with the envelope's approvals.
type Manifest struct {
	Version     string      `json:"version"` // "v0", "v1" (Borsh) or "v2" (JSON)
	SHA256      HexBytes    `json:"sha256"`  // the manifest hash QOS commits to
	Namespace   Namespace   `json:"namespace"`
	Pivot       Pivot       `json:"pivot"`
	ManifestSet QuorumSet   `json:"manifestSet"`
	ShareSet    QuorumSet   `json:"shareSet"`
	PatchSet    *QuorumSet  `json:"patchSet,omitempty"`
	DNS         string      `json:"dns,omitempty"` // v2 only: compact JSON, approved with the manifest
	Enclave     NitroConfig `json:"enclave"`
	Approvals   []Approval  `json:"approvals,omitempty"`
	// ShareSetApprovals is a count only: vigil checks no share-set approval
	// (ShareSetApprovalsNote says so beside it, in --json too).
	ShareSetApprovals     int    `json:"shareSetApprovals"`
	ShareSetApprovalsNote string `json:"shareSetApprovalsNote,omitempty"`
}

// ShareSetApprovalsNote says, wherever the share-set approval count is shown,
// that it is not checked. QOS's share-set members approve the manifest when
// they provision their shares; the message they sign was not confirmed
// against a real proof (the production fixture has none), so vigil does not
// verify them and must not let the count read as verified approvals.
const ShareSetApprovalsNote = "not checked: vigil verifies neither their signatures nor their share-set membership"

// Namespace identifies the deployment the manifest belongs to.
type Namespace struct {
	Name      string   `json:"name"`
	Nonce     uint32   `json:"nonce"`
	QuorumKey HexBytes `json:"quorumKey"`
}

// Pivot is the application binary the enclave runs.
type Pivot struct {
	Hash      HexBytes `json:"hash"`
	Restart   string   `json:"restart"`
	Args      []string `json:"args"`
	DebugMode bool     `json:"debugMode,omitempty"` // QOS pivot debug_mode: output piping, see PivotDebugText
	Bridges   []string `json:"bridges,omitempty"`
	Env       string   `json:"env,omitempty"` // v2 only: compact JSON, approved with the manifest
}

// PivotDebugText says what a manifest's pivot debug_mode means, for displays.
// In QOS it only pipes the app's output out of the enclave for logging; it is
// not Nitro debug mode (PCR0 all zeros, where the host can read and change the
// enclave's memory), which the pcrs check refuses. So it fails no check, but
// the app's logs leave the enclave.
const PivotDebugText = "on — the app's output is piped out of the enclave for logging (QOS pivot debug_mode); not Nitro debug mode, which check pcrs refuses"

// QuorumSet is a threshold and its members.
type QuorumSet struct {
	Threshold uint32   `json:"threshold"`
	Members   []Member `json:"members"`
}

// Member is a quorum member; Alias is empty in the patch set.
type Member struct {
	Alias  string   `json:"alias,omitempty"`
	PubKey HexBytes `json:"pubKey"`
}

// NitroConfig holds the enclave measurements the manifest expects.
type NitroConfig struct {
	PCR0            HexBytes `json:"pcr0"`
	PCR1            HexBytes `json:"pcr1"`
	PCR2            HexBytes `json:"pcr2"`
	PCR3            HexBytes `json:"pcr3"`
	AWSRootCert     bool     `json:"awsRootCertificate"`         // present in the manifest
	AWSRootIsPinned bool     `json:"awsRootCertificateIsPinned"` // equals the built-in Root-G1
	QOSCommit       string   `json:"qosCommit"`
}

// Approval is one manifest-set approval from the envelope.
type Approval struct {
	Alias  string   `json:"alias"`
	PubKey HexBytes `json:"pubKey"`
	Valid  bool     `json:"valid"`  // signature verifies over the manifest hash
	Member bool     `json:"member"` // member of the manifest set
	Reason string   `json:"reason,omitempty"`
}
