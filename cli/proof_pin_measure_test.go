package cli

import (
	"encoding/json"
	"strings"
	"testing"
)

// fixtureMeasurements are the production fixture's PCR0 and attested
// manifest hash (its user_data) as 'proof verify --json' prints them.
func fixtureMeasurements(t *testing.T) (pcr0, manifestHash string) {
	t.Helper()
	code, out, errOut := runProof(t, "", "verify", "--json", "--boot-proof", fixtureBootProof)
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, errOut)
	}
	var rep struct {
		Document struct {
			PCRs     map[string]string
			UserData string
		}
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil || rep.Document.PCRs["0"] == "" || rep.Document.UserData == "" {
		t.Fatalf("document: %v\n%s", err, out)
	}
	return rep.Document.PCRs["0"], rep.Document.UserData
}

// A PCR pin and an allowed manifest hash mean the same as a flag and in the
// profile, as the content pins do (TestContentPinFlagAndProfileAgree): a 0x
// prefix and either case are accepted by both, and a short value, a SHA-256
// given for a PCR, or a PCR index out of range or not plainly written is
// refused by both with the same message.
func TestMeasurementPinFlagAndProfileAgree(t *testing.T) {
	pcr0, manifestHash := fixtureMeasurements(t)
	config := proofService(t)

	pcrPin := func(idx, h string) pin {
		return pin{[]string{"--expect-pcr", idx + "=" + h}, "[profiles.t.expected_pcrs.signer]\n\"" + idx + "\" = \"" + h + "\"\n"}
	}
	hashPin := func(h string) pin {
		return pin{[]string{"--allow-manifest", h}, "allowed_manifest_hashes = [\"" + h + "\"]\n"}
	}

	accepted := []acceptedPin{
		{"PCR with 0x", pcrPin("0", "0x"+pcr0), "pcr0"},
		{"PCR with 0X, upper case", pcrPin("0", "0X"+strings.ToUpper(pcr0)), "pcr0"},
		{"manifest hash with 0x", hashPin("0x" + manifestHash), "manifest-hash"},
		{"manifest hash with 0X, upper case", hashPin("0X" + strings.ToUpper(manifestHash)), "manifest-hash"},
	}
	refused := []refusedPin{
		{"short PCR with 0x", pcrPin("0", "0xabcd"), "--expect-pcr", "expected_pcrs.signer.0: ", []string{"96 hex digits"}},
		{"SHA-256 for a PCR", pcrPin("0", manifestHash), "--expect-pcr", "expected_pcrs.signer.0: ", []string{"96 hex digits"}},
		{"PCR index 32", pcrPin("32", pcr0), "--expect-pcr", "expected_pcrs.signer.32: ", []string{"0 to 31"}},
		{"PCR index 03", pcrPin("03", pcr0), "--expect-pcr", "expected_pcrs.signer.03: ", []string{"0 to 31"}},
		{"PCR index -1", pcrPin("-1", pcr0), "--expect-pcr", "expected_pcrs.signer.-1: ", []string{"0 to 31"}},
		{"short manifest hash with 0x", hashPin("0x24a9"), "--allow-manifest", "allowed_manifest_hashes: entry 1 ", []string{"64 hex digits"}},
		{"manifest hash not hex", hashPin(strings.Repeat("zz", 32)), "--allow-manifest", "allowed_manifest_hashes: entry 1 ", []string{"64 hex digits"}},
	}
	checkPinsAgree(t, config, accepted, refused)
}

// A PCR pinned twice by flags is refused rather than the last one silently
// winning, as the profile cannot pin a PCR twice (a TOML key is unique, and
// only the plain index is taken).
func TestPCRFlagPinnedTwice(t *testing.T) {
	pcr0, _ := fixtureMeasurements(t)
	code, out, errOut := runProof(t, "", "verify", "--boot-proof", fixtureBootProof,
		"--expect-pcr", "0="+strings.Repeat("00", 48), "--expect-pcr", "0="+pcr0)
	if code != 2 || !strings.Contains(errOut, "--expect-pcr") || !strings.Contains(errOut, "PCR0 is pinned twice") {
		t.Errorf("exit %d\n%s\n%s", code, out, errOut)
	}
}

// A bad PCR or manifest-hash flag is quoted only as a short, escaped excerpt.
func TestMeasurementPinFlagErrorQuotesAnExcerpt(t *testing.T) {
	checkPinFlagQuotesAnExcerpt(t, "0=", "--expect-pcr", "--allow-manifest")
}
