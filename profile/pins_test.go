package profile

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func loadPinsConfig(t *testing.T, text string) (Profile, error) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "c.toml")
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	return Select(envOf(nil), path, "", Checks{})
}

const pinsHead = "[profiles.p]\nbase_url = \"https://a.example\"\norganization_id = \"o\"\n"

var (
	keyA = "04" + strings.Repeat("AB", 129)
	keyB = "04" + strings.Repeat("cd", 129)
)

// The content pins are read per app and lower-cased.
func TestContentPinsLoad(t *testing.T) {
	p, err := loadPinsConfig(t, pinsHead+`
[profiles.p.expected_pivot_hashes]
signer = ["`+strings.Repeat("AA", 32)+`"]
[profiles.p.expected_quorum_keys]
signer = "`+keyA+`"
[profiles.p.expected_manifest_sets.signer]
threshold = 2
members = ["`+keyA+`", "`+keyB+`"]
`)
	if err != nil {
		t.Fatal(err)
	}
	if got := p.ExpectedPivotHashes["signer"]; len(got) != 1 || got[0] != strings.Repeat("aa", 32) {
		t.Errorf("pivot hashes = %q", got)
	}
	if got := p.ExpectedQuorumKeys["signer"]; got != strings.ToLower(keyA) {
		t.Errorf("quorum key = %q", got)
	}
	if s := p.ExpectedManifestSets["signer"]; s.Threshold != 2 || len(s.Members) != 2 || s.Members[0] != strings.ToLower(keyA) {
		t.Errorf("manifest set = %+v", s)
	}

	// The dotted form the console's help shows, above the sub-tables.
	p, err = loadPinsConfig(t, pinsHead+`expected_pivot_hashes.signer = ["`+strings.Repeat("aa", 32)+`"]
expected_manifest_sets.signer = { threshold = 1, members = ["`+keyB+`"] }
[profiles.p.expected_pcrs.signer]
0 = "`+strings.Repeat("00", 48)+`"
`)
	if err != nil || len(p.ExpectedPivotHashes["signer"]) != 1 || p.ExpectedManifestSets["signer"].Threshold != 1 {
		t.Errorf("dotted keys: %+v, %v", p, err)
	}
}

// Every bad pin is refused, the error naming the key and what to write.
func TestContentPinsRefused(t *testing.T) {
	for _, tc := range []struct{ name, text, want string }{
		{"short pivot", "[profiles.p.expected_pivot_hashes]\nsigner = [\"abcd\"]\n",
			"expected_pivot_hashes.signer: entry 1 must be 64 hex digits"},
		{"empty pivot list", "[profiles.p.expected_pivot_hashes]\nsigner = []\n",
			"expected_pivot_hashes.signer: is empty"},
		{"quorum key not hex", "[profiles.p.expected_quorum_keys]\nsigner = \"zz\"\n",
			"expected_quorum_keys.signer: must be 260 hex digits"},
		{"threshold over members", "[profiles.p.expected_manifest_sets.signer]\nthreshold = 3\nmembers = [\"" + keyA + "\", \"" + keyB + "\"]\n",
			"expected_manifest_sets.signer.threshold: is 3; give the fewest approvals the manifest set must require, from 1 to the 2 members"},
		{"threshold missing", "[profiles.p.expected_manifest_sets.signer]\nmembers = [\"" + keyA + "\"]\n",
			"expected_manifest_sets.signer.threshold: is 0"},
		{"no members", "[profiles.p.expected_manifest_sets.signer]\nthreshold = 1\n",
			"expected_manifest_sets.signer.members: is empty"},
		{"short member", "[profiles.p.expected_manifest_sets.signer]\nthreshold = 1\nmembers = [\"04ab\"]\n",
			"members: entry 1 must be 260 hex digits"},
		{"member twice", "[profiles.p.expected_manifest_sets.signer]\nthreshold = 1\nmembers = [\"" + keyA + "\", \"" + strings.ToLower(keyA) + "\"]\n",
			"entries 1 and 2 are the same key"},
		{"misspelt key", "[profiles.p.expected_manifest_sets.signer]\nthreshold = 1\nmembers = [\"" + keyA + "\"]\nThreshold = 1\n",
			"keys are lower case"},
	} {
		_, err := loadPinsConfig(t, pinsHead+tc.text)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want it to say %q", tc.name, err, tc.want)
		}
	}
}

// A pin may be written as the flags take it, with 0x, and is kept as plain
// lower-case hex; a manifest set is bounded as the verifier bounds one.
func TestContentPinsEdges(t *testing.T) {
	pivot := strings.Repeat("Ab", 32)
	p, err := loadPinsConfig(t, pinsHead+`
[profiles.p.expected_pivot_hashes]
signer = ["0x`+pivot+`"]
[profiles.p.expected_quorum_keys]
signer = "0X`+keyA+`"
[profiles.p.expected_manifest_sets.signer]
threshold = 1
members = ["0x`+keyA+`", "`+keyB+`"]
`)
	if err != nil {
		t.Fatal(err)
	}
	if got := p.ExpectedPivotHashes["signer"]; len(got) != 1 || got[0] != strings.ToLower(pivot) {
		t.Errorf("pivot hashes = %q", got)
	}
	if got := p.ExpectedQuorumKeys["signer"]; got != strings.ToLower(keyA) {
		t.Errorf("quorum key = %q", got)
	}
	if got := p.ExpectedManifestSets["signer"].Members; len(got) != 2 || got[0] != strings.ToLower(keyA) || got[1] != strings.ToLower(keyB) {
		t.Errorf("members = %q", got)
	}

	// The same key with and without 0x is listed twice.
	_, err = loadPinsConfig(t, pinsHead+"[profiles.p.expected_manifest_sets.signer]\nthreshold = 1\nmembers = [\"0x"+keyA+"\", \""+keyA+"\"]\n")
	if err == nil || !strings.Contains(err.Error(), "members: entries 1 and 2 are the same key") {
		t.Errorf("0x and plain key: %v", err)
	}

	set := func(n int) string {
		var keys []string
		for i := range n {
			keys = append(keys, fmt.Sprintf("\"04%0258x\"", i+1))
		}
		return pinsHead + "[profiles.p.expected_manifest_sets.signer]\nthreshold = 1\nmembers = [" + strings.Join(keys, ", ") + "]\n"
	}
	if _, err := loadPinsConfig(t, set(MaxManifestSetMembers)); err != nil {
		t.Errorf("%d members: %v", MaxManifestSetMembers, err)
	}
	_, err = loadPinsConfig(t, set(MaxManifestSetMembers+1))
	want := fmt.Sprintf("c.toml:6: profiles.p.expected_manifest_sets.signer.members: lists %d keys, over the %d", MaxManifestSetMembers+1, MaxManifestSetMembers)
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("%d members: %v, want it to say %q", MaxManifestSetMembers+1, err, want)
	}
}
