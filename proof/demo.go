package proof

import (
	"crypto/x509"
	"slices"
)

// demoMarker is the organizational unit every demo certificate carries, so a demo
// root is recognised as such wherever it is loaded from.
const demoMarker = "vigil DEMO — NOT AWS"

func isDemoCert(c *x509.Certificate) bool {
	return slices.Contains(c.Subject.OrganizationalUnit, demoMarker)
}
