package proof

import (
	"bytes"
	"encoding/json"
	"fmt"
	mrand "math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestV2ManifestRespellingMutations is the JSON v2 class of the mutation fuzz
// (TestProofMutations runs Borsh only): the service re-spells the attested
// v2 manifest it ships in what the hash does not see (spacing, key order,
// integers as numbers or strings, members whose value is null). Oracle: a
// report that is not FAILED shows exactly the manifest the genuine proof
// shows, its bridges, env and dns included.
func TestV2ManifestRespellingMutations(t *testing.T) {
	now := time.Now()
	e := fzBuild(t, now)
	booted := v2ManifestWith(e, `{"A":"x","B":{"c":"1"},"PORT":"8080"}`,
		`{"host":"10.9.9.9","port":"3000","type":"server"},{"host":"db.internal","port":"5432","type":"client"}`)
	booted = bytes.Replace(booted, []byte(`"enclave":{`), []byte(`"dns":{"servers":["10.0.0.53"],"ttl":"60"},"enclave":{`), 1)
	opts := Options{Roots: []Root{e.auth.Root()}}
	genuine := VerifyBootProof(v2ProofShipping(t, e, now, booted, booted), opts)
	if genuine.Verdict != Verified || genuine.Manifest == nil || len(genuine.Manifest.Pivot.Bridges) != 2 || genuine.Manifest.DNS == "" {
		t.Fatalf("genuine v2 proof: %s", dump(genuine))
	}
	want, _ := json.Marshal(genuine.Manifest)
	value, err := qosJSONValue(booted)
	if err != nil {
		t.Fatal(err)
	}

	rng := mrand.New(mrand.NewPCG(218, 218^0x5eed))
	const runs = 200
	notFailed := 0
	for i := range runs {
		var shipped bytes.Buffer
		fzRespellJSON(rng, &shipped, value)
		if bytes.Equal(shipped.Bytes(), booted) {
			continue
		}
		rep := VerifyBootProof(v2ProofShipping(t, e, now, booted, shipped.Bytes()), opts)
		if rep.Verdict == Failed {
			continue // meaning-preserving: a false alarm, not a miss
		}
		notFailed++
		if got, _ := json.Marshal(rep.Manifest); !bytes.Equal(got, want) {
			t.Fatalf("#%d verdict %s, but the manifest shown differs from the genuine one:\n  shipped %s\n  got  %s\n  want %s", i, rep.Verdict, shipped.Bytes(), got, want)
		}
	}
	t.Logf("v2 respellings: %d runs, %d not FAILED (each judged)", runs, notFailed)
	// An oracle that never fires tests nothing.
	if notFailed < runs/4 {
		t.Errorf("only %d of %d respellings verified: the oracle hardly ran", notFailed, runs)
	}
}

// fzRespellJSON writes v (read by qosJSONValue) as other JSON with the same
// QOS canonical form: random spacing and key order, integers and decimal
// strings swapped, null members added to the free-form objects (the typed
// parts of the manifest refuse unknown keys, and would only fail).
func fzRespellJSON(rng *mrand.Rand, out *bytes.Buffer, v any) {
	fzRespell(rng, out, v, false)
}

func fzRespell(rng *mrand.Rand, out *bytes.Buffer, v any, freeForm bool) {
	space := func() {
		if rng.IntN(4) == 0 {
			out.WriteString(strings.Repeat(" ", rng.IntN(300)))
		}
	}
	space()
	switch v := v.(type) {
	case string:
		if _, err := qosInteger(json.Number(v)); err == nil && freeForm && rng.IntN(2) == 0 && v == strings.TrimLeft(v, "0") {
			out.WriteString(v) // "3000" as 3000: QOS writes both as "3000"
		} else {
			b, _ := json.Marshal(v)
			out.Write(b)
		}
	case []any:
		out.WriteByte('[')
		for i, e := range v {
			if i > 0 {
				out.WriteByte(',')
			}
			fzRespell(rng, out, e, freeForm)
		}
		out.WriteByte(']')
	case map[string]any:
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		rng.Shuffle(len(keys), func(i, j int) { keys[i], keys[j] = keys[j], keys[i] })
		out.WriteByte('{')
		for i, k := range keys {
			if i > 0 {
				out.WriteByte(',')
			}
			b, _ := json.Marshal(k)
			out.Write(b)
			out.WriteByte(':')
			fzRespell(rng, out, v[k], freeForm || k == "env" || k == "dns" || k == "bridgeConfig")
		}
		if freeForm && rng.IntN(2) == 0 {
			if len(keys) > 0 {
				out.WriteByte(',')
			}
			fmt.Fprintf(out, `"NULL_%d":null`, rng.IntN(100))
		}
		out.WriteByte('}')
	default:
		b, _ := json.Marshal(v)
		out.Write(b)
	}
	space()
}
