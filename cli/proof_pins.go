package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"regexp"
	"strconv"
	"strings"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/keys"
	"github.com/vigil-console/vigil/profile"
	"github.com/vigil-console/vigil/proof"
)

// manifestSetPin makes a pinned manifest set, read as the profile reads
// expected_manifest_sets (profile.ParseManifestSet).
func manifestSetPin(threshold int64, members []string) (*proof.QuorumSet, error) {
	t, keys, err := profile.ParseManifestSet(threshold, members)
	if err != nil {
		return nil, err
	}
	set := &proof.QuorumSet{Threshold: t}
	for _, k := range keys {
		set.Members = append(set.Members, proof.Member{PubKey: k})
	}
	return set, nil
}

// parsePCRFlag reads --expect-pcr N=HEX, as the profile reads
// expected_pcrs.APP's N = "HEX" (profile.ParsePCR).
func parsePCRFlag(s string) (int, []byte, error) {
	n, h, ok := strings.Cut(s, "=")
	if !ok {
		return 0, nil, errors.New("want N=HEX, e.g. 0=f670…")
	}
	return profile.ParsePCR(n, h)
}

// pinExcerpt quotes a bad pin value for an error: escaped, and cut short, as
// a pasted value may be long.
func pinExcerpt(s string) string { return api.Quote(api.ClipBytes(s, 72)) }

// inlineSetRE is --expect-manifest-set's inline form, THRESHOLD:KEY,KEY….
var inlineSetRE = regexp.MustCompile(`^([0-9]+):(.*)$`)

// parseManifestSetFlag reads --expect-manifest-set: THRESHOLD:KEY[,KEY…]
// inline, or else a FILE (- for standard input) holding the manifest set as
// --json prints it ({"threshold":2,"members":[{"alias":…,"pubKey":…}]}), so
// the set of a proof verified once can be pinned with jq .manifest.manifestSet.
func parseManifestSetFlag(ctx context.Context, c proc, v string) (*proof.QuorumSet, error) {
	if m := inlineSetRE.FindStringSubmatch(v); m != nil {
		t, err := strconv.ParseInt(m[1], 10, 64)
		if err != nil {
			return nil, fmt.Errorf("threshold %s is not a number from 1 to %d (give THRESHOLD:KEY,KEY…)", pinExcerpt(m[1]), profile.MaxManifestSetMembers)
		}
		return manifestSetPin(t, strings.Split(m[2], ","))
	}
	const maxSetFile = 1 << 20
	b, _, err := readInput(ctx, c, v, "the manifest set", maxSetFile)
	if pe := (*fs.PathError)(nil); errors.As(err, &pe) && !errors.As(err, new(inputReadError)) {
		err = pe.Err // its path is v, whole: quoted once, cut short, below
	}
	if err != nil && keys.PathLooksSecret(v) {
		// readInput described v without quoting it; a pin's value is not
		// hidden from messages (publicHexFlags), so quote none of it here.
		return nil, fmt.Errorf("%w (give THRESHOLD:KEY,KEY… or a file holding the manifest set as --json prints it)", err)
	}
	if err != nil {
		return nil, fmt.Errorf("read %s: %w (give THRESHOLD:KEY,KEY… or a file holding the manifest set as --json prints it)", pinExcerpt(v), err)
	}
	if len(b) > maxSetFile {
		return nil, fmt.Errorf("%s is over %d MiB; a manifest set is a few kilobytes: give THRESHOLD:KEY,KEY… or the file holding the manifest set as --json prints it", pinExcerpt(v), maxSetFile>>20)
	}
	var set struct {
		Threshold *int64 `json:"threshold"`
		Members   []struct {
			PubKey string `json:"pubKey"`
		} `json:"members"`
	}
	if err := json.Unmarshal(b, &set); err != nil || set.Threshold == nil {
		return nil, fmt.Errorf("%s is not a manifest set as --json prints it ({\"threshold\":2,\"members\":[{\"pubKey\":\"04…\"}]})", pinExcerpt(v))
	}
	keys := make([]string, len(set.Members))
	for i, m := range set.Members {
		keys[i] = m.PubKey
	}
	s, err := manifestSetPin(*set.Threshold, keys)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", pinExcerpt(v), err)
	}
	return s, nil
}
