package screens

import (
	"bytes"
	"crypto/ecdh"
	"crypto/rand"
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/keys"
	"github.com/vigil-console/vigil/server/servertest"
)

// A form field holds whatever the service takes in it: a value at the
// service's limit (api's, which the local service checks) is kept whole,
// not cut short by a stricter form.
func TestOperationFormFieldsHoldAValueAtTheServiceLimit(t *testing.T) {
	ids := func() string {
		var out []string
		for i := range api.MaxListItems {
			out = append(out, fmt.Sprintf("%03d-%s", i, strings.Repeat("a", api.MaxIDLength-4)))
		}
		return strings.Join(out, ", ")
	}
	for _, tc := range []struct {
		form, field string
		noUsers     bool // the user list is not loaded: user ids are typed
		value       string
	}{
		{form: "create smart contract interface", field: "notes", value: strings.Repeat("n", api.MaxNotesLength)},
		{form: "delete wallet accounts", field: "walletAccountIds", value: ids()},
		{form: "create user tag", field: "userIds", noUsers: true, value: ids()},
		{form: "update oauth2 credential", field: "clientSecret", value: strings.Repeat("s", keys.EnvelopeMaxPlaintext(api.MaxCredentialLength))},
	} {
		t.Run(tc.field, func(t *testing.T) {
			d := servertest.StartDemo(t)
			var log bytes.Buffer
			h := opsHarness(t, d, &log)
			if tc.noUsers {
				clear(h.root.common.Org.UserNames)
			}
			openOperation(h, tc.form)
			f := h.root.dialogs.Top().(*opFormDialog)
			for range 10 {
				if f.form.Focused() == tc.field {
					break
				}
				h.key("tab")
				f = h.root.dialogs.Top().(*opFormDialog)
			}
			if f.form.Focused() != tc.field {
				t.Fatalf("could not reach the %s field:\n%s", tc.field, h.frame())
			}
			h.send(tea.PasteMsg{Content: tc.value})
			f = h.root.dialogs.Top().(*opFormDialog)
			if got := f.form.Values()[tc.field]; got != tc.value {
				t.Errorf("%s kept %d of the %d characters the service takes", tc.field, len([]rune(got)), len([]rune(tc.value)))
			}
		})
	}
}

// The longest client secret the form holds still fits, encrypted, in what
// the service takes as encryptedClientSecret; one byte more would not.
func TestClientSecretLimitFitsTheEncryptedLimit(t *testing.T) {
	key, err := ecdh.P256().GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	target := key.PublicKey().Bytes()
	n := keys.EnvelopeMaxPlaintext(api.MaxCredentialLength)
	for _, tc := range []struct {
		size int
		fits bool
	}{{n, true}, {n + 1, false}} {
		enc, err := keys.EnvelopeEncrypt(target, bytes.Repeat([]byte("s"), tc.size))
		if err != nil {
			t.Fatal(err)
		}
		if fits := len(enc) <= api.MaxCredentialLength; fits != tc.fits {
			t.Errorf("a %d-byte secret encrypts to %d characters; fits the %d the service takes: %v, want %v", tc.size, len(enc), api.MaxCredentialLength, fits, tc.fits)
		}
	}
}
