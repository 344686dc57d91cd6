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
