package api

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"

	"github.com/vigil-console/vigil/keys"
)

// A name, a label or notes is recorded in the activity, shown to every
// member and kept for good: a private key pasted there by mistake cannot be
// taken back once sent. The client refuses one before anything is sent (the
// service, and so the local one, takes any text: this is no Validate rule).
// Ids, hashes, addresses, expressions and public keys are left alone: 64
// hex digits are ordinary there.

// nameFields are the free-text fields (freeTextFields but the ABI of a
// smart contract interface), by their key as normalized by nameFieldKey,
// each with what it holds, for the message.
var nameFields = map[string]string{
	"policyname": "a policy name", "mfapolicyname": "an MFA policy name", "usertagname": "a tag name",
	"apikeyname": "an API key name", "receiverusername": "a user name", "label": "a label", "notes": "notes",
}

// nameFieldKey is a JSON key as nameFields has it: lower case without
// underscores, so that policy_name (protobuf JSON's other spelling) and a
// miscased key are checked too.
func nameFieldKey(k string) string {
	return strings.ToLower(strings.ReplaceAll(k, "_", ""))
}

// maxSecretScanDepth bounds the nesting walked: no operation's parameters
// nest more than a few levels.
const maxSecretScanDepth = 64

// SecretInFreeText returns a *ValidationError naming the first free-text
// field of params (a policy, tag, MFA policy, API key or user name, a
// label, notes, nested ones included) that holds what looks like a private
// key (keys.HasSecretToken), described without showing it; nil when none
// does.
func SecretInFreeText(params Params) error {
	raw, err := Marshal(params)
	if err != nil {
		return nil // Validate and the marshal that sends say what is wrong
	}
	return SecretInRequestBody(raw)
}

// SecretInRequestBody is SecretInFreeText for a request body as JSON (a
// submit's envelope or its parameters alone): every free-text key at any
// depth, each of a repeated key too. Text that is not JSON is not looked at.
func SecretInRequestBody(body []byte) error {
	dec := json.NewDecoder(bytes.NewReader(body))
	ve, _ := scanSecretText(dec, "", "", 0)
	if ve == nil {
		return nil
	}
	return ve
}

// scanSecretText reads one JSON value from dec, at path and under key,
// and returns the error of the first free-text string in it that looks
// like a private key.
func scanSecretText(dec *json.Decoder, path, key string, depth int) (*ValidationError, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch t := tok.(type) {
	case json.Delim:
		if depth >= maxSecretScanDepth {
			return nil, errTooDeep
		}
		switch t {
		case '{':
			for dec.More() {
				kt, err := dec.Token()
				if err != nil {
					return nil, err
				}
				k, _ := kt.(string)
				if ve, err := scanSecretText(dec, joinPath(path, sanitizeKey(k)), k, depth+1); ve != nil || err != nil {
					return ve, err
				}
			}
		case '[':
			for i := 0; dec.More(); i++ {
				if ve, err := scanSecretText(dec, indexPath(path, i), "", depth+1); ve != nil || err != nil {
					return ve, err
				}
			}
		}
		_, err := dec.Token() // the closing delimiter
		return nil, err
	case string:
		return secretInText(path, key, t), nil
	}
	return nil, nil
}

// SecretInText is SecretInFreeText for the value of one field, by its wire
// name (policyName, notes): a *ValidationError, or nil when the field is no
// name or notes, or holds no key.
func SecretInText(field, value string) error {
	if ve := secretInText(field, field, value); ve != nil {
		return ve
	}
	return nil
}

// secretInText is the error of value at path, under key, when key is a
// name or notes and value holds what looks like a private key.
func secretInText(path, key, value string) *ValidationError {
	want, ok := nameFields[nameFieldKey(key)]
	if !ok || !keys.HasSecretToken(value) {
		return nil
	}
	return &ValidationError{Field: path, Problem: "holds " + keys.SecretArg(value, want) +
		"; nothing was sent: it would be recorded in the activity, shown to every member and kept for good; give " + want + " without the key" +
		" (a hash or digest written sha256:<hex> is not taken for a key)"}
}

// errTooDeep stops a scan of JSON nested deeper than any operation's.
var errTooDeep = errors.New("nested too deeply")
