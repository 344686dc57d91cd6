package api

import (
	"fmt"
	"net/url"
	"strings"
)

// FeatureKind says what a feature's value is, so a form can offer the right input
// and CheckFeatureValue the right rule.
type FeatureKind int

// The kinds of feature value.
const (
	FeatureToggle  FeatureKind = iota // enabled, disabled, true, false or ""
	FeatureURL                        // an absolute http(s) URL, or "" to turn it off
	FeatureOrigins                    // comma-separated web origins (scheme://host[:port])
)

// Toggle values; the demo and the service's examples use "enabled".
const (
	FeatureEnabled  = "enabled"
	FeatureDisabled = "disabled"
)

// FeatureKindOf returns the kind of a feature's value.
func FeatureKindOf(name string) FeatureKind {
	switch name {
	case FeatureWebhook:
		return FeatureURL
	case FeatureWebauthnOrigins:
		return FeatureOrigins
	}
	return FeatureToggle
}

// CheckFeatureValue checks a value for the feature before it is sent: the service
// takes any string, but a mistyped webhook URL or origin would be set by the root
// quorum and then silently fail. The console and the CLI share it.
func CheckFeatureValue(name, value string) error {
	if err := requireEnum("name", name, FeatureNames()); err != nil {
		return err
	}
	if err := within("value", value, MaxFeatureValueLength, "a feature value"); err != nil {
		return err
	}
	short := strings.TrimPrefix(name, "FEATURE_NAME_")
	switch FeatureKindOf(name) {
	case FeatureURL:
		if value == "" {
			return nil
		}
		u, err := url.Parse(value)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return invalid("value", "%s takes an absolute http(s) URL such as https://hooks.example.com/vigil (or empty to turn webhooks off); got %q", short, value)
		}
	case FeatureOrigins:
		if strings.TrimSpace(value) == "" {
			return invalid("value", "%s takes at least one origin, such as https://app.example.com", short)
		}
		for i, o := range strings.Split(value, ",") {
			if err := checkOrigin(strings.TrimSpace(o)); err != nil {
				return invalid("value", "%s origin %d: %v; give origins separated by commas, such as https://app.example.com,https://admin.example.com", short, i+1, err)
			}
		}
	default:
		// The same set the CLI's `vigil feature set` accepts ("" sets the feature
		// with no value, as the service's examples do).
		switch value {
		case FeatureEnabled, FeatureDisabled, "true", "false", "":
		default:
			return invalid("value", "%s is a toggle: %q, %q, true, false or empty; got %q", short, FeatureEnabled, FeatureDisabled, value)
		}
	}
	return nil
}

// checkOrigin accepts scheme://host[:port] with nothing after it, as a browser
// writes an origin.
func checkOrigin(o string) error {
	if o == "" {
		return fmt.Errorf("empty (two commas in a row, or a trailing comma)")
	}
	u, err := url.Parse(o)
	if err != nil || u.Host == "" || (u.Scheme != "https" && u.Scheme != "http") {
		return fmt.Errorf("%q is not an http(s) origin", o)
	}
	if (u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.Fragment != "" || u.User != nil {
		return fmt.Errorf("%q has more than scheme://host[:port]", o)
	}
	return nil
}
