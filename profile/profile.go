// Package profile reads vigil's config file: profiles like kubectl contexts,
// checked with file, line and key in every error. The CLI and the console share
// it; the console receives what it needs as plain values. Checks of values that
// other packages own (the console's key actions and filters) are injected
// through Checks, so this package depends on none of them.
package profile

import (
	"crypto/ecdh"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"net/url"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/BurntSushi/toml"

	"github.com/vigil-console/vigil/internal/userfile"
	"github.com/vigil-console/vigil/keys"
)

// Profile is one named connection in the config file, like a kubectl context.
// Load fills Name from the table's key, and ConfigPath from the file.
type Profile struct {
	Name                  string                       `toml:"-"`
	BaseURL               string                       `toml:"base_url"`
	AuthProxyURL          string                       `toml:"auth_proxy_url"`
	AuthProxyConfigID     string                       `toml:"auth_proxy_config_id"`
	OrganizationID        string                       `toml:"organization_id"`
	Key                   string                       `toml:"key"`           // key name in the keys directory, or ssh-agent:SHA256:…
	KeysDir               string                       `toml:"keys_dir"`      // default $XDG_CONFIG_HOME/vigil/keys
	EnclaveApps           []string                     `toml:"enclave_apps"`  // apps whose boot proofs the console checks
	Refresh               Duration                     `toml:"refresh"`       // auto-refresh interval; 0 turns it off
	ReadOnly              bool                         `toml:"read_only"`     // disables every submit
	Color                 string                       `toml:"color"`         // accent colour, e.g. "red" for production
	TrustedRoots          []string                     `toml:"trusted_roots"` // extra PEM root files for boot proofs
	ExpectedPCRs          map[string]map[string]string `toml:"expected_pcrs"` // app -> PCR index -> hex
	AllowedManifestHashes []string                     `toml:"allowed_manifest_hashes"`
	// Pins of the manifest's content, per app: they survive a new manifest
	// (nonce, rotation) where allowed_manifest_hashes does not.
	ExpectedPivotHashes  map[string][]string       `toml:"expected_pivot_hashes"`  // app -> allowed pivot SHA-256 hex
	ExpectedManifestSets map[string]ManifestSetPin `toml:"expected_manifest_sets"` // app -> the operators who may approve
	ExpectedQuorumKeys   map[string]string         `toml:"expected_quorum_keys"`   // app -> quorum public key hex
	TLSFetcherPublicKey  string                    `toml:"tls_fetcher_public_key"`
	Mouse                *bool                     `toml:"mouse"`          // nil = on
	Notify               bool                      `toml:"notify"`         // desktop notification when an activity waits for your vote
	Keys                 map[string][]string       `toml:"keys"`           // action -> keys, rebinding the console's keys
	WebhookListen        string                    `toml:"webhook_listen"` // HOST:PORT the console receives webhook deliveries on
	// AllowPlaintextHTTP lets base_url and auth_proxy_url be http:// to a
	// host that is not the loopback: stamped requests, the activities voted
	// on and login tokens then cross the network unencrypted.
	AllowPlaintextHTTP bool `toml:"allow_plaintext_http"`
	// MaxListReplyMiB bounds, in MiB, the replies of the list queries the
	// service cannot page (list_users, list_policies, …); nil leaves the
	// client's default (256 MiB).
	MaxListReplyMiB *int64 `toml:"max_list_reply_mib"`
	// Filters are named filters of the All view: name -> statuses and types.
	Filters map[string]Filter `toml:"filters"`
	// ConfigPath is the config file the profile was read from (absolute), so
	// the console can name it in the CLI commands it suggests.
	ConfigPath string `toml:"-"`
	// TrustedRootsAsWritten are the trusted_roots entries as the config file
	// spells them (TrustedRoots holds them resolved): reports name a root by
	// the text its owner wrote and can find in the file.
	TrustedRootsAsWritten []string `toml:"-"`
}

// Filter is one [profiles.NAME.filters.FILTER] table: a named filter of the
// console's All view.
type Filter struct {
	Statuses []string `toml:"statuses"`
	Types    []string `toml:"types"`
}

// ManifestSetPin is one [profiles.NAME.expected_manifest_sets.APP] table:
// the manifest set an app's manifest may name (only these members, at least
// this threshold).
type ManifestSetPin struct {
	Threshold int64    `toml:"threshold"`
	Members   []string `toml:"members"` // 130-byte QOS public keys, hex
}

// FilterNames are the profile's filter names, sorted.
func (p Profile) FilterNames() []string { return sortedKeys(p.Filters) }

// The sizes max_list_reply_mib takes: at least what any reply may need
// (api.MinReplyBytes), at most 64 GiB, beyond which the setting is a typo.
const (
	MinListReplyMiB = 4
	MaxListReplyMiB = 64 << 10
)

// ListReplySetting says where this profile's max_list_reply_mib is set, for
// the error of a list reply over it.
func (p Profile) ListReplySetting() string {
	where := fmt.Sprintf("max_list_reply_mib (in MiB) in profile %q", p.Name)
	if p.ConfigPath != "" {
		where += " of " + p.ConfigPath
	}
	return where
}

// MouseOn reports whether the console takes mouse events (on unless mouse = false).
func (p Profile) MouseOn() bool { return p.Mouse == nil || *p.Mouse }

// Duration is a time.Duration written as "30s" in TOML.
type Duration struct{ time.Duration }

func (d *Duration) UnmarshalText(b []byte) error {
	v, err := time.ParseDuration(string(b))
	if err != nil {
		return fmt.Errorf("%q is not a duration; write it like \"30s\", \"2m\" or \"0s\"", b)
	}
	d.Duration = v
	return nil
}

func (d Duration) MarshalText() ([]byte, error) { return []byte(d.String()), nil }

// Config is the whole config file: profiles like kubectl contexts.
type Config struct {
	Path           string             `toml:"-"` // the file it was read from
	DefaultProfile string             `toml:"default_profile"`
	Profiles       map[string]Profile `toml:"profiles"`
}

// maxConfigLen bounds the config file.
const maxConfigLen = 1 << 20

// DefaultPath is $XDG_CONFIG_HOME/vigil/config.toml, or
// $HOME/.config/vigil/config.toml; never a path relative to the working
// directory (see keys.ConfigHome).
func DefaultPath(getenv func(string) string) (string, error) {
	home, err := keys.ConfigHome(getenv)
	if err != nil {
		return "", fmt.Errorf("no default config file: %w; set HOME, or give the file with --config FILE or VIGIL_CONFIG", err)
	}
	return filepath.Join(home, "vigil", "config.toml"), nil
}

// configError locates a problem in the config file: file, line (0 when
// unknown) and key.
type configError struct {
	path string
	line int
	key  string
	msg  string

	keyPath []string // for checkProfile: the key relative to its profile
}

func (e *configError) Error() string {
	loc := e.path
	if e.line > 0 {
		loc = fmt.Sprintf("%s:%d", e.path, e.line)
	}
	if e.key == "" {
		return fmt.Sprintf("config %s: %s", loc, e.msg)
	}
	return fmt.Sprintf("config %s: %s: %s", loc, e.key, e.msg)
}

// Checks are the checks of values other packages own, run on every profile
// that sets them; nil fields check nothing.
type Checks struct {
	// KeyActions are the console's key action names that [profiles.NAME.keys]
	// may rebind.
	KeyActions []string
	// Keys reports clashes in a profile's rebinding.
	Keys func(map[string][]string) error
	// Filter reports a saved filter the console would refuse.
	Filter func(name string, f Filter) error
}

// Load reads and checks the config file at path. Unknown keys and bad
// values are errors naming the file, the line and the key. Relative keys_dir
// and trusted_roots are made relative to the file's directory, PCRs and hashes
// are lowercased, and colours are normalised for lipgloss.Color.
// A missing file is an error wrapping fs.ErrNotExist.
func Load(path string, checks Checks) (*Config, error) {
	data, fi, err := userfile.ReadInfo(path, maxConfigLen)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("config %s: %w", path, err)
		}
		return nil, fmt.Errorf("config %s: %w; give the config file's path", path, err)
	}
	if err := checkWritable(path, fi); err != nil {
		return nil, err
	}
	text := string(data)
	cfg := &Config{Path: path}
	// Profiles are decoded one by one in file order: decoded as one map, the
	// first type mismatch reported would be a random profile's.
	var raw struct {
		DefaultProfile string                    `toml:"default_profile"`
		Profiles       map[string]toml.Primitive `toml:"profiles"`
	}
	md, err := toml.Decode(text, &raw)
	if _, syntax := errors.AsType[toml.ParseError](err); err != nil && syntax {
		return nil, tomlError(path, err)
	}
	// Spelling first: a key in another case decodes, or fails to, at random.
	if err := checkSpelling(md, text, path, checks.KeyActions); err != nil {
		return nil, err
	}
	if err != nil {
		return nil, tomlError(path, err)
	}
	cfg.DefaultProfile = raw.DefaultProfile
	names := make([]string, 0, len(raw.Profiles))
	line := make(map[string]int, len(raw.Profiles))
	for name := range raw.Profiles {
		names = append(names, name)
		line[name] = findKeyLine(text, toml.Key{"profiles", name})
	}
	sort.Slice(names, func(i, j int) bool {
		if li, lj := line[names[i]], line[names[j]]; li != lj {
			return li < lj
		}
		return names[i] < names[j]
	})
	for _, name := range names {
		var p Profile
		if err := md.PrimitiveDecode(raw.Profiles[name], &p); err != nil {
			return nil, tomlError(path, err)
		}
		if cfg.Profiles == nil {
			cfg.Profiles = map[string]Profile{}
		}
		cfg.Profiles[name] = p
	}
	if undecoded := md.Undecoded(); len(undecoded) > 0 {
		var errs []error
		for _, k := range undecoded {
			hint := "unknown key; see config.example.toml"
			switch {
			case len(k) == 1:
				hint = "unknown key; the top level takes default_profile and [profiles.NAME] tables"
			case len(k) == 3 && k[0] == "profiles":
				hint = "unknown key; a profile takes " + profileKeyList
			}
			errs = append(errs, &configError{path: path, line: findKeyLine(text, k), key: k.String(), msg: hint})
		}
		return nil, errors.Join(errs...)
	}
	if len(cfg.Profiles) == 0 {
		return nil, &configError{path: path, msg: "no profiles; add a [profiles.NAME] table (see config.example.toml)"}
	}
	if cfg.DefaultProfile != "" {
		if _, ok := cfg.Profiles[cfg.DefaultProfile]; !ok {
			return nil, &configError{path: path, line: findKeyLine(text, toml.Key{"default_profile"}), key: "default_profile",
				msg: fmt.Sprintf("no profile %q; available: %s", cfg.DefaultProfile, strings.Join(cfg.profileNames(), ", "))}
		}
	}
	dir := filepath.Dir(path)
	for _, name := range cfg.profileNames() {
		p := cfg.Profiles[name]
		if err := checkProfile(&p, name, dir, checks); err != nil {
			full := append([]string{"profiles", name}, err.keyPath...)
			err.path = path
			err.line = findKeyLine(text, full)
			err.key = joinKey(full)
			return nil, err
		}
		p.Name = name
		p.ConfigPath = path
		if abs, err := filepath.Abs(path); err == nil {
			p.ConfigPath = abs
		}
		cfg.Profiles[name] = p
	}
	return cfg, nil
}

// tomlError places a decoding error at its line and key.
func tomlError(path string, err error) error {
	var pe toml.ParseError
	if errors.As(err, &pe) {
		return &configError{path: path, line: pe.Position.Line, key: pe.LastKey, msg: pe.Message}
	}
	// Type mismatches come as plain errors: "toml: line N (last key "K"): msg".
	if m := tomlErrorRE.FindStringSubmatch(err.Error()); m != nil {
		line, _ := strconv.Atoi(m[1])
		return &configError{path: path, line: line, key: m[2], msg: m[3]}
	}
	return fmt.Errorf("config %s: %s", path, strings.TrimPrefix(err.Error(), "toml: "))
}

var tomlErrorRE = regexp.MustCompile(`^toml: line (\d+) \(last key "([^"]*)"\): (.*)$`)

func (c *Config) profileNames() []string {
	names := make([]string, 0, len(c.Profiles))
	for n := range c.Profiles {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// checkProfile validates and normalises one profile; the error's keyPath is
// relative to the profile (e.g. refresh, or expected_pcrs, app, 3).
func checkProfile(p *Profile, name, dir string, checks Checks) *configError {
	bad := func(key any, format string, args ...any) *configError {
		path, ok := key.([]string)
		if !ok {
			path = []string{key.(string)}
		}
		return &configError{keyPath: path, msg: fmt.Sprintf(format, args...)}
	}
	if name == "" || strings.ContainsFunc(name, func(r rune) bool { return !unicode.IsPrint(r) }) {
		return &configError{msg: fmt.Sprintf("profile name %q must be non-empty printable text", name)}
	}
	if err := checkServiceURL(p.BaseURL, p.AllowPlaintextHTTP); err != nil {
		return bad("base_url", "%v", err)
	}
	// vigil adds /public/v1/… to base_url (not to auth_proxy_url): a base_url
	// ending in it would ask for /public/v1/public/v1/…. A path that only
	// holds it further up may be a gateway's prefix, and is kept.
	if u, err := url.Parse(p.BaseURL); err == nil && strings.HasSuffix(strings.TrimRight(u.Path, "/"), "/public/v1") {
		return bad("base_url", "%q: give the service's root, without /public/v1 (vigil adds it to every request)", p.BaseURL)
	}
	if err := checkServiceURL(p.AuthProxyURL, p.AllowPlaintextHTTP); err != nil {
		return bad("auth_proxy_url", "%v", err)
	}
	if p.WebhookListen != "" {
		if _, _, err := net.SplitHostPort(p.WebhookListen); err != nil {
			return bad("webhook_listen", "%q is not HOST:PORT (e.g. 127.0.0.1:8430): %v", p.WebhookListen, err)
		}
	}
	if strings.ContainsFunc(p.OrganizationID, func(r rune) bool { return !unicode.IsPrint(r) || unicode.IsSpace(r) }) {
		return bad("organization_id", "%q contains spaces or control characters", p.OrganizationID)
	}
	// Sent as the X-Auth-Proxy-Config-Id header, which cannot carry these:
	// refused here, naming the line, not at request time as a connection
	// failure retried four times.
	if strings.ContainsFunc(p.AuthProxyConfigID, func(r rune) bool { return !unicode.IsPrint(r) || unicode.IsSpace(r) }) {
		return bad("auth_proxy_config_id", "%q contains spaces or control characters; copy the auth proxy configuration id exactly as the service shows it", p.AuthProxyConfigID)
	}
	if p.Key != "" {
		if err := keys.ValidateRef(p.Key); err != nil {
			return bad("key", "%v", err)
		}
	}
	// A path is printed in messages: a control character in it would reach
	// the terminal.
	if hasControl(p.KeysDir) {
		return bad("keys_dir", "%q contains control characters; give the keys directory's path as plain text", p.KeysDir)
	}
	if p.KeysDir != "" {
		d, err := resolveConfigPath(dir, p.KeysDir)
		if err != nil {
			return bad("keys_dir", "%v", err)
		}
		// A private key pasted here would be printed in every "no key"
		// message; a directory that exists is kept whatever its name.
		if keys.PathLooksSecret(d) {
			return bad("keys_dir", "takes the keys directory's path, and the value is %s; give a directory such as \"~/.config/vigil/keys\"", keys.SecretInFile(p.KeysDir, "a directory"))
		}
		p.KeysDir = d
	}
	for i, app := range p.EnclaveApps {
		if strings.TrimSpace(app) == "" {
			return bad("enclave_apps", "entry %d is empty", i+1)
		}
		// The same app twice would be two rows of one proof on the Boot
		// proofs screen, which reads as two enclaves.
		if first := slices.Index(p.EnclaveApps, app); first < i {
			return bad("enclave_apps", "%q is listed twice (entries %d and %d); list each app once", app, first+1, i+1)
		}
	}
	if p.Refresh.Duration < 0 {
		return bad("refresh", "%s is negative; use a positive interval like \"30s\", or \"0s\" to turn auto-refresh off", p.Refresh.Duration)
	}
	if p.Refresh.Duration > 0 && p.Refresh.Duration < time.Second {
		return bad("refresh", "%s is shorter than 1s; use at least \"1s\", or \"0s\" to turn auto-refresh off", p.Refresh.Duration)
	}
	if m := p.MaxListReplyMiB; m != nil && (*m < MinListReplyMiB || *m > MaxListReplyMiB) {
		return bad("max_list_reply_mib", "%d is not a size vigil takes; give the MiB of one list reply, from %d to %d (leave it out for 256)", *m, MinListReplyMiB, MaxListReplyMiB)
	}
	if p.Color != "" {
		c, err := colorValue(p.Color)
		if err != nil {
			return bad("color", "%v", err)
		}
		p.Color = c
	}
	p.TrustedRootsAsWritten = slices.Clone(p.TrustedRoots)
	for i, r := range p.TrustedRoots {
		if strings.TrimSpace(r) == "" {
			return bad("trusted_roots", "entry %d is empty", i+1)
		}
		if hasControl(r) {
			return bad("trusted_roots", "entry %d, %q, contains control characters; give the file's path as plain text", i+1, r)
		}
		path, err := resolveConfigPath(dir, r)
		if err != nil {
			return bad("trusted_roots", "entry %d, %v", i+1, err)
		}
		p.TrustedRoots[i] = path
	}
	for _, app := range sortedKeys(p.ExpectedPCRs) {
		for _, idx := range sortedKeys(p.ExpectedPCRs[app]) {
			_, b, err := ParsePCR(idx, p.ExpectedPCRs[app][idx])
			if err != nil {
				return bad([]string{"expected_pcrs", app, idx}, "%v", err)
			}
			p.ExpectedPCRs[app][idx] = hex.EncodeToString(b)
		}
	}
	for i, h := range p.AllowedManifestHashes {
		b, err := ParseManifestHash(h)
		if err != nil {
			return bad("allowed_manifest_hashes", "entry %d %v", i+1, err)
		}
		p.AllowedManifestHashes[i] = hex.EncodeToString(b)
	}
	if err := checkContentPins(p); err != nil {
		return err
	}
	if len(p.Keys) > 0 {
		for _, action := range sortedKeys(p.Keys) {
			if !slices.Contains(checks.KeyActions, action) {
				return bad([]string{"keys", action}, "unknown key action %q; valid actions: %s", action, strings.Join(checks.KeyActions, ", "))
			}
		}
		if checks.Keys != nil {
			if err := checks.Keys(p.Keys); err != nil {
				return bad("keys", "%v", err)
			}
		}
	}
	if checks.Filter != nil {
		for _, name := range sortedKeys(p.Filters) {
			if err := checks.Filter(name, p.Filters[name]); err != nil {
				return bad([]string{"filters", name}, "%v", err)
			}
		}
	}
	if p.TLSFetcherPublicKey != "" {
		v := strings.ToLower(p.TLSFetcherPublicKey)
		b, err := hex.DecodeString(v)
		if err == nil {
			_, err = ecdh.P256().NewPublicKey(b)
		}
		if err != nil || len(b) != 65 {
			return bad("tls_fetcher_public_key", "must be an uncompressed P-256 public key: 130 hex digits starting with 04")
		}
		p.TLSFetcherPublicKey = v
	}
	return nil
}

// hasControl reports whether s holds a rune that is not printable text
// (spaces are printable here: paths may hold them).
func hasControl(s string) bool {
	return strings.ContainsFunc(s, func(r rune) bool { return !unicode.IsPrint(r) && r != ' ' })
}

// checkServiceURL checks a service's base URL. Plain http:// is for the
// loopback (vigil demo, vigil serve) unless allowPlaintext: elsewhere it
// would send every stamped request, and the replies the operator votes on,
// readable and forgeable on the way. A URL holding what looks like a
// private key (pasted into the wrong line, or as its host) is refused
// without being quoted, before anything resolves its host or prints it.
func checkServiceURL(s string, allowPlaintext bool) error {
	if s == "" {
		return nil
	}
	if keys.URLHoldsSecret(s) {
		return fmt.Errorf("takes the service's URL, like \"https://api.example.com\", and the value is %s", keys.SecretInFile(s, "a URL"))
	}
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fmt.Errorf("%s is not an http:// or https:// URL with a host, like \"https://api.example.com\"", ShowURL(s))
	}
	// A bare "?" leaves RawQuery empty but stays in the URL: every request
	// would go to "/?/public/v1/…".
	if u.RawQuery != "" || u.ForceQuery || u.Fragment != "" || u.User != nil {
		return fmt.Errorf("%s must not carry a query, a fragment or credentials", ShowURL(s))
	}
	return CheckPlaintextHTTP(s, allowPlaintext)
}

// CheckPlaintextHTTP refuses a plain http:// URL to a host that is not this
// machine unless allowPlaintext (a profile's allow_plaintext_http): base_url,
// auth_proxy_url and the webhook key set a --jwks URL names are all trusted,
// and on the network any of them could be read or forged.
func CheckPlaintextHTTP(s string, allowPlaintext bool) error {
	u, err := url.Parse(s)
	if err != nil || u.Scheme != "http" || allowPlaintext || IsLoopback(u.Hostname()) {
		return nil
	}
	return fmt.Errorf("%s is plain http to a host that is not this machine: requests and replies would cross the network unencrypted and could be read or forged; use https://, or set allow_plaintext_http = true in the profile if the network is trusted", ShowURL(s))
}

// IsLoopback reports whether host names this machine: localhost or a
// loopback address.
func IsLoopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// namedColors maps the colour names a config may use to ANSI indices.
var namedColors = map[string]int{
	"black": 0, "red": 1, "green": 2, "yellow": 3, "blue": 4, "magenta": 5, "cyan": 6, "white": 7,
	"gray": 8, "grey": 8, "bright-red": 9, "bright-green": 10, "bright-yellow": 11, "bright-blue": 12,
	"bright-magenta": 13, "bright-cyan": 14, "bright-white": 15, "orange": 208, "purple": 93,
}

// colorValue normalises a colour as written in the config to a value
// lipgloss.Color accepts: "#rrggbb" or an ANSI index "0".."255".
func colorValue(s string) (string, error) {
	v := strings.ToLower(strings.TrimSpace(s))
	if n, ok := namedColors[v]; ok {
		return strconv.Itoa(n), nil
	}
	if hexDigits, ok := strings.CutPrefix(v, "#"); ok {
		if _, err := hex.DecodeString(hexDigits + hexDigits[:len(hexDigits)%2]); err == nil {
			switch len(hexDigits) {
			case 6:
				return "#" + hexDigits, nil
			case 3:
				return "#" + string([]byte{hexDigits[0], hexDigits[0], hexDigits[1], hexDigits[1], hexDigits[2], hexDigits[2]}), nil
			}
		}
	} else if n, err := strconv.Atoi(v); err == nil && n >= 0 && n <= 255 {
		return strconv.Itoa(n), nil
	}
	return "", fmt.Errorf("%q is not a colour; use a name (red, green, yellow, blue, magenta, cyan, orange, …), \"#rrggbb\", \"#rgb\" or an ANSI number 0-255", s)
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// Select reads the config (configPath, else $VIGIL_CONFIG, else the default
// path) and returns the profile chosen by profileName, else $VIGIL_PROFILE,
// else default_profile, else the only profile. The profile must have base_url
// and organization_id. A missing file is a *MissingError.
func Select(getenv func(string) string, configPath, profileName string, checks Checks) (Profile, error) {
	if configPath == "" {
		configPath = getenv("VIGIL_CONFIG")
	}
	if configPath == "" {
		var err error
		if configPath, err = DefaultPath(getenv); err != nil {
			return Profile{}, err
		}
	}
	cfg, err := Load(configPath, checks)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return Profile{}, &MissingError{Path: configPath, Err: err}
		}
		return Profile{}, err
	}
	available := strings.Join(cfg.profileNames(), ", ")
	name, from := profileName, "--profile"
	if name == "" {
		name, from = getenv("VIGIL_PROFILE"), "VIGIL_PROFILE"
	}
	if name == "" {
		name, from = cfg.DefaultProfile, "default_profile"
	}
	if name == "" {
		if len(cfg.Profiles) != 1 {
			return Profile{}, &NoneChosenError{Path: configPath, Names: cfg.profileNames()}
		}
		name = cfg.profileNames()[0]
	}
	p, ok := cfg.Profiles[name]
	if !ok {
		return Profile{}, fmt.Errorf("no profile %q (from %s) in %s; available: %s", name, from, configPath, available)
	}
	var missing []string
	if p.BaseURL == "" {
		missing = append(missing, "base_url")
	}
	if p.OrganizationID == "" {
		missing = append(missing, "organization_id")
	}
	if len(missing) > 0 {
		return Profile{}, fmt.Errorf("profile %q in %s does not set %s", name, configPath, strings.Join(missing, " and "))
	}
	return p, nil
}

// MissingError is a config file that does not exist, whether its path was given
// or is the default.
type MissingError struct {
	Path string
	Err  error
}

func (e *MissingError) Error() string { return fmt.Sprintf("no config file at %s", e.Path) }
func (e *MissingError) Unwrap() error { return e.Err }
