package proof

import (
	"bytes"
	"crypto/sha256"
	"crypto/x509"
	_ "embed"
	"encoding/hex"
	"encoding/pem"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/vigil-console/vigil/api"
)

// AWSRootName names the built-in trust anchor in reports.
const AWSRootName = "AWS Nitro Enclaves Root-G1"

// awsRootSHA256 pins the DER of the AWS Nitro Enclaves Root-G1 certificate.
const awsRootSHA256 = "641a0321a3e244efe456463195d606317ed7cdcc3c1756e09893f3c68f79bb5b"

//go:embed aws_nitro_root_g1.pem
var awsRootPEM []byte

// Options tunes a verification. The zero value verifies against the built-in AWS
// root at the document's own timestamp with no pins.
type Options struct {
	// Roots are extra trusted roots; the AWS Nitro Enclaves Root-G1 is always trusted.
	Roots []Root
	// At is the certificate validation time; zero means the document's timestamp.
	At time.Time
	// Now is used only to report the document's age; zero means time.Now().
	Now time.Time
	// ExpectedPCRs pins PCR values (index → bytes) for this app.
	ExpectedPCRs map[int][]byte
	// AllowedManifestHashes pins the manifest hash (SHA-256) to one of these.
	AllowedManifestHashes [][]byte
	// ExpectedPivotHashes pins the manifest's pivot hash (the SHA-256 of the
	// app binary, as the manifest names it) to one of these.
	ExpectedPivotHashes [][]byte
	// ExpectedManifestSet pins the manifest set: its members' keys must all
	// be among these members' and its threshold at least this one (aliases
	// are not compared). Nil: not pinned.
	ExpectedManifestSet *QuorumSet
	// ExpectedQuorumKey pins the namespace's quorum key; empty: not pinned.
	ExpectedQuorumKey []byte
	// App is the enclave app the boot proof was asked for: the attested
	// manifest namespace and the service's label must name it. Empty: not
	// compared (the check is N/A).
	App string
	// AppProofs are checked against the boot proof's attested ephemeral key.
	AppProofs []api.AppProof
	// Activity is what each app proof must be about (BindAppProof); nil when
	// there is no activity to compare with, and the binding checks are N/A.
	Activity *Subject
}

// Root is a trust anchor for the certificate chain.
type Root struct {
	Name string
	Cert *x509.Certificate
	Demo bool // a local demo root: reports say so, and it is never the AWS root
	// builtIn marks the pinned AWS root (set only by parseAWSRoot): a
	// configured root is never reported as AWS, whatever its name.
	builtIn bool
}

// awsRoot parses the embedded AWS root once and checks its pin. The pin is a
// constant and the PEM is embedded, so a failure means the binary was tampered with.
// The parsed certificate is never modified after this.
var awsRoot = sync.OnceValues(parseAWSRoot)

func parseAWSRoot() (Root, error) {
	block, _ := pem.Decode(awsRootPEM)
	if block == nil {
		return Root{}, errors.New("embedded AWS root: no PEM block")
	}
	sum := sha256.Sum256(block.Bytes)
	if hex.EncodeToString(sum[:]) != awsRootSHA256 {
		return Root{}, fmt.Errorf("embedded AWS root: SHA-256 %x does not match the pin %s", sum, awsRootSHA256)
	}
	cert, err := x509.ParseCertificate(block.Bytes)
	if err != nil {
		return Root{}, fmt.Errorf("embedded AWS root: %w", err)
	}
	return Root{Name: AWSRootName, Cert: cert, builtIn: true}, nil
}

// AWSRoot returns the built-in AWS Nitro Enclaves Root-G1 after checking its pin.
func AWSRoot() (Root, error) { return awsRoot() }

// ParseRootsPEM parses every CERTIFICATE block of a PEM file as a trusted root.
// The roots are named name, or "name #2" etc. when the file holds several.
func ParseRootsPEM(name string, data []byte) ([]Root, error) {
	var roots []Root
	rest := data
	for {
		var block *pem.Block
		block, rest = pem.Decode(rest)
		if block == nil {
			break
		}
		if block.Type != "CERTIFICATE" {
			continue
		}
		cert, err := x509.ParseCertificate(block.Bytes)
		if err != nil {
			return nil, fmt.Errorf("root %s: certificate %d: %w", name, len(roots)+1, err)
		}
		n := name
		if len(roots) > 0 {
			n = fmt.Sprintf("%s #%d", name, len(roots)+1)
		}
		roots = append(roots, Root{Name: n, Cert: cert, Demo: isDemoCert(cert)})
	}
	if len(roots) == 0 {
		if len(bytes.TrimSpace(rest)) > 0 || len(bytes.TrimSpace(data)) > 0 {
			return nil, fmt.Errorf("root %s: no PEM CERTIFICATE block found; give a PEM file (-----BEGIN CERTIFICATE-----)", name)
		}
		return nil, fmt.Errorf("root %s: file is empty", name)
	}
	return roots, nil
}

// anchorName is how a report names the root that anchored a chain. Only the
// built-in root is named as AWS: a configured root keeps its prefix, even one
// named like the AWS root (a file called "AWS Nitro Enclaves Root-G1").
func (r Root) anchorName() string {
	switch {
	case r.builtIn:
		return AWSRootName
	case r.Demo:
		return "demo root: " + r.Name
	}
	return "configured root: " + r.Name
}

// sourceName names r as a trusted root in a reason, by where it came from.
func (r Root) sourceName() string {
	switch {
	case r.builtIn:
		return "built in and pinned, " + AWSRootName
	case r.Demo:
		return fmt.Sprintf("%q (demo root)", r.Name)
	}
	return fmt.Sprintf("%q (configured: --root / trusted_roots)", r.Name)
}

// chainCheckName names the chain check by the root that anchored it: only
// the built-in AWS root is pinned, and a demo or configured root must not
// read as it. The check's ID (cert-chain) stays the same for all of them.
func (r Root) chainCheckName() string {
	switch {
	case r.builtIn:
		return "Certificate chain to the AWS Nitro root (pinned)"
	case r.Demo:
		return "Certificate chain to the demo root (not AWS)"
	}
	return "Certificate chain to a configured root"
}
