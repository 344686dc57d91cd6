package api

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"slices"
	"strings"
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
	body, err := Marshal(req)
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

// BenchmarkSanitizeValueActivities measures the sanitising of a decoded
// list_activities reply of 100 activities (the console's largest page), each with
// three votes and one hostile user name.
func BenchmarkSanitizeValueActivities(b *testing.B) {
	var one ActivityResponse
	if err := json.Unmarshal([]byte(activityReply), &one); err != nil {
		b.Fatal(err)
	}
	one.Activity.Intent.CreatePolicyIntentV3 = &CreatePolicyParams{PolicyName: "p", Effect: EffectAllow, Condition: "true", Notes: "n"}
	one.Activity.Votes = make([]Vote, 3)
	for i := range one.Activity.Votes {
		one.Activity.Votes[i] = Vote{ID: "v", UserID: "u", User: User{UserName: "alice", UserTags: []string{"t"}}, Message: "ok"}
	}
	one.Activity.Votes[2].User.UserName = "mallory\x1b[31m"
	page, err := json.Marshal(ListActivitiesResponse{Activities: slices.Repeat([]Activity{one.Activity}, 100)})
	if err != nil {
		b.Fatal(err)
	}
	for _, sanitize := range []bool{false, true} {
		name := "decode"
		if sanitize {
			name = "decode+sanitize"
		}
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(page)))
			b.ReportAllocs()
			for b.Loop() {
				var r ListActivitiesResponse
				if err := json.Unmarshal(page, &r); err != nil {
					b.Fatal(err)
				}
				if sanitize {
					SanitizeValue(&r)
				}
			}
		})
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

// BenchmarkSanitize measures the display escaping of 1,000 runes of text, as
// every table cell of every frame goes through it: plain ASCII (the fast path),
// CJK and Cyrillic (non-ASCII, nothing to escape), and hostile text (escapes).
func BenchmarkSanitize(b *testing.B) {
	for name, s := range map[string]string{
		"ascii":    strings.Repeat("policy-1 ", 111),
		"cjk":      strings.Repeat("日本語のテキスト", 125),
		"cyrillic": strings.Repeat("политика ", 111),
		"hostile":  strings.Repeat("ad\u200bmin\x1b[2J\u202e", 100),
	} {
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				Sanitize(s)
			}
		})
	}
}

// BenchmarkStrictUnmarshal: the service reads every request body this way;
// here the console's pending-list query.
//
//	go test -run '^$' -bench StrictUnmarshal -benchmem ./api/
func BenchmarkStrictUnmarshal(b *testing.B) {
	body := []byte(`{"organizationId":"01a20841-d94e-70c2-89a1-2182c93e0ff3","filterByStatus":["ACTIVITY_STATUS_CONSENSUS_NEEDED"],"paginationOptions":{"limit":"100"}}`)
	b.ReportAllocs()
	for b.Loop() {
		var req ListActivitiesRequest
		if err := StrictUnmarshal(body, &req); err != nil {
			b.Fatal(err)
		}
	}
}
