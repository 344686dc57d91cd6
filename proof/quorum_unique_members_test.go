package proof

import (
	"bytes"
	"crypto/ecdsa"
	"strings"
	"testing"
)

// QOS's check_approvals (qos_core boot.rs: ensure_unique_members, then
// DuplicateApproval) refuses each of these envelopes, and so must vigil,
// naming the members; each once came out VERIFIED "threshold 2 of 3".
func TestQuorumSetsQOSRefusesFailApprovals(t *testing.T) {
	var signers [3]*ecdsa.PrivateKey
	var pubs [3][]byte
	for i := range pubs {
		var err error
		if signers[i], pubs[i], _, err = newQOSKey(); err != nil {
			t.Fatal(err)
		}
	}
	mem := func(i int, alias string) Member { return Member{Alias: alias, PubKey: pubs[i]} }
	notAPoint := append([]byte{4}, bytes.Repeat([]byte{0xff}, 64)...)
	badSigning := append(append([]byte{}, pubs[2][:65]...), notAPoint...)
	badEncryption := append(append([]byte{}, notAPoint...), pubs[2][65:]...)
	sharedEncryption := append(append([]byte{}, pubs[0][:65]...), pubs[1][65:]...) // alice's encryption half, key 1's signing half
	alice, bob, carol := mem(0, "alice"), mem(1, "bob"), mem(2, "carol")

	for _, tc := range []struct {
		name    string
		members []Member
		signers []int    // keys signing each approval
		as      []Member // the member each approval names
		want    string   // "" for the control, which must verify
	}{
		{"control", []Member{alice, bob, carol}, []int{0, 1}, []Member{alice, bob}, ""},
		{"duplicate alias", []Member{alice, mem(1, "alice"), carol}, []int{0, 1}, []Member{alice, mem(1, "alice")},
			`manifest-set members 1 and 2 are both named "alice"`},
		{"duplicate approval", []Member{alice, bob, carol}, []int{0, 0, 1}, []Member{alice, alice, bob},
			`member "alice" approved twice (approvals 1 and 2)`},
		{"shared encryption half", []Member{alice, {Alias: "bob", PubKey: sharedEncryption}, carol}, []int{0, 1}, []Member{alice, {Alias: "bob", PubKey: sharedEncryption}},
			`members "alice" and "bob" share one encryption key`},
		{"signing half not a P-256 point", []Member{alice, bob, {Alias: "carol", PubKey: badSigning}}, []int{0, 1}, []Member{alice, bob},
			`member "carol" has a malformed key (signing half is not an uncompressed P-256 point`},
		{"encryption half not a P-256 point", []Member{alice, bob, {Alias: "carol", PubKey: badEncryption}}, []int{0, 1}, []Member{alice, bob},
			`member "carol" has a malformed key (encryption half is not an uncompressed P-256 point`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			set := QuorumSet{Threshold: 2, Members: tc.members}
			bp, auth := quorumBootProof(t, set, func(hash []byte) []rawApproval {
				var out []rawApproval
				for i, s := range tc.signers {
					sig, err := signP256(signers[s], hash)
					if err != nil {
						t.Fatal(err)
					}
					out = append(out, rawApproval{signature: sig, member: tc.as[i]})
				}
				return out
			})
			rep := VerifyBootProof(bp, Options{Roots: []Root{auth.Root()}, App: "signer"})
			c := rep.Check(CheckApprovals)
			if tc.want == "" {
				if rep.Verdict != Verified {
					t.Fatalf("the control did not verify: %s", dump(rep))
				}
				return
			}
			if c.Status != Fail || rep.Verdict != Failed {
				t.Fatalf("verdict %s, approvals %s %q: QOS refuses this envelope", rep.Verdict, c.Status, c.Reason)
			}
			if !strings.Contains(c.Reason, tc.want) {
				t.Errorf("approvals reason %q does not say %q", c.Reason, tc.want)
			}
		})
	}
}
