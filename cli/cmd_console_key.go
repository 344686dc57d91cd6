package cli

import "github.com/vigil-console/vigil/keys"

// stamperPublicKey is the stamping key's public key (hex), "" when the stamper
// does not say: the Users screen warns before deleting it.
func stamperPublicKey(s keys.Stamper) string {
	if k, ok := s.(interface{ PublicKeyHex() string }); ok {
		return k.PublicKeyHex()
	}
	return ""
}

// stamperScheme is the stamping key's scheme, "" when the stamper does not
// say: with its public key it names one key, as the same bytes may be a
// P-256 and a secp256k1 key.
func stamperScheme(s keys.Stamper) string {
	if k, ok := s.(interface{ Scheme() string }); ok {
		return k.Scheme()
	}
	return ""
}
