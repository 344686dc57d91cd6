package webhook

import (
	"crypto/ed25519"

	"github.com/vigil-console/vigil/keys"
)

// strongKey refuses a public key under which made-up signatures verify: a
// small-order point (ed25519.Verify accepts one, and the identity 01 00…00
// verifies the signature 01 00…00 00…00 for every body), or one not a
// point or not canonically encoded. A pinned key or a fetched JWKS entry
// could be one.
func strongKey(pub ed25519.PublicKey) error { return keys.CheckEd25519Public(pub) }
