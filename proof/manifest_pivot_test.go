package proof

import (
	"encoding/binary"
	"fmt"
	"strings"
	"testing"
)

// v1ManifestWithPivot is a QOS Borsh v1 manifest whose pivot has the given
// number of bridges (Client(port 0, None), 4 bytes each) and empty args.
func v1ManifestWithPivot(bridges, args int) []byte {
	var b []byte
	u32 := func(v uint32) { b = binary.LittleEndian.AppendUint32(b, v) }
	str := func(s string) { u32(uint32(len(s))); b = append(b, s...) }
	str("evil/signer")
	u32(1)
	u32(0)                             // quorum_key
	b = append(b, make([]byte, 32)...) // pivot.hash
	b = append(b, 0)                   // restart Never
	u32(uint32(bridges))
	for range bridges {
		b = append(b, 1, 0, 0, 0) // Client, port 0, host None
	}
	b = append(b, 0) // debug_mode
	u32(uint32(args))
	for range args {
		str("")
	}
	for range 2 { // manifest_set, share_set: threshold 1, no members
		u32(1)
		u32(0)
	}
	for range 5 { // pcr0..3, aws_root_certificate
		u32(0)
	}
	str("") // qos_commit
	u32(0)  // patch_set threshold
	u32(0)  // patch_set members
	return b
}

// jsonManifestWithPivot is a v2 manifest whose pivot has the given number of
// bridges and args.
func jsonManifestWithPivot(bridges, args int) string {
	m := jsonManifestWithMembers(1)
	bc := strings.TrimSuffix(strings.Repeat(`{"type":"client","port":1},`, bridges), ",")
	as := strings.TrimSuffix(strings.Repeat(`"--x",`, args), ",")
	m = strings.Replace(m, `"bridgeConfig":[]`, `"bridgeConfig":[`+bc+`]`, 1)
	return strings.Replace(m, `"args":[]`, `"args":[`+as+`]`, 1)
}

// A pivot's bridges and args are bounded at decode, in Borsh v1 and JSON v2:
// one at the limit is read, one over it fails manifest-decode saying so
// (bounded only by the 1 MiB manifest, 250,000 bridges froze the console).
func TestPivotBridgesAndArgsAreBounded(t *testing.T) {
	for _, tc := range []struct {
		name          string
		manifest      func(bridges, args int) []byte
		v2            bool
		bridges, args int
		want          string // "" when the manifest must decode
	}{
		{"Borsh at the limits", v1ManifestWithPivot, false, maxBridges, maxArgs, ""},
		{"Borsh bridges", v1ManifestWithPivot, false, 250_000, 0, fmt.Sprintf("250000 bridges, over the limit of %d", maxBridges)},
		{"Borsh args", v1ManifestWithPivot, false, 0, maxArgs + 1, fmt.Sprintf("%d args, over the limit of %d", maxArgs+1, maxArgs)},
		{"JSON at the limits", jsonPivot, true, maxBridges, maxArgs, ""},
		{"JSON bridges", jsonPivot, true, maxBridges + 1, 0, fmt.Sprintf("pivot.bridgeConfig: %d bridges, over the limit of %d", maxBridges+1, maxBridges)},
		{"JSON args", jsonPivot, true, 0, maxArgs + 1, fmt.Sprintf("pivot.args: %d args, over the limit of %d", maxArgs+1, maxArgs)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			bp := hostileBootProof(tc.manifest(tc.bridges, tc.args), nil)
			if tc.v2 {
				bp.QosManifestVersion = "v2"
			}
			rep := VerifyBootProof(bp, Options{})
			c := rep.Check(CheckManifestDecode)
			if tc.want == "" {
				if c.Status != Pass || rep.Manifest == nil || len(rep.Manifest.Pivot.Bridges) != tc.bridges || len(rep.Manifest.Pivot.Args) != tc.args {
					t.Fatalf("a pivot of %d bridges and %d args was not read: %s %q", tc.bridges, tc.args, c.Status, c.Reason)
				}
				return
			}
			if c.Status != Fail || !strings.Contains(c.Reason, tc.want) {
				t.Errorf("manifest-decode is %s %q, want a failure saying %q", c.Status, c.Reason, tc.want)
			}
			if rep.Verdict != Failed || rep.Manifest != nil {
				t.Errorf("an over-limit manifest was shown or passed: verdict %s", rep.Verdict)
			}
		})
	}
}

func jsonPivot(bridges, args int) []byte { return []byte(jsonManifestWithPivot(bridges, args)) }

// ShownArgs keeps the args line bounded for people, says how many were left
// out, and always shows at least the first.
func TestShownArgsIsBounded(t *testing.T) {
	args := make([]string, maxArgs)
	for i := range args {
		args[i] = strings.Repeat("a", MaxShownConfig)
	}
	shown, more := ShownArgs(args)
	if len(strings.Join(shown, " ")) > MaxShownArgs || more != len(args)-len(shown) || len(shown) == 0 {
		t.Errorf("shown %d args (%d bytes), %d more, of %d", len(shown), len(strings.Join(shown, " ")), more, len(args))
	}
	few := []string{"--port", "3000"}
	if shown, more := ShownArgs(few); len(shown) != 2 || more != 0 {
		t.Errorf("a short args list was cut: %q, %d more", shown, more)
	}
}
