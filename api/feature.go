package api

import (
	"fmt"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
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

// CheckFeatureName refuses a feature name not among FeatureNames, saying
// for one the official client knows but SPEC.md does not why vigil refuses
// it and what to do instead.
func CheckFeatureName(name string) error {
	if name == FeatureSwapConfig || name == FeatureEarnConfig {
		return invalid("name", "%s is a feature of the real service's official client that this service's specification (SPEC.md) does not list, so vigil does not set it and its local service refuses it; "+
			"set it with the real service's own tools, or use one of %s", name, strings.Join(FeatureNames(), ", "))
	}
	return requireEnum("name", name, FeatureNames())
}

// CheckFeatureValue checks a value for the feature before it is sent: the service
// takes any string, but a mistyped webhook URL or origin would be set by the root
// quorum and then silently fail. The console and the CLI share it.
func CheckFeatureValue(name, value string) error {
	if err := CheckFeatureName(name); err != nil {
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
		if err := CheckWebhookURL(value); err != nil {
			return invalid("value", "%s %v", short, err)
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

// CheckWebhookURL checks a non-empty FEATURE_NAME_WEBHOOK value: an absolute
// http(s) URL that names a host, with a port (if any) a delivery can dial, and
// no user:password, which every member and read-only session would be shown
// (deliveries are signed, so the receiver needs no password in the URL). The
// service applies the same rule when the activity is submitted.
func CheckWebhookURL(value string) error {
	const want = "give one such as https://hooks.example.com/vigil (or empty to turn webhooks off)"
	// url.Parse accepts white space in a path, and a delivery would then go to
	// "/hooks%20", which no receiver routes. It is refused, never trimmed: the
	// value the quorum votes on must be the value deliveries are sent to.
	if i := strings.IndexFunc(value, unicode.IsSpace); i >= 0 {
		return fmt.Errorf("URL %q %s; a URL holds no white space (a delivery would go to another path than meant): remove it", value, whereSpace(value, i))
	}
	u, err := url.Parse(value)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fmt.Errorf("takes an absolute http(s) URL such as https://hooks.example.com/vigil (or empty to turn webhooks off); got %q", value)
	}
	if u.User != nil {
		return fmt.Errorf("URL %q carries a user name or password (user:password@), which every member and read-only session would be shown; remove it and have the receiver check each delivery's signature instead", value)
	}
	if err := checkHostPort(u); err != nil {
		return fmt.Errorf("URL %q: %v; %s", value, err, want)
	}
	return nil
}

// whereSpace says which white space value holds at byte i, and where.
func whereSpace(value string, i int) string {
	r, size := utf8.DecodeRuneInString(value[i:])
	what := "a space"
	if r != ' ' {
		what = fmt.Sprintf("white space (%U)", r)
	}
	switch {
	case i == 0:
		return "begins with " + what
	case strings.TrimRightFunc(value[i+size:], unicode.IsSpace) == "":
		return "ends with " + what
	default:
		return fmt.Sprintf("has %s after %q", what, value[:i])
	}
}

// checkOrigin accepts scheme://host[:port] with nothing after it, exactly as a
// browser writes an origin: a WebAuthn origin is compared as a string, so
// anything more (even a trailing "/") would never match a login.
func checkOrigin(o string) error {
	if o == "" {
		return fmt.Errorf("empty (two commas in a row, or a trailing comma)")
	}
	u, err := url.Parse(o)
	if err != nil || u.Host == "" || (u.Scheme != "https" && u.Scheme != "http") {
		return fmt.Errorf("%q is not an http(s) origin", o)
	}
	if u.Path == "/" && !u.ForceQuery && u.RawQuery == "" && !strings.Contains(o, "#") {
		return fmt.Errorf("%q ends with \"/\", which a browser's origin never has; drop it", o)
	}
	if u.Path != "" || u.RawQuery != "" || u.ForceQuery || strings.Contains(o, "#") || u.User != nil {
		return fmt.Errorf("%q has more than scheme://host[:port]", o)
	}
	if err := checkHostPort(u); err != nil {
		return fmt.Errorf("%q: %v", o, err)
	}
	for _, r := range u.Hostname() {
		if r > unicode.MaxASCII {
			return fmt.Errorf("%q: a browser sends an internationalized host name in its xn-- (punycode) form; write it so", o)
		}
	}
	return nil
}

// checkHostPort requires a URL's host to be an IP address without a zone or
// a host name (labels of letters, digits, '-' and '_', no wildcard, perhaps a
// trailing dot, not ending in a number unless an IPv4 address) and its port, if
// given, to be 1..65535: anything else no connection can reach.
func checkHostPort(u *url.URL) error {
	host := u.Hostname()
	if host == "" {
		return fmt.Errorf("the URL names no host")
	}
	if p := u.Port(); p != "" {
		if n, err := strconv.Atoi(p); err != nil || n < 1 || n > 65535 {
			return fmt.Errorf("port %s is not 1-65535", p)
		}
	}
	if ip, err := netip.ParseAddr(host); err == nil {
		if ip.Zone() != "" {
			// Dialable from this machine, but the zone names one of its
			// network interfaces: the service dials from its own machine,
			// where the name means another interface or none.
			return fmt.Errorf("IPv6 address %q carries a zone (%%%s), which names a network interface of the machine that dials it, not of the service's; give a routable address or a host name", host, ip.Zone())
		}
		return nil
	}
	if strings.HasPrefix(u.Host, "[") {
		return fmt.Errorf("%q is not an IP address", host)
	}
	// A fully qualified name may end with the root's empty label.
	name := host
	if len(name) > 1 {
		name = strings.TrimSuffix(name, ".")
	}
	labels := strings.Split(name, ".")
	for _, label := range labels {
		// '_' is kept: Go's resolver, which a service dials with, and
		// browsers' URL parsers take it (a DNS name may hold one).
		if label == "" || strings.HasPrefix(label, "-") || strings.HasSuffix(label, "-") ||
			strings.ContainsFunc(label, func(r rune) bool {
				return r != '-' && r != '_' && !unicode.IsLetter(r) && !unicode.IsDigit(r)
			}) {
			return fmt.Errorf("host %q is not a host name (letters, digits, '-' and '_' between dots; no wildcard) or an IP address", host)
		}
	}
	// A host ending in a number is read as an IPv4 address (as URL parsers
	// read it; no top-level domain is numeric): 999.1.1.1 is then none.
	if last := labels[len(labels)-1]; isNumericLabel(last) {
		if ip, err := netip.ParseAddr(name); err != nil || !ip.Is4() {
			return fmt.Errorf("host %q ends in a number, so it is read as an IPv4 address, and it is not one (four numbers 0-255 between dots); give a valid IPv4 address or a host name", host)
		}
	}
	return nil
}

// isNumericLabel reports whether label is a number as URL parsers read a
// host's last label: decimal digits, or 0x and hex digits.
func isNumericLabel(label string) bool {
	if rest, ok := strings.CutPrefix(strings.ToLower(label), "0x"); ok {
		return !strings.ContainsFunc(rest, func(r rune) bool { return !strings.ContainsRune("0123456789abcdef", r) })
	}
	return label != "" && !strings.ContainsFunc(label, func(r rune) bool { return r < '0' || r > '9' })
}
