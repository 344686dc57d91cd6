package keys

import (
	"os"
	"testing"
	"time"
)

// An expired key (an OAuth login's) whose .public is missing (the
// IncompleteError case, or removed) is listed and shown as expired, with its
// public key derived from the private key, not as damaged: keys list would
// otherwise exit non-zero over a key that is merely past its expiry.
func TestExpiredKeyWithoutPublicIsListedAsExpired(t *testing.T) {
	s := Store{Dir: t.TempDir()}
	r, err := s.Reserve("old")
	if err != nil {
		t.Fatal(err)
	}
	k, err := Generate(SchemeP256)
	if err != nil {
		t.Fatal(err)
	}
	expired := time.Now().Add(-time.Minute).Truncate(time.Second)
	if err := r.Save(k, expired); err != nil {
		t.Fatal(err)
	}
	_, pub, _ := s.Paths("old")
	if err := os.Remove(pub); err != nil {
		t.Fatal(err)
	}
	list, err := s.List()
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 1 || list[0].Problem != nil {
		t.Fatalf("an expired key without .public is listed as damaged: %+v", list)
	}
	info, err := s.Info("old")
	if err != nil {
		t.Fatalf("keys show of an expired key without .public: %v", err)
	}
	if !info.Expires.Equal(expired) || info.PublicKeyHex != k.PublicKeyHex() {
		t.Errorf("info: expires %v, public key %s; want %v, %s", info.Expires, info.PublicKeyHex, expired, k.PublicKeyHex())
	}
	if _, err := s.Load("old"); err == nil {
		t.Errorf("Load accepts the expired key")
	}
}
