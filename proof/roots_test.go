package proof

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"strings"
	"testing"
	"time"
)

// plainAuthority is a DemoAuthority whose certificates lack the demo marker:
// any CA someone might configure as a trusted root.
func plainAuthority(t *testing.T, now time.Time) *DemoAuthority {
	t.Helper()
	mk := func(cn string, parent *x509.Certificate, parentKey *ecdsa.PrivateKey) (*x509.Certificate, *ecdsa.PrivateKey) {
		k, err := ecdsa.GenerateKey(elliptic.P384(), rand.Reader)
		if err != nil {
			t.Fatal(err)
		}
		tmpl := &x509.Certificate{SerialNumber: serial(), Subject: pkix.Name{CommonName: cn},
			NotBefore: now.Add(-time.Hour), NotAfter: now.AddDate(1, 0, 0),
			KeyUsage: x509.KeyUsageCertSign | x509.KeyUsageDigitalSignature, BasicConstraintsValid: true, IsCA: true}
		if parent == nil {
			parent, parentKey = tmpl, k
		}
		der, err := x509.CreateCertificate(rand.Reader, tmpl, parent, &k.PublicKey, parentKey)
		if err != nil {
			t.Fatal(err)
		}
		c, err := x509.ParseCertificate(der)
		if err != nil {
			t.Fatal(err)
		}
		return c, k
	}
	root, rk := mk("my root", nil, nil)
	inter, ik := mk("my intermediate", root, rk)
	return &DemoAuthority{rootKey: rk, root: root, interKey: ik, inter: inter}
}

// A configured root is named as configured even when its file is named like
// the AWS root: only the pinned AWS certificate is reported as AWS.
func TestConfiguredRootNamedLikeAWSIsNotReportedAsAWS(t *testing.T) {
	now := time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)
	auth := plainAuthority(t, now)
	enc, err := NewDemoEnclave(auth, "signer", "o", "l", now)
	if err != nil {
		t.Fatal(err)
	}
	roots, err := ParseRootsPEM(AWSRootName, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: auth.root.Raw}))
	if err != nil {
		t.Fatal(err)
	}
	rep := VerifyBootProof(enc.BootProof, Options{Roots: roots, Now: now})
	want := "configured root: " + AWSRootName
	if rep.Anchor != want {
		t.Errorf("a self-made root file named %q anchors as %q, want %q", AWSRootName, rep.Anchor, want)
	}
	if c := rep.Check(CheckChain); c.Status != Pass || !strings.HasPrefix(c.Reason, "chains to "+want+",") {
		t.Errorf("cert-chain: %s %q", c.Status, c.Reason)
	}
	// Its name says a configured root, never a pinned one.
	if c := rep.Check(CheckChain); strings.Contains(c.Name, "pinned") || strings.Contains(c.Name, "AWS") || !strings.Contains(c.Name, "configured root") {
		t.Errorf("cert-chain anchored at a configured root is named %q", c.Name)
	}

	// The chain of a document no configured root anchors lists the trusted
	// roots, the AWS one as AWS and the configured one as configured.
	other := plainAuthority(t, now)
	stranger, err := NewDemoEnclave(other, "signer", "o", "l", now)
	if err != nil {
		t.Fatal(err)
	}
	rep = VerifyBootProof(stranger.BootProof, Options{Roots: roots, Now: now})
	if c := rep.Check(CheckChain); !strings.Contains(c.Reason, "(trusted: "+AWSRootName+", "+want+")") {
		t.Errorf("cert-chain: %s %q", c.Status, c.Reason)
	}
}

// The AWS root's own certificate in a configured file is the AWS root: the
// pinned built-in root anchors it first.
func TestAWSRootAnchorIsTheBuiltInRoot(t *testing.T) {
	aws, err := AWSRoot()
	if err != nil {
		t.Fatal(err)
	}
	if got := aws.anchorName(); got != AWSRootName {
		t.Errorf("the built-in root is named %q", got)
	}
	if got := aws.chainCheckName(); !strings.Contains(got, "AWS") || !strings.Contains(got, "pinned") {
		t.Errorf("the chain check anchored at the built-in root is named %q", got)
	}
	roots, err := ParseRootsPEM("aws.pem", readFixture(t, "aws_nitro_root_g1.pem"))
	if err != nil {
		t.Fatal(err)
	}
	if got := roots[0].anchorName(); got != "configured root: aws.pem" {
		t.Errorf("a configured copy is named %q", got)
	}
}

// A chain anchored at the demo root is named as the demo root, not as a
// pinned one; the check keeps its ID, which --json consumers key on.
func TestChainToDemoRootIsNotNamedPinned(t *testing.T) {
	now := time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)
	auth, err := NewDemoAuthority(now)
	if err != nil {
		t.Fatal(err)
	}
	enc, err := NewDemoEnclave(auth, "signer", "o", "l", now)
	if err != nil {
		t.Fatal(err)
	}
	rep := VerifyBootProof(enc.BootProof, Options{Roots: []Root{auth.Root()}, Now: now})
	c := rep.Check(CheckChain)
	if c == nil || c.Status != Pass {
		t.Fatalf("cert-chain: %+v", c)
	}
	if strings.Contains(c.Name, "pinned") || !strings.Contains(c.Name, "demo root") {
		t.Errorf("cert-chain anchored at the demo root is named %q", c.Name)
	}
}
