package cli

import (
	"fmt"

	"github.com/vigil-console/vigil/internal/userfile"
	"github.com/vigil-console/vigil/profile"
	"github.com/vigil-console/vigil/proof"
	"github.com/vigil-console/vigil/screens"
)

// maxRootFile bounds what a trusted_roots file may hold.
const maxRootFile = 1 << 20

// profileProofSettings is the one mapping from a profile's trust settings
// (enclave_apps, trusted_roots, expected_pcrs, allowed_manifest_hashes, and
// the content pins: expected_pivot_hashes, expected_manifest_sets,
// expected_quorum_keys) to what
// the verifier takes. `vigil proof fetch` and the console both use it, so they
// verify the same way. trusted_roots paths are already absolute (loadProfile
// resolves them against the config file's directory).
func profileProofSettings(p Profile) (screens.ProofSettings, error) {
	s := screens.ProofSettings{Apps: append([]string(nil), p.EnclaveApps...)}
	for i, path := range p.TrustedRoots {
		b, err := readRootFile(path)
		if err != nil {
			return s, fmt.Errorf("profile %q trusted_roots: %w", p.Name, err)
		}
		// Reports name the root by its path as written in the config, which
		// is what its owner finds there (docs/verification.md); errors give
		// the whole path.
		name := path
		if i < len(p.TrustedRootsAsWritten) {
			name = p.TrustedRootsAsWritten[i]
		}
		roots, err := proof.ParseRootsPEM(name, b)
		if err != nil {
			return s, fmt.Errorf("profile %q trusted_roots %s: %w", p.Name, path, err)
		}
		s.Roots = append(s.Roots, roots...)
	}
	for app, pins := range p.ExpectedPCRs {
		for idx, h := range pins {
			i, v, err := profile.ParsePCR(idx, h)
			if err != nil {
				return s, fmt.Errorf("profile %q expected_pcrs.%s.%s: %w", p.Name, app, idx, err)
			}
			if s.ExpectedPCRs == nil {
				s.ExpectedPCRs = map[string]map[int][]byte{}
			}
			if s.ExpectedPCRs[app] == nil {
				s.ExpectedPCRs[app] = map[int][]byte{}
			}
			s.ExpectedPCRs[app][i] = v
		}
	}
	for _, h := range p.AllowedManifestHashes {
		b, err := profile.ParseManifestHash(h)
		if err != nil {
			return s, fmt.Errorf("profile %q allowed_manifest_hashes: %w", p.Name, err)
		}
		s.AllowedManifestHashes = append(s.AllowedManifestHashes, b)
	}
	if err := profileContentPins(p, &s); err != nil {
		return s, err
	}
	return s, nil
}

// readRootFile reads a trusted_roots file: a regular file only (a named pipe
// would hang vigil), that no one but the user running vigil (and root) can
// change (userfile.Exposure), since it decides which enclaves' proofs vigil
// accepts.
func readRootFile(path string) ([]byte, error) {
	b, fi, err := userfile.ReadInfo(path, maxRootFile)
	if err != nil {
		return nil, fmt.Errorf("read root certificate file: %w (give a PEM file, relative paths are relative to the config file)", err)
	}
	if who, fix := userfile.Exposure(path, fi); who != "" {
		return nil, fmt.Errorf("root certificate file %s %s, who could make vigil trust their enclaves; %s", path, who, fix)
	}
	return b, nil
}

// profileContentPins maps the profile's pins of a manifest's content into s.
// They were checked when the config was read, by the same parsers; an error
// here names the key, never the value.
func profileContentPins(p Profile, s *screens.ProofSettings) error {
	for app, list := range p.ExpectedPivotHashes {
		for _, h := range list {
			b, err := profile.ParsePivotHash(h)
			if err != nil {
				return fmt.Errorf("profile %q expected_pivot_hashes.%s: %w", p.Name, app, err)
			}
			if s.ExpectedPivotHashes == nil {
				s.ExpectedPivotHashes = map[string][][]byte{}
			}
			s.ExpectedPivotHashes[app] = append(s.ExpectedPivotHashes[app], b)
		}
	}
	for app, pin := range p.ExpectedManifestSets {
		set, err := manifestSetPin(pin.Threshold, pin.Members)
		if err != nil {
			return fmt.Errorf("profile %q expected_manifest_sets.%s: %w", p.Name, app, err)
		}
		if s.ExpectedManifestSets == nil {
			s.ExpectedManifestSets = map[string]*proof.QuorumSet{}
		}
		s.ExpectedManifestSets[app] = set
	}
	for app, h := range p.ExpectedQuorumKeys {
		b, err := profile.ParseQuorumKey(h)
		if err != nil {
			return fmt.Errorf("profile %q expected_quorum_keys.%s: %w", p.Name, app, err)
		}
		if s.ExpectedQuorumKeys == nil {
			s.ExpectedQuorumKeys = map[string][]byte{}
		}
		s.ExpectedQuorumKeys[app] = b
	}
	return nil
}
