package api

import (
	"bytes"
	"encoding/json"
	"errors"
	"slices"
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
// What the body holds anyway outside free text (a policy's condition naming
// a manifest's hash, a contract's address) is no key pasted by mistake
// where it was named: "allow manifest <hash>" is sent.
func SecretInRequestBody(body []byte) error {
	var public []string
	_ = walkJSONStrings(body, func(_, key, value string) bool {
		if _, free := nameFields[nameFieldKey(key)]; !free {
			public = append(public, value)
		}
		return false
	})
	var found *ValidationError
	_ = walkJSONStrings(body, func(path, key, value string) bool {
		found = secretInText(path, key, value, public)
		return found != nil
	})
	if found == nil {
		return nil
	}
	return found
}

// walkJSONStrings calls visit with every string value of the JSON body,
// its path and the key it is under ("" in an array), until visit returns
// true.
func walkJSONStrings(body []byte, visit func(path, key, value string) bool) error {
	_, err := walkJSONValue(json.NewDecoder(bytes.NewReader(body)), "", "", 0, visit)
	return err
}

// walkJSONValue reads one JSON value from dec, at path and under key, and
// reports whether visit stopped the walk in it.
func walkJSONValue(dec *json.Decoder, path, key string, depth int, visit func(path, key, value string) bool) (bool, error) {
	tok, err := dec.Token()
	if err != nil {
		return false, err
	}
	switch t := tok.(type) {
	case json.Delim:
		if depth >= maxSecretScanDepth {
			return false, errTooDeep
		}
		switch t {
		case '{':
			for dec.More() {
				kt, err := dec.Token()
				if err != nil {
					return false, err
				}
				k, _ := kt.(string)
				if stop, err := walkJSONValue(dec, joinPath(path, sanitizeKey(k)), k, depth+1, visit); stop || err != nil {
					return stop, err
				}
			}
		case '[':
			for i := 0; dec.More(); i++ {
				if stop, err := walkJSONValue(dec, indexPath(path, i), "", depth+1, visit); stop || err != nil {
					return stop, err
				}
			}
		}
		_, err := dec.Token() // the closing delimiter
		return false, err
	case string:
		return visit(path, key, t), nil
	}
	return false, nil
}

// SecretInText is SecretInFreeText for the value of one field, by its wire
// name (policyName, notes): a *ValidationError, or nil when the field is no
// name or notes, or holds no key. beside are the values of the same
// request's other fields that are no free text (a condition, an address):
// a token one of them holds is sent anyway, so is not refused here.
func SecretInText(field, value string, beside ...string) error {
	if ve := secretInText(field, field, value, beside); ve != nil {
		return ve
	}
	return nil
}

// secretInText is the error of value at path, under key, when key is a
// name or notes and value holds what looks like a private key that none
// of public holds.
func secretInText(path, key, value string, public []string) *ValidationError {
	want, ok := nameFields[nameFieldKey(key)]
	if !ok || !slices.ContainsFunc(keys.TextSecretTokens(value), func(t string) bool { return !heldBy(public, t) }) {
		return nil
	}
	return &ValidationError{Field: path, Problem: "holds " + keys.SecretInText(value, want) +
		"; nothing was sent: it would be recorded in the activity, shown to every member and kept for good; give " + want + " without the key" +
		" (a hash or digest written sha256:<hex> is not taken for a key)"}
}

// heldBy reports whether one of values holds token.
func heldBy(values []string, token string) bool {
	return slices.ContainsFunc(values, func(v string) bool { return strings.Contains(v, strings.TrimSpace(token)) })
}

// errTooDeep stops a scan of JSON nested deeper than any operation's.
var errTooDeep = errors.New("nested too deeply")
