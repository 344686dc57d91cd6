package cli

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"net/url"
	"os"
	"path/filepath"
	"strconv"

	"github.com/BurntSushi/toml"

	"github.com/vigil-console/vigil/internal/userfile"
	"github.com/vigil-console/vigil/profile"
	"github.com/vigil-console/vigil/server"
)

// demoConfigHeader starts every config.toml a demo has written (older vigils
// wrote it too). A file without it is not the demo's: the demo never
// overwrites it.
const demoConfigHeader = "# Written by vigil for the local demo organization"

const demoConfigIntro = demoConfigHeader + `. At every demo start the profiles
# of the demo's members get the demo's connection settings again; other keys of
# theirs, other profiles and default_profile are kept. Comments and layout are
# not: the file as it was is then kept as config.toml.bak (or .bak.2, …).
`

// demoConfig is the config.toml in a demo's data directory, as found before
// the demo writes its own.
type demoConfig struct {
	path string
	old  []byte // nil: none (or empty), the demo's to write
}

// readDemoConfig reads dir/config.toml and refuses a file the demo cannot
// rewrite without losing what someone else wrote: one without the demo's
// header, or one that does not load. It runs before anything is seeded.
func readDemoConfig(dir string) (*demoConfig, error) {
	c := &demoConfig{path: filepath.Join(dir, "config.toml")}
	fi, err := os.Lstat(c.path)
	if errors.Is(err, fs.ErrNotExist) {
		return c, nil
	}
	if err != nil {
		return nil, fmt.Errorf("demo: %w", err)
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("demo: %s is not a regular file, and the demo writes its config there; move it away, or use another --data directory", c.path)
	}
	old, err := os.ReadFile(c.path)
	if err != nil {
		return nil, fmt.Errorf("demo: %w", err)
	}
	if len(bytes.TrimSpace(old)) == 0 {
		return c, nil // nothing to lose
	}
	if !bytes.HasPrefix(old, []byte(demoConfigHeader)) {
		return nil, fmt.Errorf("demo: %s was not written by the demo (it does not start with %q), so the demo will not overwrite it; move it away, or use another --data directory", c.path, demoConfigHeader)
	}
	if _, err := loadConfig(c.path); err != nil {
		return nil, fmt.Errorf("demo: its config does not load, and is kept as it is: %w; fix it, move it away, or use another --data directory", err)
	}
	c.old = old
	return c, nil
}

// demoProfile is what the demo sets in member m's profile; other keys a user
// added to that profile are kept.
func demoProfile(info *server.DemoInfo, m server.DemoMember, baseURL, authProxyURL string) map[string]any {
	p := map[string]any{
		"base_url":               baseURL,
		"auth_proxy_url":         authProxyURL,
		"auth_proxy_config_id":   info.AuthProxyConfigID,
		"organization_id":        info.OrganizationID,
		"key":                    m.KeyName,
		"keys_dir":               "keys",
		"enclave_apps":           info.EnclaveApps,
		"trusted_roots":          []string{"demo-root.pem"},
		"tls_fetcher_public_key": info.TLSFetcherPublicKey,
	}
	// The local service speaks plain http; served on an address other than
	// the loopback (serve --demo --addr 192.0.2.7:8420), its own profiles
	// say so, or they would not load.
	for _, s := range []string{baseURL, authProxyURL} {
		if u, err := url.Parse(s); err == nil && u.Scheme == "http" && !profile.IsLoopback(u.Hostname()) {
			p["allow_plaintext_http"] = true
		}
	}
	return p
}

// demoRefresh is the auto-refresh the demo gives a member's profile that has
// none: a preference, not a connection setting, so a user's own is kept.
const demoRefresh = "5s"

// write writes the config with a profile per member pointing at baseURL,
// keeping everything else the file held, through a temporary file renamed
// over it. If the file held more than its settings (comments, layout), it is
// first copied to config.toml.bak (or .bak.2, …: an older copy is never
// overwritten), and note says so.
func (c *demoConfig) write(info *server.DemoInfo, baseURL, authProxyURL string) (note string, err error) {
	doc := map[string]any{}
	if c.old != nil {
		if _, err := toml.Decode(string(c.old), &doc); err != nil {
			return "", fmt.Errorf("demo: %s: %w", c.path, err)
		}
		same, err := encodeDemoConfig(doc)
		if err != nil {
			return "", err
		}
		if !bytes.Equal(same, c.old) {
			bak, err := backUp(c.path, c.old)
			if err != nil {
				return "", err
			}
			note = fmt.Sprintf("%s held comments or a layout that the rewritten file does not keep; the file as it was is in %s", c.path, bak)
		}
	}
	profiles, _ := doc["profiles"].(map[string]any)
	if profiles == nil {
		profiles = map[string]any{}
		doc["profiles"] = profiles
	}
	for _, m := range info.Members {
		p, _ := profiles[m.Name].(map[string]any)
		if p == nil {
			p = map[string]any{}
		}
		maps.Copy(p, demoProfile(info, m, baseURL, authProxyURL))
		if _, set := p["refresh"]; !set {
			p["refresh"] = demoRefresh
		}
		profiles[m.Name] = p
	}
	if def, _ := doc["default_profile"].(string); profiles[def] == nil {
		doc["default_profile"] = info.Members[0].Name
	}
	data, err := encodeDemoConfig(doc)
	if err != nil {
		return "", err
	}
	if err := writeFileAtomic(c.path, data, 0o600); err != nil {
		return "", fmt.Errorf("demo: %w", err)
	}
	return note, nil
}

func encodeDemoConfig(doc map[string]any) ([]byte, error) {
	var buf bytes.Buffer
	buf.WriteString(demoConfigIntro)
	enc := toml.NewEncoder(&buf)
	enc.Indent = ""
	if err := enc.Encode(doc); err != nil {
		return nil, fmt.Errorf("demo: encode config: %w", err)
	}
	return buf.Bytes(), nil
}

// backUp keeps data as path.bak, or the first of path.bak.2, .bak.3, … that
// is free; a copy that already holds data is used as it is.
func backUp(path string, data []byte) (string, error) {
	for i := 1; i <= 100; i++ {
		bak := path + ".bak"
		if i > 1 {
			bak += "." + strconv.Itoa(i)
		}
		// A copy larger than data is another file; a named pipe there
		// must not hang the demo.
		have, err := userfile.Read(bak, int64(len(data)))
		if err == nil && bytes.Equal(have, data) {
			return bak, nil
		}
		if errors.Is(err, fs.ErrNotExist) {
			if err := writeFileAtomic(bak, data, 0o600); err != nil {
				return "", fmt.Errorf("demo: keep a copy of %s before rewriting it: %w", path, err)
			}
			return bak, nil
		}
	}
	return "", fmt.Errorf("demo: %s.bak to .bak.100 are all taken; remove the ones you do not need", path)
}
