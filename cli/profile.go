package cli

import (
	"errors"
	"fmt"

	"github.com/vigil-console/vigil/keys"
	"github.com/vigil-console/vigil/profile"
	"github.com/vigil-console/vigil/screens"
)

// Profile is a profile of the config file (package profile reads and checks it).
type Profile = profile.Profile

// profileChecks are the console's checks of what a profile may rebind and filter.
func profileChecks() profile.Checks {
	return profile.Checks{
		KeyActions: screens.KeyActionNames(),
		Keys:       screens.CheckKeys,
		Filter: func(name string, f profile.Filter) error {
			_, err := screens.NormalizeFilter(screens.SavedFilter{Name: name, Statuses: f.Statuses, Types: f.Types})
			return err
		},
	}
}

// loadConfig reads and checks the config file at path.
func loadConfig(path string) (*profile.Config, error) { return profile.Load(path, profileChecks()) }

// loadProfile chooses the profile every command and the console run on (see
// profile.Select). A missing config file gets the first-run help, the same
// whether the path was given or is the default: either way the user needs to
// know how to make one, or that the demo needs none.
func loadProfile(c proc, configPath, profileName string) (Profile, error) {
	p, err := profile.Select(c.getenv, configPath, profileName, profileChecks())
	var missing *profile.MissingError
	if errors.As(err, &missing) {
		return p, fmt.Errorf(noConfigHelp, missing.Path, missing.Path)
	}
	return p, err
}

// savedFilters are the profile's filters, normalised for the console, by name.
func savedFilters(p Profile) ([]screens.SavedFilter, error) {
	var out []screens.SavedFilter
	for _, name := range p.FilterNames() {
		f, err := screens.NormalizeFilter(screens.SavedFilter{Name: name, Statuses: p.Filters[name].Statuses, Types: p.Filters[name].Types})
		if err != nil {
			return nil, err
		}
		out = append(out, f)
	}
	return out, nil
}

// profileStamper opens the profile's key: a key file from its keys_dir
// (default keys.DefaultDir), or a key of the ssh-agent at SSH_AUTH_SOCK. A
// read-only profile's key stamps no activity (readOnlyStamper).
func profileStamper(p Profile, getenv func(string) string) (keys.Stamper, error) {
	if p.Key == "" {
		return nil, fmt.Errorf("profile %q has no key: set key = \"NAME\" in its table (create a key with 'vigil keys generate NAME'), or key = \"ssh-agent:SHA256:…\" for a key in your ssh-agent ('vigil keys list --agent')", p.Name)
	}
	s, err := openStamper(getenv, p.Key, p.KeysDir)
	if err != nil {
		return nil, fmt.Errorf("profile %q: %w", p.Name, keyElsewhere(err, defaultKeysDir(getenv)))
	}
	if p.ReadOnly {
		// Here, so that no verb stamps for a read-only profile without it.
		return readOnlyStamper{Stamper: s, profile: p.Name}, nil
	}
	return s, nil
}
