package profile

import (
	"fmt"
	"strings"
)

// NoneChosenError is a config of several profiles none of which is chosen
// (no --profile, VIGIL_PROFILE or default_profile): the config itself is
// fine, it only does not say which profile to use.
type NoneChosenError struct {
	Path  string
	Names []string // the profiles, sorted
}

func (e *NoneChosenError) Error() string {
	return fmt.Sprintf("config %s has %d profiles (%s); choose one with --profile NAME, VIGIL_PROFILE or default_profile", e.Path, len(e.Names), strings.Join(e.Names, ", "))
}
