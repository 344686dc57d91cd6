package api

import (
	"strings"
	"testing"
)

// Notes naming a transaction hash cannot be told from notes holding a
// private key; the refusal says how to write the hash so that it is sent,
// and that form is sent.
func TestNotesRefusalSaysHowToWriteAHash(t *testing.T) {
	hash := strings.Repeat("1f2e3d4c", 8)
	err := SecretInText("notes", "see tx "+hash)
	if err == nil || !strings.Contains(err.Error(), "sha256:<hex>") {
		t.Fatalf("notes holding 64 hex digits: %v, want a refusal saying to write sha256:<hex>", err)
	}
	if strings.Contains(err.Error(), hash) {
		t.Fatalf("the refusal shows the value: %v", err)
	}
	if err := SecretInText("notes", "see tx sha256:"+hash); err != nil {
		t.Fatalf("notes holding sha256:<hex>, as the refusal advises: %v, want it taken", err)
	}
}
