// Package keys makes, stores and loads stamping keys, stamps request bodies
// (X-Stamp, DESIGN.md §3) and verifies stamps.
package keys

// Stamp headers.
const (
	HeaderStamp         = "X-Stamp"
	HeaderStampWebAuthn = "X-Stamp-WebAuthn"
)

// Signature schemes of an X-Stamp.
const (
	SchemeP256      = "SIGNATURE_SCHEME_TK_API_P256"
	SchemeSecp256k1 = "SIGNATURE_SCHEME_TK_API_SECP256K1"
	SchemeEd25519   = "SIGNATURE_SCHEME_TK_API_ED25519"
)

// Stamper stamps a request body: it returns the header to send and its value,
// computed over exactly these bytes.
type Stamper interface {
	Stamp(body []byte) (header, value string, err error)
}
