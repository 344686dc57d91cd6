package proof

import (
	"crypto/x509"
	"crypto/x509/pkix"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// A certificate's common name is chosen by whoever made the certificate:
// reasons quote it shortened, never cutting a character in half (which
// would show as a \xNN escape, as if the name had been tampered with).
func TestClipKeepsCharactersWhole(t *testing.T) {
	for _, cn := range []string{
		strings.Repeat("a", 63) + "é-enclave",
		strings.Repeat("a", 62) + "😀-enclave",
		strings.Repeat("é", 40),
	} {
		got := clip(cn)
		if !utf8.ValidString(got) {
			t.Errorf("clip(%q) = %q: not valid UTF-8", cn, got)
		}
		if !strings.HasPrefix(cn, strings.TrimSuffix(got, "…")) {
			t.Errorf("clip(%q) = %q: not the name's start", cn, got)
		}
	}
}

// A certificate outside its validity names itself in the reason shortened:
// a multi-kilobyte common name must not make a reason line of that length.
func TestValidityReasonClipsCommonName(t *testing.T) {
	long := strings.Repeat("n", 10000)
	from := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	c := &x509.Certificate{Subject: pkix.Name{CommonName: long}, NotBefore: from, NotAfter: from.Add(24 * time.Hour)}
	for _, at := range []time.Time{from.Add(-time.Hour), from.Add(48 * time.Hour)} {
		err := validAt(c, at, "the leaf certificate")
		if err == nil {
			t.Fatalf("validAt(%v) accepted a certificate valid %v to %v", at, c.NotBefore, c.NotAfter)
		}
		if len(err.Error()) > 500 {
			t.Errorf("validAt(%v): the reason quotes the whole %d-byte common name (%d bytes)", at, len(long), len(err.Error()))
		}
	}
}
