package api

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"testing"

	"github.com/vigil-console/vigil/keys"
)

// hashStamper is a deterministic test stamper: the stamp is the SHA-256 of the body,
// so the benchmark measures the client's own marshal+stamp path, not a curve.
type hashStamper struct{}

func (hashStamper) Stamp(body []byte) (string, string, error) {
	sum := sha256.Sum256(body)
	return keys.HeaderStamp, hex.EncodeToString(sum[:]), nil
}

// buildSubmit is the client's submit path up to the network: validate, marshal
// parameters and envelope once, stamp those bytes.
func buildSubmit(b *testing.B, st keys.Stamper, op Operation, p Params) {
	req, err := NewActivityRequest(op, testOrg, p, fixedNow.UnixMilli(), true)
	if err != nil {
		b.Fatal(err)
	}
	body, err := marshalJSON(req)
	if err != nil {
		b.Fatal(err)
	}
	if _, _, err := st.Stamp(body); err != nil {
		b.Fatal(err)
	}
}

func BenchmarkSubmitMarshalStamp(b *testing.B) {
	p := validParams()[TypeCreateInvitations]
	op, _ := OperationByType(TypeCreateInvitations)
	p256, err := keys.Generate(keys.SchemeP256)
	if err != nil {
		b.Fatal(err)
	}
	ed, err := keys.Generate(keys.SchemeEd25519)
	if err != nil {
		b.Fatal(err)
	}
	for _, bc := range []struct {
		name string
		st   keys.Stamper
	}{{"hash", hashStamper{}}, {"p256", p256}, {"ed25519", ed}} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				buildSubmit(b, bc.st, op, p)
			}
		})
	}
}

func BenchmarkSanitizeValueActivity(b *testing.B) {
	var a ActivityResponse
	if err := json.Unmarshal([]byte(activityReply), &a); err != nil {
		b.Fatal(err)
	}
	a.Activity.Votes = make([]Vote, 3)
	for i := range a.Activity.Votes {
		a.Activity.Votes[i] = Vote{ID: "v", UserID: "u", User: User{UserName: "alice \x1b[31m", UserTags: []string{"t"}}, Message: "ok"}
	}
	b.ReportAllocs()
	for b.Loop() {
		cp := a.Activity
		cp.Votes = append([]Vote(nil), a.Activity.Votes...)
		SanitizeValue(&cp)
	}
}

func TestHashStamperSignsExactBytes(t *testing.T) {
	// The benchmark's stamper must really depend on the body.
	_, a, _ := hashStamper{}.Stamp([]byte(`{"a":1}`))
	_, b, _ := hashStamper{}.Stamp([]byte(`{"a":2}`))
	if a == b {
		t.Fatal("hashStamper ignores the body")
	}
}
