package main

import "time"

// Profile is one named connection in the config file, like a kubectl context.
// The loader (loadProfile) fills Name from the table's key.
type Profile struct {
	Name                  string                       `toml:"-"`
	BaseURL               string                       `toml:"base_url"`
	AuthProxyURL          string                       `toml:"auth_proxy_url"`
	AuthProxyConfigID     string                       `toml:"auth_proxy_config_id"`
	OrganizationID        string                       `toml:"organization_id"`
	Key                   string                       `toml:"key"`           // key name in the keys directory
	KeysDir               string                       `toml:"keys_dir"`      // default $XDG_CONFIG_HOME/vigil/keys
	EnclaveApps           []string                     `toml:"enclave_apps"`  // apps whose boot proofs the console checks
	Refresh               duration                     `toml:"refresh"`       // auto-refresh interval; 0 turns it off
	ReadOnly              bool                         `toml:"read_only"`     // disables every submit
	Color                 string                       `toml:"color"`         // accent colour, e.g. "red" for production
	TrustedRoots          []string                     `toml:"trusted_roots"` // extra PEM root files for boot proofs
	ExpectedPCRs          map[string]map[string]string `toml:"expected_pcrs"` // app -> PCR index -> hex
	AllowedManifestHashes []string                     `toml:"allowed_manifest_hashes"`
	TLSFetcherPublicKey   string                       `toml:"tls_fetcher_public_key"`
}

// duration is a time.Duration written as "30s" in TOML.
type duration struct{ time.Duration }

func (d *duration) UnmarshalText(b []byte) error {
	v, err := time.ParseDuration(string(b))
	if err != nil {
		return err
	}
	d.Duration = v
	return nil
}

func (d duration) MarshalText() ([]byte, error) { return []byte(d.String()), nil }
