package cli

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/profile"
	"github.com/vigil-console/vigil/proof"
)

// fixtureQuorumKey is the production fixture's quorum key as 'proof verify
// --json' prints it.
func fixtureQuorumKey(t *testing.T) string {
	t.Helper()
	code, out, errOut := runProof(t, "", "verify", "--json", "--boot-proof", fixtureBootProof)
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, errOut)
	}
	var rep struct {
		Manifest struct {
			Namespace struct{ QuorumKey string }
		}
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil || rep.Manifest.Namespace.QuorumKey == "" {
		t.Fatalf("quorum key: %v\n%s", err, out)
	}
	return rep.Manifest.Namespace.QuorumKey
}

// lineAfter is the rest of the line of s after the first prefix, or "" when
// s lacks it.
func lineAfter(s, prefix string) string {
	_, rest, ok := strings.Cut(s, prefix)
	if !ok {
		return ""
	}
	line, _, _ := strings.Cut(rest, "\n")
	return strings.TrimSpace(line)
}

// A pin means the same as a flag and in the profile: what one accepts (a 0x
// prefix, either case) the other accepts and matches against the proof, and
// what one refuses (a 65-member set, a repeated key, a bad threshold) the
// other refuses with the same message.
func TestContentPinFlagAndProfileAgree(t *testing.T) {
	pivot, _, members := fixtureContent(t)
	quorumKey := fixtureQuorumKey(t)
	config := proofService(t)
	tomlList := func(keys []string) string { return `["` + strings.Join(keys, `", "`) + `"]` }
	var many []string
	for i := range 65 {
		many = append(many, fmt.Sprintf("04%0258x", i+1))
	}

	pivotPin := func(h string) pin {
		return pin{[]string{"--expect-pivot", h}, "[profiles.t.expected_pivot_hashes]\nsigner = [\"" + h + "\"]\n"}
	}
	quorumPin := func(h string) pin {
		return pin{[]string{"--expect-quorum-key", h}, "[profiles.t.expected_quorum_keys]\nsigner = \"" + h + "\"\n"}
	}
	setPin := func(threshold int, keys []string) pin {
		return pin{[]string{"--expect-manifest-set", fmt.Sprintf("%d:%s", threshold, strings.Join(keys, ","))},
			fmt.Sprintf("[profiles.t.expected_manifest_sets.signer]\nthreshold = %d\nmembers = %s\n", threshold, tomlList(keys))}
	}

	accepted := []acceptedPin{
		{"pivot with 0x, upper case", pivotPin("0x" + strings.ToUpper(pivot)), "pivot-hash"},
		{"quorum key with 0x", quorumPin("0x" + quorumKey), "quorum-key"},
		{"set members with 0x and 0X", setPin(2, []string{"0x" + members[0], "0X" + strings.ToUpper(members[1])}), "manifest-set"},
	}
	refused := []refusedPin{
		{"short pivot", pivotPin("0xabcd"), "--expect-pivot", "expected_pivot_hashes.signer: entry 1 ", []string{"64 hex digits"}},
		{"quorum key not hex", quorumPin("zz"), "--expect-quorum-key", "expected_quorum_keys.signer: ", []string{"260 hex digits"}},
		{"65 members", setPin(2, many), "--expect-manifest-set", "expected_manifest_sets.signer.", []string{"65", "64"}},
		{"member twice", setPin(1, []string{members[0], "0x" + strings.ToUpper(members[0])}), "--expect-manifest-set", "expected_manifest_sets.signer.", []string{"same key"}},
		{"short member", setPin(1, []string{"04ab"}), "--expect-manifest-set", "expected_manifest_sets.signer.", []string{"entry 1", "260 hex digits"}},
		{"threshold over members", setPin(3, members), "--expect-manifest-set", "expected_manifest_sets.signer.", []string{"threshold", "from 1 to the 2 members"}},
		{"threshold 0", setPin(0, members), "--expect-manifest-set", "expected_manifest_sets.signer.", []string{"threshold", "from 1 to the 2 members"}},
	}
	checkPinsAgree(t, config, accepted, refused)
}

// A bad pin is quoted in the error only as a short, escaped excerpt: a long
// paste or a terminal escape in it does not flood or drive the terminal.
func TestContentPinFlagErrorQuotesAnExcerpt(t *testing.T) {
	checkPinFlagQuotesAnExcerpt(t, "", "--expect-pivot", "--expect-manifest-set")
}

// A pinned manifest set is bounded as the verifier bounds a manifest's: a
// pin the verifier could never match is refused when it is read.
func TestManifestSetPinBoundIsTheVerifiers(t *testing.T) {
	if profile.MaxManifestSetMembers != proof.MaxSetMembers {
		t.Errorf("a pinned set may hold %d members, a manifest's %d", profile.MaxManifestSetMembers, proof.MaxSetMembers)
	}
}

// pin is one pin written as flags and as the same profile keys.
type pin struct {
	flag    []string // the pin as flags
	profile string   // the same pin as profile keys
}

// acceptedPin is a pin both ways accept and match against the fixture.
type acceptedPin struct {
	name string
	pin  pin
	want string // the pin that passes against the fixture
}

// refusedPin is a pin both ways refuse with the same message, which
// follows flagName then ": " on the flag's error and key on the config
// error.
type refusedPin struct {
	name          string
	pin           pin
	flagName, key string
	says          []string
}

// checkPinsAgree runs each pin through 'proof verify' flags and a 'proof
// fetch' profile (config makes one, proofService): accepted ones pass
// against the production fixture both ways, refused ones fail both ways
// with the same message.
func checkPinsAgree(t *testing.T, config func(string) string, accepted []acceptedPin, refused []refusedPin) {
	t.Helper()
	for _, tc := range accepted {
		code, out, errOut := runProof(t, "", append([]string{"verify", "--boot-proof", fixtureBootProof}, tc.pin.flag...)...)
		if code != 0 || !strings.Contains(out, "✓ pins") || !strings.Contains(out, tc.want) {
			t.Errorf("%s, flag: exit %d\n%s\n%s", tc.name, code, out, errOut)
		}
		code, out, errOut = runProof(t, "", "fetch", "--app", "signer", "--config", config(tc.pin.profile))
		if code != 0 || !strings.Contains(out, "✓ pins") || !strings.Contains(out, tc.want) {
			t.Errorf("%s, profile: exit %d\n%s\n%s", tc.name, code, out, errOut)
		}
	}
	for _, tc := range refused {
		code, out, errOut := runProof(t, "", append([]string{"verify", "--boot-proof", fixtureBootProof}, tc.pin.flag...)...)
		_, flagMsg, _ := strings.Cut(lineAfter(errOut, tc.flagName), ": ")
		if code != 2 || flagMsg == "" {
			t.Errorf("%s, flag: exit %d, want 2 naming %s\n%s\n%s", tc.name, code, tc.flagName, out, errOut)
			continue
		}
		code, out, errOut = runProof(t, "", "fetch", "--app", "signer", "--config", config(tc.pin.profile))
		profileMsg := lineAfter(errOut, tc.key)
		if code == 0 || profileMsg == "" {
			t.Errorf("%s, profile: exit %d, want a config error at %s\n%s\n%s", tc.name, code, tc.key, out, errOut)
			continue
		}
		if flagMsg != profileMsg {
			t.Errorf("%s: the flag says %q, the profile %q", tc.name, flagMsg, profileMsg)
		}
		for _, s := range tc.says {
			if !strings.Contains(flagMsg, s) {
				t.Errorf("%s: %q does not say %q", tc.name, flagMsg, s)
			}
		}
	}
}

// checkPinFlagQuotesAnExcerpt gives each flag a long value (after prefix)
// starting with a terminal escape: the error names the flag, is short and
// holds no raw escape.
func checkPinFlagQuotesAnExcerpt(t *testing.T, prefix string, flags ...string) {
	t.Helper()
	bad := prefix + "\x1b[2J" + strings.Repeat("z", 100_000)
	for _, flag := range flags {
		code, _, errOut := runProof(t, "", "verify", "--boot-proof", fixtureBootProof, flag, bad)
		if code != 2 || !strings.Contains(errOut, flag) || strings.Contains(errOut, "\x1b") || len(errOut) > 2000 {
			t.Errorf("%s: exit %d, %d bytes: %.300q", flag, code, len(errOut), errOut)
		}
	}
}
