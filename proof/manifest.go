package proof

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/vigil-console/vigil/api"
)

// maxManifestSize bounds a manifest or envelope; real ones are a few KiB.
const maxManifestSize = 1 << 20

// maxSetMembers bounds the members of a quorum set and the approvals of an
// envelope. Real QOS sets are a handful of operators (2-of-2 in production);
// bounded only by the bytes, a hostile 1 MiB manifest holds 100k members and
// costs seconds to check and to show.
const maxSetMembers = 64

// MaxSetMembers is maxSetMembers for the packages that read pins of a
// manifest set (profile.MaxManifestSetMembers must equal it).
const MaxSetMembers = maxSetMembers

// envelope is a decoded QOS manifest envelope.
type envelope struct {
	manifest       *Manifest
	manifestBytes  []byte // the exact bytes the manifest hash covers
	approvals      []rawApproval
	shareApprovals int
}

type rawApproval struct {
	signature []byte
	member    Member
}

// isJSONVersion reports whether qosManifestVersion names the JSON schema (v2).
func isJSONVersion(v string) bool {
	v = strings.ToLower(strings.TrimSpace(v))
	return strings.HasSuffix(v, "v2") || v == "2"
}

// isJSON reports whether manifest or envelope bytes are read as JSON v2:
// qosManifestVersion says so, or they are a JSON object. A first byte of '{'
// is not enough: a Borsh manifest whose namespace name is 123 bytes long
// (or 379, …) starts with it too.
func isJSON(b []byte, jsonV2 bool) bool {
	return jsonV2 || (len(b) > 0 && b[0] == '{' && json.Valid(b))
}

// decodeManifest decodes a QOS manifest in the form manifestFormOf picks:
// JSON v2, QOS's JSON storage form of v1/v0, or Borsh read as both v1 and
// v0, refused when both readings succeed (readBorshVersions).
func decodeManifest(b []byte, jsonV2 bool) (*Manifest, error) {
	if len(b) == 0 {
		return nil, errors.New("manifest is empty")
	}
	if len(b) > maxManifestSize {
		return nil, fmt.Errorf("manifest is %d bytes, over the %d-byte limit", len(b), maxManifestSize)
	}
	switch manifestFormOf(b, jsonV2) {
	case formJSONLegacy:
		m, _, err := decodeManifestLegacyJSON(b)
		return m, err
	case formJSONV2:
		m, _, err := decodeManifestJSON(b)
		return m, err
	}
	return readBorshVersions("manifest", b, decodeManifestBorsh)
}

func decodeManifestBorsh(b []byte, v1 bool) (*Manifest, error) {
	r := &borshReader{b: b}
	m, err := readManifest(r, v1)
	if err != nil {
		return nil, err
	}
	if r.remaining() != 0 {
		return nil, fmt.Errorf("%d unexpected bytes after the manifest", r.remaining())
	}
	if r.over != nil {
		return nil, r.over
	}
	sum := sha256.Sum256(b)
	m.SHA256 = sum[:]
	return m, nil
}

func readManifest(r *borshReader, v1 bool) (*Manifest, error) {
	m := &Manifest{Version: "v0"}
	if v1 {
		m.Version = "v1"
	}
	var err error
	if m.Namespace.Name, err = r.str("namespace.name"); err != nil {
		return nil, err
	}
	if m.Namespace.Nonce, err = r.u32("namespace.nonce"); err != nil {
		return nil, err
	}
	if m.Namespace.QuorumKey, err = r.bytes("namespace.quorum_key"); err != nil {
		return nil, err
	}
	if m.Pivot.Hash, err = r.fixed("pivot.hash", 32); err != nil {
		return nil, err
	}
	restart, err := r.u8("pivot.restart")
	if err != nil {
		return nil, err
	}
	switch restart {
	case 0:
		m.Pivot.Restart = "Never"
	case 1:
		m.Pivot.Restart = "Always"
	default:
		return nil, r.fail("pivot.restart", fmt.Errorf("unknown restart policy %d", restart))
	}
	if v1 {
		if m.Pivot.Bridges, err = readBridges(r); err != nil {
			return nil, err
		}
		if m.Pivot.DebugMode, err = r.boolean("pivot.debug_mode"); err != nil {
			return nil, err
		}
	}
	if m.Pivot.Args, err = readArgs(r); err != nil {
		return nil, err
	}
	if m.ManifestSet, err = readQuorumSet(r, "manifest_set", true); err != nil {
		return nil, err
	}
	if m.ShareSet, err = readQuorumSet(r, "share_set", true); err != nil {
		return nil, err
	}
	if m.Enclave, err = readNitroConfig(r); err != nil {
		return nil, err
	}
	patch, err := readQuorumSet(r, "patch_set", false)
	if err != nil {
		return nil, err
	}
	m.PatchSet = &patch
	return m, nil
}

func readBridges(r *borshReader) ([]string, error) {
	n, err := r.count("pivot.bridge_config", 3)
	if err != nil {
		return nil, err
	}
	if n > maxBridges {
		r.overLimit("pivot.bridge_config", tooManyPivot(n, maxBridges, "bridges"))
	}
	out := []string{}
	for i := 0; i < n; i++ {
		what := fmt.Sprintf("pivot.bridge_config[%d]", i)
		tag, err := r.u8(what)
		if err != nil {
			return nil, err
		}
		port, err := r.u16(what + ".port")
		if err != nil {
			return nil, err
		}
		switch tag {
		case 0:
			host, err := r.str(what + ".host")
			if err != nil {
				return nil, err
			}
			if len(out) < maxBridges {
				out = append(out, fmt.Sprintf("server %s:%d", host, port))
			}
		case 1:
			some, err := r.u8(what + ".host")
			if err != nil {
				return nil, err
			}
			host := "(transparent)"
			switch some {
			case 0:
			case 1:
				if host, err = r.str(what + ".host"); err != nil {
					return nil, err
				}
			default:
				return nil, r.fail(what, fmt.Errorf("option tag %d", some))
			}
			if len(out) < maxBridges {
				out = append(out, fmt.Sprintf("client %s:%d", host, port))
			}
		default:
			return nil, r.fail(what, fmt.Errorf("unknown bridge kind %d", tag))
		}
	}
	return out, nil
}

func readQuorumSet(r *borshReader, what string, withAlias bool) (QuorumSet, error) {
	var s QuorumSet
	var err error
	if s.Threshold, err = r.u32(what + ".threshold"); err != nil {
		return s, err
	}
	minElem := 4
	if withAlias {
		minElem = 8
	}
	n, err := r.count(what+".members", minElem)
	if err != nil {
		return s, err
	}
	if n > maxSetMembers {
		r.overLimit(what+".members", tooMany(n, "members"))
	}
	s.Members = []Member{}
	for i := 0; i < n; i++ {
		var mem Member
		w := fmt.Sprintf("%s.members[%d]", what, i)
		if withAlias {
			if mem.Alias, err = r.str(w + ".alias"); err != nil {
				return s, err
			}
		}
		if mem.PubKey, err = r.bytes(w + ".pub_key"); err != nil {
			return s, err
		}
		if len(s.Members) < maxSetMembers {
			s.Members = append(s.Members, mem)
		}
	}
	return s, nil
}

// tooMany is the error for a set or an approval list over maxSetMembers.
func tooMany(n int, noun string) error {
	return &limitError{fmt.Sprintf("%d %s, over the limit of %d (real QOS sets have a handful)", n, noun, maxSetMembers)}
}

// checkSetSizes bounds the sets of a manifest read from JSON
// (decodeManifestJSON), as readQuorumSet bounds them in Borsh.
func (m *Manifest) checkSetSizes() error {
	sets := []struct {
		name string
		set  *QuorumSet
	}{{"manifestSet", &m.ManifestSet}, {"shareSet", &m.ShareSet}, {"patchSet", m.PatchSet}}
	for _, s := range sets {
		if s.set != nil && len(s.set.Members) > maxSetMembers {
			return fmt.Errorf("manifest JSON v2: %s: %w", s.name, tooMany(len(s.set.Members), "members"))
		}
	}
	return nil
}

func readNitroConfig(r *borshReader) (NitroConfig, error) {
	var c NitroConfig
	var err error
	for i, p := range []*HexBytes{&c.PCR0, &c.PCR1, &c.PCR2, &c.PCR3} {
		if *p, err = r.bytes(fmt.Sprintf("enclave.pcr%d", i)); err != nil {
			return c, err
		}
	}
	root, err := r.bytes("enclave.aws_root_certificate")
	if err != nil {
		return c, err
	}
	c.AWSRootCert = len(root) > 0
	if aws, err := awsRoot(); err == nil && len(root) > 0 {
		c.AWSRootIsPinned = bytes.Equal(root, aws.Cert.Raw)
	}
	if c.QOSCommit, err = r.str("enclave.qos_commit"); err != nil {
		return c, err
	}
	return c, nil
}

// decodeEnvelope decodes a manifest envelope in the form envelopeFormOf picks.
func decodeEnvelope(b []byte, jsonV2 bool) (*envelope, error) {
	if len(b) == 0 {
		return nil, errors.New("manifest envelope is empty")
	}
	if len(b) > maxManifestSize {
		return nil, fmt.Errorf("manifest envelope is %d bytes, over the %d-byte limit", len(b), maxManifestSize)
	}
	switch envelopeFormOf(b, jsonV2) {
	case formJSONLegacy:
		return decodeEnvelopeLegacyJSON(b)
	case formJSONV2:
		return decodeEnvelopeJSON(b)
	}
	return readBorshVersions("manifest envelope", b, decodeEnvelopeBorsh)
}

func decodeEnvelopeBorsh(b []byte, v1 bool) (*envelope, error) {
	r := &borshReader{b: b}
	m, err := readManifest(r, v1)
	if err != nil {
		return nil, err
	}
	e := &envelope{manifest: m, manifestBytes: b[:r.off]}
	sum := sha256.Sum256(e.manifestBytes)
	m.SHA256 = sum[:]
	if e.approvals, err = readApprovals(r, "manifest_set_approvals"); err != nil {
		return nil, err
	}
	share, err := readApprovals(r, "share_set_approvals")
	if err != nil {
		return nil, err
	}
	e.shareApprovals = len(share)
	if r.remaining() != 0 {
		return nil, fmt.Errorf("%d unexpected bytes after the envelope", r.remaining())
	}
	if r.over != nil {
		return nil, r.over
	}
	return e, nil
}

func readApprovals(r *borshReader, what string) ([]rawApproval, error) {
	n, err := r.count(what, 12)
	if err != nil {
		return nil, err
	}
	if n > maxSetMembers {
		r.overLimit(what, tooMany(n, "approvals"))
	}
	var out []rawApproval
	for i := 0; i < n; i++ {
		w := fmt.Sprintf("%s[%d]", what, i)
		var a rawApproval
		if a.signature, err = r.bytes(w + ".signature"); err != nil {
			return nil, err
		}
		if a.member.Alias, err = r.str(w + ".member.alias"); err != nil {
			return nil, err
		}
		if a.member.PubKey, err = r.bytes(w + ".member.pub_key"); err != nil {
			return nil, err
		}
		if len(out) < maxSetMembers {
			out = append(out, a)
		}
	}
	return out, nil
}

// JSON v2 (QOS ManifestV2, camelCase, hex byte strings).

type jsonU32 uint32

// UnmarshalJSON accepts a number or a decimal string, as QOS's string_number does.
func (u *jsonU32) UnmarshalJSON(b []byte) error {
	s := string(b)
	if len(b) > 0 && b[0] == '"' {
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
	}
	v, err := strconv.ParseUint(s, 10, 32)
	if err != nil {
		return fmt.Errorf("%q is not a 32-bit unsigned number", clip(s))
	}
	*u = jsonU32(v)
	return nil
}

type jsonMember struct {
	Alias  string   `json:"alias"`
	PubKey HexBytes `json:"pubKey"`
}

// jsonApproval is an approval of a v2 envelope, the shape of Borsh's.
type jsonApproval struct {
	Signature HexBytes   `json:"signature"`
	Member    jsonMember `json:"member"`
}

type jsonSet struct {
	Threshold jsonU32      `json:"threshold"`
	Members   []jsonMember `json:"members"`
}

// jsonNitroConfig is a manifest's enclave configuration in JSON, the same
// in v2 and in QOS's storage form of v0/v1.
type jsonNitroConfig struct {
	PCR0               HexBytes `json:"pcr0"`
	PCR1               HexBytes `json:"pcr1"`
	PCR2               HexBytes `json:"pcr2"`
	PCR3               HexBytes `json:"pcr3"`
	AWSRootCertificate HexBytes `json:"awsRootCertificate"`
	QOSCommit          string   `json:"qosCommit"`
}

type jsonManifest struct {
	Version   string `json:"version"`
	Namespace struct {
		Name      string   `json:"name"`
		Nonce     jsonU32  `json:"nonce"`
		QuorumKey HexBytes `json:"quorumKey"`
	} `json:"namespace"`
	Pivot struct {
		Hash         HexBytes          `json:"hash"`
		Restart      string            `json:"restart"`
		BridgeConfig []json.RawMessage `json:"bridgeConfig"`
		DebugMode    bool              `json:"debugMode"`
		Args         []string          `json:"args"`
		Env          json.RawMessage   `json:"env,omitempty"`
	} `json:"pivot"`
	ManifestSet jsonSet         `json:"manifestSet"`
	ShareSet    jsonSet         `json:"shareSet"`
	Enclave     jsonNitroConfig `json:"enclave"`
	DNS         json.RawMessage `json:"dns,omitempty"`
}

// strictJSON decodes a v2 manifest or envelope reading it exactly one way
// (api.StrictUnmarshal): duplicate keys, keys that match a field only
// case-insensitively, unknown keys and invalid UTF-8 are refused. The hash is
// taken over qosCanonicalJSON's case-sensitive reading, so a reading that took
// "ManifestSet" for "manifestSet" (encoding/json alone does, the last key
// winning) would let the service pick, by the order of keys the hash does
// not see, which quorum set vigil checks the approvals against.
//
// api.StrictUnmarshal's advice for an unknown key ("remove it") fits a
// request the user writes, not attested data: the key is reported as one
// QOS's schema does not have.
func strictJSON(b []byte, v any) error {
	err := api.StrictUnmarshal(b, v)
	var se *api.StrictJSONError
	if errors.As(err, &se) && se.Kind == api.JSONUnknownField {
		fixed := *se
		fixed.Problem = strings.Replace(se.Problem, "is not a known field; remove it", "is not a field of QOS's manifest schema, so vigil cannot tell how QOS read it (the manifest is attested: refuse it, do not edit it)", 1)
		return &fixed
	}
	return err
}

func decodeManifestJSON(b []byte) (*Manifest, []byte, error) {
	var j jsonManifest
	if err := strictJSON(b, &j); err != nil {
		return nil, nil, fmt.Errorf("manifest JSON v2: %w", err)
	}
	if j.Version != "v2" {
		return nil, nil, fmt.Errorf("manifest JSON: version is %q, want \"v2\"", clip(j.Version))
	}
	if len(j.Pivot.Hash) != 32 {
		return nil, nil, fmt.Errorf("manifest JSON v2: pivot.hash is %d bytes, want 32", len(j.Pivot.Hash))
	}
	hashed, err := qosManifestV2Value(b)
	if err != nil {
		return nil, nil, fmt.Errorf("manifest JSON v2: %w", err)
	}
	canon, err := qosJSONBytes(hashed)
	if err != nil {
		return nil, nil, fmt.Errorf("manifest JSON v2: %w", err)
	}
	sum := sha256.Sum256(canon)
	m := &Manifest{
		Version:   "v2",
		SHA256:    sum[:],
		Namespace: Namespace{Name: j.Namespace.Name, Nonce: uint32(j.Namespace.Nonce), QuorumKey: j.Namespace.QuorumKey},
		Pivot:     Pivot{Hash: j.Pivot.Hash, Restart: j.Pivot.Restart, Args: j.Pivot.Args, DebugMode: j.Pivot.DebugMode},
		Enclave: NitroConfig{
			PCR0: j.Enclave.PCR0, PCR1: j.Enclave.PCR1, PCR2: j.Enclave.PCR2, PCR3: j.Enclave.PCR3,
			AWSRootCert: len(j.Enclave.AWSRootCertificate) > 0, QOSCommit: j.Enclave.QOSCommit,
		},
		ManifestSet: j.ManifestSet.set(),
		ShareSet:    j.ShareSet.set(),
	}
	if err := m.checkSetSizes(); err != nil {
		return nil, nil, err
	}
	if err := checkPivotSizes(len(j.Pivot.BridgeConfig), len(j.Pivot.Args)); err != nil {
		return nil, nil, err
	}
	shown, err := hashedV2ConfigOf(hashed)
	if err != nil {
		return nil, nil, fmt.Errorf("manifest JSON v2: %w", err)
	}
	m.Pivot.Bridges, m.Pivot.Env, m.DNS = shown.bridges, shown.env, shown.dns
	if aws, err := awsRoot(); err == nil && len(j.Enclave.AWSRootCertificate) > 0 {
		m.Enclave.AWSRootIsPinned = bytes.Equal(j.Enclave.AWSRootCertificate, aws.Cert.Raw)
	}
	return m, canon, nil
}

func (s jsonSet) set() QuorumSet {
	q := QuorumSet{Threshold: uint32(s.Threshold), Members: []Member{}}
	for _, m := range s.Members {
		q.Members = append(q.Members, Member(m))
	}
	return q
}

func decodeEnvelopeJSON(b []byte) (*envelope, error) {
	var j struct {
		Manifest             json.RawMessage `json:"manifest"`
		ManifestSetApprovals []jsonApproval  `json:"manifestSetApprovals"`
		ShareSetApprovals    []*jsonApproval `json:"shareSetApprovals"`
	}
	if err := strictJSON(b, &j); err != nil {
		return nil, fmt.Errorf("manifest envelope JSON v2: %w", err)
	}
	if n := len(j.ManifestSetApprovals); n > maxSetMembers {
		return nil, fmt.Errorf("manifest envelope JSON v2: manifestSetApprovals: %w", tooMany(n, "approvals"))
	}
	// Share-set approvals are never checked, but they are counted in the
	// report: bounded and shaped as in Borsh, so the count is of approvals.
	if n := len(j.ShareSetApprovals); n > maxSetMembers {
		return nil, fmt.Errorf("manifest envelope JSON v2: shareSetApprovals: %w", tooMany(n, "approvals"))
	}
	for i, a := range j.ShareSetApprovals {
		if a == nil {
			return nil, fmt.Errorf("manifest envelope JSON v2: shareSetApprovals[%d] is null, want {\"signature\", \"member\"}", i)
		}
	}
	m, canon, err := decodeManifestJSON(j.Manifest)
	if err != nil {
		return nil, err
	}
	e := &envelope{manifest: m, manifestBytes: canon, shareApprovals: len(j.ShareSetApprovals)}
	for _, a := range j.ManifestSetApprovals {
		e.approvals = append(e.approvals, rawApproval{signature: a.Signature, member: Member{Alias: a.Member.Alias, PubKey: a.Member.PubKey}})
	}
	return e, nil
}

// encodeManifestV0 writes a manifest in the Borsh v0 layout (for the demo enclave).
func encodeManifestV0(m *Manifest) []byte {
	w := &borshWriter{}
	w.str(m.Namespace.Name)
	w.u32(m.Namespace.Nonce)
	w.bytes(m.Namespace.QuorumKey)
	w.raw(m.Pivot.Hash)
	if m.Pivot.Restart == "Always" {
		w.u8(1)
	} else {
		w.u8(0)
	}
	w.strings(m.Pivot.Args)
	for _, s := range []QuorumSet{m.ManifestSet, m.ShareSet} {
		w.u32(s.Threshold)
		w.u32(uint32(len(s.Members)))
		for _, mem := range s.Members {
			w.str(mem.Alias)
			w.bytes(mem.PubKey)
		}
	}
	for _, p := range []HexBytes{m.Enclave.PCR0, m.Enclave.PCR1, m.Enclave.PCR2, m.Enclave.PCR3} {
		w.bytes(p)
	}
	w.bytes(nil) // aws_root_certificate: the demo enclave is not on AWS
	w.str(m.Enclave.QOSCommit)
	patch := QuorumSet{}
	if m.PatchSet != nil {
		patch = *m.PatchSet
	}
	w.u32(patch.Threshold)
	w.u32(uint32(len(patch.Members)))
	for _, mem := range patch.Members {
		w.bytes(mem.PubKey)
	}
	return w.b
}

// encodeApprovals appends the envelope's approval vectors to a manifest.
func encodeEnvelope(manifest []byte, approvals []rawApproval) []byte {
	w := &borshWriter{b: append([]byte(nil), manifest...)}
	w.u32(uint32(len(approvals)))
	for _, a := range approvals {
		w.bytes(a.signature)
		w.str(a.member.Alias)
		w.bytes(a.member.PubKey)
	}
	w.u32(0) // share_set_approvals
	return w.b
}
