package webhook

import (
	"context"
	"crypto/ed25519"
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"
)

func (m mapKeys) Key(_ context.Context, kid string) (ed25519.PublicKey, error) {
	if k, ok := m[kid]; ok {
		return k, nil
	}
	return nil, fmt.Errorf("kid %s: %w", kid, ErrUnknownKey)
}

const testOrg = "0b7f7d5a-2a4e-4a51-9a50-5c6f1f6f2f3e"

var testBody = []byte(`{"id":"act-1","organizationId":"` + testOrg + `","status":"ACTIVITY_STATUS_COMPLETED"}`)

func TestSignHeadersAndSignedBytes(t *testing.T) {
	ring, err := NewKeyRing()
	if err != nil {
		t.Fatal(err)
	}
	ts := time.UnixMilli(1763726400123)
	h, err := ring.Sign(testOrg, "evt-1", ts, testBody)
	if err != nil {
		t.Fatal(err)
	}
	kid := ring.ActiveKeyID()
	want := map[string]string{
		"X-Service-Organization-Id":     testOrg,
		"X-Service-Event-Type":          "ACTIVITY_UPDATES",
		"X-Service-Timestamp":           "1763726400123",
		"X-Service-Event-Id":            "evt-1",
		"X-Service-Signature-Key-Id":    kid,
		"X-Service-Signature-Algorithm": "ed25519",
		"X-Service-Signature-Version":   "v1",
	}
	for name, v := range want {
		if got := h.Values(name); len(got) != 1 || got[0] != v {
			t.Errorf("header %s = %q, want [%q]", name, got, v)
		}
	}
	// The signature is over the documented bytes, checked with the standard
	// library and the key as published in the JWKS.
	sig, err := hex.DecodeString(h.Get("X-Service-Signature"))
	if err != nil || len(sig) != 64 {
		t.Fatalf("signature %q is not 64 bytes of hex", h.Get("X-Service-Signature"))
	}
	msg := "v1.ed25519." + kid + ".1763726400123.evt-1." + string(testBody)
	if !ed25519.Verify(publishedKey(t, ring.JWKS(), kid), []byte(msg), sig) {
		t.Fatal("signature does not verify over the documented message")
	}
}

func TestSignRefusesBadInput(t *testing.T) {
	ring, _ := NewKeyRing()
	now := time.Now()
	for name, tc := range map[string]struct{ org, event string }{
		"empty event id":   {testOrg, ""},
		"dot in event id":  {testOrg, "a.b"},
		"newline event id": {testOrg, "a\nb"},
		"empty org":        {"", "evt"},
		"org with CRLF":    {"org\r\nX-Evil: 1", "evt"},
		"long event id":    {testOrg, strings.Repeat("a", 129)},
	} {
		if _, err := ring.Sign(tc.org, tc.event, now, testBody); err == nil {
			t.Errorf("%s: Sign accepted it", name)
		}
	}
	if _, err := ring.Sign(testOrg, "evt", time.Unix(0, 0), testBody); err == nil {
		t.Error("Sign accepted a 1970 timestamp")
	}
}

// signedDelivery signs body at ts with a fresh ring and returns the ring's
// keys as a KeySource.
func signedDelivery(t testing.TB, ts time.Time) (*KeyRing, http.Header) {
	t.Helper()
	ring, err := NewKeyRing()
	if err != nil {
		t.Fatal(err)
	}
	h, err := ring.Sign(testOrg, "evt-42", ts, testBody)
	if err != nil {
		t.Fatal(err)
	}
	return ring, h
}

func TestVerifyAcceptsGoodDelivery(t *testing.T) {
	now := time.Now()
	ring, h := signedDelivery(t, now.Add(-2*time.Second))
	d, err := Verify(h, testBody, ring, now, 0)
	if err != nil {
		t.Fatal(err)
	}
	want := Delivery{
		OrganizationID: testOrg, EventID: "evt-42", EventType: "ACTIVITY_UPDATES",
		Timestamp: time.UnixMilli(now.Add(-2 * time.Second).UnixMilli()), KeyID: ring.ActiveKeyID(),
	}
	wantKey, err := ring.Key(context.Background(), ring.ActiveKeyID())
	if err != nil {
		t.Fatal(err)
	}
	want.Key = wantKey // the key that verified it
	if !reflect.DeepEqual(*d, want) {
		t.Fatalf("Delivery = %+v, want %+v", *d, want)
	}
}

func TestVerifyRejectsTampering(t *testing.T) {
	now := time.Now()
	ring, h := signedDelivery(t, now.Add(-time.Second))
	other, _ := NewKeyRing()
	keys := mapKeys{}
	for _, r := range []*KeyRing{ring, other} {
		kid := r.ActiveKeyID()
		keys[kid] = publishedKey(t, r.JWKS(), kid)
	}

	flipHex := func(s string) string {
		b := []byte(s)
		if b[10] == '0' {
			b[10] = '1'
		} else {
			b[10] = '0'
		}
		return string(b)
	}
	tests := []struct {
		name string
		edit func(h http.Header) []byte
		want error
	}{
		{"body changed", func(h http.Header) []byte {
			return []byte(strings.Replace(string(testBody), "COMPLETED", "FAILED", 1))
		}, ErrBadSignature},
		{"body extended", func(h http.Header) []byte { return append(append([]byte{}, testBody...), ' ') }, ErrBadSignature},
		{"signature changed", func(h http.Header) []byte {
			h.Set(HeaderSignature, flipHex(h.Get(HeaderSignature)))
			return testBody
		}, ErrBadSignature},
		{"event id changed", func(h http.Header) []byte { h.Set(HeaderEventID, "evt-43"); return testBody }, ErrBadSignature},
		{"timestamp changed within window", func(h http.Header) []byte {
			ms, _ := strconv.ParseInt(h.Get(HeaderTimestamp), 10, 64)
			h.Set(HeaderTimestamp, strconv.FormatInt(ms+1, 10))
			return testBody
		}, ErrBadSignature},
		{"key id of another published key", func(h http.Header) []byte {
			h.Set(HeaderKeyID, other.ActiveKeyID())
			return testBody
		}, ErrBadSignature},
		{"key id unknown", func(h http.Header) []byte { h.Set(HeaderKeyID, "nope"); return testBody }, ErrUnknownKey},
		{"organization header swapped", func(h http.Header) []byte {
			h.Set(HeaderOrganizationID, "another-org")
			return testBody
		}, ErrBadSignature},
		{"algorithm changed", func(h http.Header) []byte { h.Set(HeaderAlgorithm, "hmac-sha256"); return testBody }, ErrMalformed},
		{"version changed", func(h http.Header) []byte { h.Set(HeaderVersion, "v0"); return testBody }, ErrMalformed},
		{"signature missing", func(h http.Header) []byte { h.Del(HeaderSignature); return testBody }, ErrMalformed},
		{"signature short", func(h http.Header) []byte {
			h.Set(HeaderSignature, h.Get(HeaderSignature)[:126])
			return testBody
		}, ErrMalformed},
		{"signature not hex", func(h http.Header) []byte {
			h.Set(HeaderSignature, "zz"+h.Get(HeaderSignature)[2:])
			return testBody
		}, ErrMalformed},
		{"timestamp with sign", func(h http.Header) []byte {
			h.Set(HeaderTimestamp, "+"+h.Get(HeaderTimestamp))
			return testBody
		}, ErrMalformed},
		{"event id repeated", func(h http.Header) []byte { h.Add(HeaderEventID, "evt-99"); return testBody }, ErrMalformed},
		{"event id with dot", func(h http.Header) []byte { h.Set(HeaderEventID, "evt.42"); return testBody }, ErrMalformed},
		{"event type missing", func(h http.Header) []byte { h.Del(HeaderEventType); return testBody }, ErrMalformed},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			hh := h.Clone()
			body := tc.edit(hh)
			d, err := Verify(hh, body, keys, now, 0)
			if !errors.Is(err, tc.want) {
				t.Fatalf("Verify = %+v, %v; want %v", d, err, tc.want)
			}
			if d != nil {
				t.Fatalf("Verify returned a delivery with an error")
			}
		})
	}
	// And the untouched delivery verifies against the same keys.
	if _, err := Verify(h, testBody, keys, now, 0); err != nil {
		t.Fatalf("original delivery: %v", err)
	}
}

func TestVerifyTimestampWindow(t *testing.T) {
	now := time.Now()
	cases := []struct {
		name   string
		signed time.Time
		maxAge time.Duration
		want   error
	}{
		{"just inside default 5m", now.Add(-5*time.Minute + time.Second), 0, nil},
		{"older than default 5m", now.Add(-5*time.Minute - time.Second), 0, ErrStale},
		{"an hour old", now.Add(-time.Hour), 0, ErrStale},
		{"custom 30s, 31s old", now.Add(-31 * time.Second), 30 * time.Second, ErrStale},
		{"custom 1h, 59m old", now.Add(-59 * time.Minute), time.Hour, nil},
		{"30s ahead", now.Add(30 * time.Second), 0, nil},
		{"2m ahead", now.Add(2 * time.Minute), 0, ErrStale},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ring, h := signedDelivery(t, tc.signed)
			_, err := Verify(h, testBody, ring, now, tc.maxAge)
			if !errors.Is(err, tc.want) || (tc.want == nil && err != nil) {
				t.Fatalf("Verify: %v, want %v", err, tc.want)
			}
		})
	}
}

// A replayed old delivery must not make the receiver look up (and so
// possibly fetch) keys.
func TestVerifyStaleBeforeKeyLookup(t *testing.T) {
	now := time.Now()
	_, h := signedDelivery(t, now.Add(-time.Hour))
	_, err := Verify(h, testBody, panicKeys{}, now, 0)
	if !errors.Is(err, ErrStale) {
		t.Fatalf("Verify: %v, want ErrStale", err)
	}
}

type panicKeys struct{}

func (panicKeys) Key(context.Context, string) (ed25519.PublicKey, error) {
	panic("key lookup for a stale delivery")
}

func TestVerifyErrorsAreSafeToPrint(t *testing.T) {
	now := time.Now()
	ring, h := signedDelivery(t, now)
	h.Set(HeaderAlgorithm, "\x1b]0;pwned\x07\u202e")
	_, err := Verify(h, testBody, ring, now, 0)
	if err == nil {
		t.Fatal("accepted")
	}
	for _, r := range err.Error() {
		if r < 0x20 || r == 0x7f || r == 0x202e {
			t.Fatalf("error carries control character %U: %q", r, err.Error())
		}
	}
}

func FuzzVerify(f *testing.F) {
	ring, err := NewKeyRing()
	if err != nil {
		f.Fatal(err)
	}
	kid := ring.ActiveKeyID()
	pub, _ := ring.Key(context.Background(), kid)
	now := time.Now()
	h, _ := ring.Sign(testOrg, "evt-1", now, testBody)
	f.Add(kid, h.Get(HeaderTimestamp), "evt-1", h.Get(HeaderSignature), "ed25519", "v1", testOrg, "ACTIVITY_UPDATES", testBody)
	f.Add(kid, "0", "evt-1", h.Get(HeaderSignature), "ed25519", "v1", testOrg, "ACTIVITY_UPDATES", testBody)
	f.Add(kid, "99999999999999999999", "e", "", "ed25519", "v1", "o", "t", []byte{})
	f.Add("", "", "", "", "", "", "", "", []byte(nil))
	f.Add(kid, h.Get(HeaderTimestamp), "evt-1", strings.ToUpper(h.Get(HeaderSignature)), "ed25519", "v1", "x", "ACTIVITY_UPDATES", []byte(`{"organizationId":5}`))
	f.Fuzz(func(t *testing.T, kidH, tsH, eventH, sigH, algH, verH, orgH, typeH string, body []byte) {
		hh := http.Header{}
		for name, v := range map[string]string{
			HeaderKeyID: kidH, HeaderTimestamp: tsH, HeaderEventID: eventH, HeaderSignature: sigH,
			HeaderAlgorithm: algH, HeaderVersion: verH, HeaderOrganizationID: orgH, HeaderEventType: typeH,
		} {
			hh.Set(name, v)
		}
		d, err := Verify(hh, body, ring, now, 0)
		if err != nil {
			if d != nil {
				t.Fatal("delivery returned with an error")
			}
			return
		}
		// Accepted: it must really be a valid signature over the v1 message,
		// checked independently.
		sig, herr := hex.DecodeString(sigH)
		msg := append([]byte("v1.ed25519."+kidH+"."+tsH+"."+eventH+"."), body...)
		if herr != nil || kidH != kid || !ed25519.Verify(pub, msg, sig) {
			t.Fatalf("accepted a delivery that does not verify: %q", hh)
		}
		if d.EventID != eventH || d.KeyID != kidH || d.OrganizationID != orgH || d.EventType != EventTypeActivityUpdates {
			t.Fatalf("delivery %+v does not match headers %q", d, hh)
		}
	})
}

func BenchmarkSign(b *testing.B) {
	ring, err := NewKeyRing()
	if err != nil {
		b.Fatal(err)
	}
	body := []byte(`{"organizationId":"` + testOrg + `","pad":"` + strings.Repeat("x", 2000) + `"}`)
	ts := time.Now()
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ring.Sign(testOrg, "evt-1", ts, body); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkVerify(b *testing.B) {
	ring, err := NewKeyRing()
	if err != nil {
		b.Fatal(err)
	}
	body := []byte(`{"organizationId":"` + testOrg + `","pad":"` + strings.Repeat("x", 2000) + `"}`)
	now := time.Now()
	h, err := ring.Sign(testOrg, "evt-1", now, body)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Verify(h, body, ring, now, 0); err != nil {
			b.Fatal(err)
		}
	}
}

// Every organization's deliveries are signed with the service's keys: a
// receiver verifying for its organization refuses another organization's
// genuine delivery, before any key lookup, and one whose signed body does not
// name the organization.
func TestVerifyForOrganizationRefusesOtherOrganizations(t *testing.T) {
	now := time.Now()
	ring, h := signedDelivery(t, now.Add(-time.Second))
	if _, err := VerifyForOrganization(context.Background(), testOrg, h, testBody, ring, now, 0); err != nil {
		t.Fatalf("own organization's delivery: %v", err)
	}
	if _, err := Verify(h, testBody, ring, now, 0); err != nil {
		t.Fatalf("Verify without an organization: %v", err)
	}
	_, err := VerifyForOrganization(context.Background(), otherOrg, h, testBody, panicKeys{}, now, 0)
	if !errors.Is(err, ErrOtherOrganization) || !strings.Contains(err.Error(), testOrg) || !strings.Contains(err.Error(), otherOrg) {
		t.Fatalf("another organization's delivery: %v, want ErrOtherOrganization naming both", err)
	}

	noOrg := []byte(`{"id":"act-1","status":"ACTIVITY_STATUS_COMPLETED"}`)
	h, err = ring.Sign(testOrg, "evt-43", now, noOrg)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := VerifyForOrganization(context.Background(), testOrg, h, noOrg, ring, now, 0); !errors.Is(err, ErrOtherOrganization) {
		t.Fatalf("a body without organizationId: %v, want ErrOtherOrganization", err)
	}
	if _, err := VerifyForOrganization(context.Background(), "", h, testBody, ring, now, 0); err == nil {
		t.Fatal("verified for no organization")
	}
}

// Outside the window, a delivery is told genuine (ErrStale: the clocks
// disagree, a receiver answers so that the service retries) from forged
// (ErrBadSignature, refused for good) with a key already held.
func TestVerifyStaleTellsGenuineFromForged(t *testing.T) {
	now := time.Now()
	ring, h := signedDelivery(t, now.Add(-time.Hour))
	if _, err := Verify(h, testBody, ring, now, 0); !errors.Is(err, ErrStale) || errors.Is(err, ErrBadSignature) {
		t.Errorf("genuine delivery signed an hour ago: %v, want ErrStale", err)
	}
	forged := append([]byte(nil), testBody...)
	forged[len(forged)-2] ^= 1
	if _, err := Verify(h, forged, ring, now, 0); !errors.Is(err, ErrBadSignature) || errors.Is(err, ErrStale) {
		t.Errorf("forged delivery signed an hour ago: %v, want ErrBadSignature", err)
	}
}
