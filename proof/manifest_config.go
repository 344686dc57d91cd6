package proof

import "fmt"

// MaxShownConfig bounds a manifest's pivot env and dns where they are shown
// for people: they are approved (hashed) free-form JSON, and a hostile one
// could be as large as the manifest. --json keeps them whole.
const MaxShownConfig = 256

// hashedV2Config is what a v2 manifest shows of its pivot bridges, env and
// dns: each written as QOS canonical JSON from the value the hash is taken
// over (qosManifestV2Value), never from the service's bytes. Those bytes may
// differ from what was hashed in whatever the hash does not see (spacing, key
// order, 3000 for "3000", members whose value is null), so showing them could
// pad a bridge's host out of view or show an env variable the enclave never
// had, under a VERIFIED verdict. An env or dns that is absent, null (dropped
// from the hash) or an empty env (QOS skips it) is "".
type hashedV2Config struct {
	bridges  []string
	env, dns string
}

func hashedV2ConfigOf(manifest any) (hashedV2Config, error) {
	var c hashedV2Config
	top, _ := manifest.(map[string]any)
	pivot, _ := top["pivot"].(map[string]any)
	var err error
	if c.env, err = hashedConfigText(pivot["env"]); err != nil {
		return c, fmt.Errorf("pivot.env: %w", err)
	}
	if c.dns, err = hashedConfigText(top["dns"]); err != nil {
		return c, fmt.Errorf("dns: %w", err)
	}
	bridges, _ := pivot["bridgeConfig"].([]any)
	for i, b := range bridges {
		text, err := qosJSONBytes(b)
		if err != nil {
			return c, fmt.Errorf("pivot.bridgeConfig[%d]: %w", i, err)
		}
		c.bridges = append(c.bridges, string(text))
	}
	return c, nil
}

// hashedConfigText is one optional part of the hashed value as QOS canonical
// JSON; "" when absent or null, which the hash drops.
func hashedConfigText(v any) (string, error) {
	if v == nil {
		return "", nil
	}
	b, err := qosJSONBytes(v)
	if err != nil {
		return "", err
	}
	return string(b), nil
}
