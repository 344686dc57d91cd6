package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/internal/userfile"
	"github.com/vigil-console/vigil/keys"
	"github.com/vigil-console/vigil/profile"
	"github.com/vigil-console/vigil/webhook"

	"github.com/vigil-console/vigil/ui"
)

const webhookUsage = `Usage: vigil webhook listen|verify|keys

Receive and verify the service's signed webhook deliveries (docs/webhooks.md).

  vigil webhook listen --addr HOST:PORT [--json] [--save DIR] [--max-age D]
  vigil webhook verify --body FILE --header 'Name: value'… [--jwks FILE|URL]
  vigil webhook keys [--json]
`

func cmdWebhook(ctx context.Context, c proc, args []string) error {
	return runGroup(ctx, c, "webhook", webhookUsage, []subcommand{
		{"listen", webhookListen},
		{"verify", webhookVerify},
		{"keys", webhookKeys},
	}, args)
}

// maxDeliveryBody bounds a delivery's body: the largest the service sends.
const maxDeliveryBody = webhook.MaxBodyBytes

// webhookProfile is the profile the flags name. The webhook verbs need no
// key, only where the JWKS is published (profileBaseURL) and the organization
// whose deliveries to accept.
func webhookProfile(c proc, conn connFlags) (Profile, error) {
	path := conn.config
	if path == "" {
		path = c.getenv("VIGIL_CONFIG")
	}
	return loadProfile(c, path, conn.profile)
}

// profileBaseURL is p's base_url without a trailing slash.
func profileBaseURL(p Profile) (string, error) {
	if p.BaseURL == "" {
		return "", fmt.Errorf("profile %q has no base_url: set it to the service's address, or pass --jwks", p.Name)
	}
	return strings.TrimRight(p.BaseURL, "/"), nil
}

// checkJWKSURL refuses a --jwks URL that is plain http to a host that is not
// this machine, by the rule and in the words a profile's base_url is refused
// (profile.CheckPlaintextHTTP), unless the profile says
// allow_plaintext_http = true: the key set decides which deliveries are
// reported verified, so one forged on the way would vouch for forged
// deliveries. hint is what else the verb takes. A URL holding what looks
// like a private key is refused before its host goes to the resolver.
func checkJWKSURL(c proc, conn connFlags, verb, from, hint string) error {
	if keys.URLHoldsSecret(from) {
		return usagef("%s: --jwks takes the key set's URL, and the value is %s", verb, keys.SecretArg(from, "a URL"))
	}
	if profile.CheckPlaintextHTTP(from, false) == nil {
		return nil
	}
	p, perr := webhookProfile(c, conn)
	err := profile.CheckPlaintextHTTP(from, perr == nil && p.AllowPlaintextHTTP)
	if err == nil {
		return nil
	}
	return usagef("%s: --jwks %v%s", verb, err, hint)
}

// jwksFetchTimeout bounds fetching a key set, as the verifier's cache does.
const jwksFetchTimeout = 10 * time.Second

// isJWKSURL reports whether jwksSource takes from as a URL, not a file.
func isJWKSURL(from string) bool {
	return strings.HasPrefix(from, "http://") || strings.HasPrefix(from, "https://")
}

// jwksSource is the key source of a JWKS at a URL or in a file: the same
// cache, fetch and Cache-Control handling either way (a file is read through
// net/http's file transport).
func jwksSource(from string) (*webhook.JWKSCache, error) {
	if isJWKSURL(from) {
		return webhook.NewJWKSCache(from, nil, nil), nil
	}
	abs, err := filepath.Abs(from)
	if err != nil {
		return nil, fmt.Errorf("JWKS file %s: %w", from, err)
	}
	fi, err := os.Stat(abs)
	if err != nil {
		return nil, usagef("--jwks %s: %v; give a JWKS file or an http(s) URL", from, err)
	}
	if !fi.Mode().IsRegular() {
		// The file transport would list a directory as HTML, or wait for a
		// named pipe's writer past Ctrl-C.
		return nil, usagef("--jwks %s: %s is %s, not a regular file; give a JWKS file or an http(s) URL", from, from, userfile.Kind(fi.Mode()))
	}
	if fi.Size() > webhook.MaxJWKSSize {
		return nil, usagef("--jwks %s is over %d MiB; no key set is that large: give a JWKS file or an http(s) URL", from, webhook.MaxJWKSSize>>20)
	}
	t := &http.Transport{}
	t.RegisterProtocol("file", http.NewFileTransport(http.Dir("/")))
	// Built, not concatenated: a file name may hold '#', '?' or '%'.
	u := url.URL{Scheme: "file", Path: filepath.ToSlash(abs)}
	return webhook.NewJWKSCache(u.String(), &http.Client{Transport: t}, nil), nil
}

// registerReportFlags adds --profile, --config and a --json of listen's and
// verify's own: they print verification reports, not a reply of the service.
func (f *connFlags) registerReportFlags(fs *flag.FlagSet, jsonUsage string) {
	f.register(fs, false)
	fs.BoolVar(&f.json, "json", false, jsonUsage)
}

// deliveryReport is what listen prints for each delivery (--json: one object
// per line), and what verify prints for one.
type deliveryReport struct {
	Verified       bool   `json:"verified"`
	EventID        string `json:"eventId,omitempty"`
	KeyID          string `json:"keyId,omitempty"`
	OrganizationID string `json:"organizationId,omitempty"`
	ActivityID     string `json:"activityId,omitempty"`
	Type           string `json:"type,omitempty"`
	Status         string `json:"status,omitempty"`
	Reason         string `json:"reason,omitempty"`
	Saved          string `json:"saved,omitempty"`
	// Redelivery: verified, and its event was already accepted with the same
	// body; answered 200, neither saved nor counted as new again.
	Redelivery bool `json:"redelivery,omitempty"`

	signedAt time.Time // the signed timestamp, when it verified
	unread   bool      // refused on its headers alone, its body unread
}

// reportDelivery describes a delivery: from the verifier when it verified,
// else from the (unverified, so only informative) headers and body. Every
// value is kept exact (but a refused delivery's header and body fields, cut
// short), and
// escaped once where it is shown: line and write here, the console's Webhooks
// screen at render time.
func reportDelivery(h http.Header, body []byte, d *webhook.Delivery, err error) deliveryReport {
	r := deliveryReport{Verified: err == nil}
	if d != nil {
		r.EventID, r.KeyID, r.OrganizationID = d.EventID, d.KeyID, d.OrganizationID
		r.signedAt = d.Timestamp
	} else {
		// As unsigned as the body's claims (below), and cut as short.
		r.EventID = api.ClipBytes(h.Get(webhook.HeaderEventID), unverifiedValueBytes)
		r.KeyID = api.ClipBytes(h.Get(webhook.HeaderKeyID), unverifiedValueBytes)
		r.OrganizationID = api.ClipBytes(h.Get(webhook.HeaderOrganizationID), unverifiedValueBytes)
	}
	var a struct {
		ID     string `json:"id"`
		Type   string `json:"type"`
		Status string `json:"status"`
	}
	if json.Unmarshal(body, &a) == nil {
		r.ActivityID, r.Type, r.Status = a.ID, a.Type, a.Status
		if err != nil {
			// Unsigned claims, sent by anyone who can reach the listener:
			// a short prefix is enough to recognise them, and no more is
			// printed, kept by the console or logged.
			r.ActivityID, r.Type, r.Status = api.ClipBytes(a.ID, unverifiedValueBytes), api.ClipBytes(a.Type, unverifiedValueBytes), api.ClipBytes(a.Status, unverifiedValueBytes)
		}
	}
	if err != nil {
		r.Reason = err.Error()
	}
	return r
}

// line is the report for people: one line, every value escaped (a value with
// a control is quoted, api.SanitizeID).
func (r deliveryReport) line() string {
	verdict := "verified"
	switch {
	case !r.Verified:
		verdict = "REFUSED"
	case r.Redelivery:
		verdict = "redelivery"
	}
	s := verdict
	if !r.Verified && r.EventID+r.OrganizationID+r.KeyID+r.ActivityID+r.Type+r.Status != "" {
		s += " unverified:" // what the headers and body claim, which no signature vouched for
	}
	s += fmt.Sprintf(" event=%s org=%s key=%s activity=%s type=%s status=%s", orDash(r.EventID), orDash(r.OrganizationID), orDash(r.KeyID),
		orDash(r.ActivityID), orDash(r.Type), orDash(r.Status))
	if r.Saved != "" {
		s += " saved=" + api.Sanitize(r.Saved)
	}
	if r.Reason != "" {
		s += ": " + api.Sanitize(r.Reason)
	}
	return s
}

// Bounds of the values a delivery report shows: a refused delivery's header
// and body fields are cut at unverifiedValueBytes when read, and every value of a
// line at lineValueBytes, so that no sender can print a multi-megabyte line.
const (
	unverifiedValueBytes = 128
	lineValueBytes       = 256
)

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return api.SanitizeID(api.ClipBytes(s, lineValueBytes))
}

// write prints the report: a line for people, or with --json one JSON object
// on one line, its values exact and escaped by api.EncodeJSON.
func (r deliveryReport) write(w io.Writer, asJSON bool) error {
	if !asJSON {
		_, err := fmt.Fprintln(w, r.line())
		return err
	}
	var indented, line bytes.Buffer
	if err := api.EncodeJSON(&indented, r); err != nil {
		return err
	}
	if err := json.Compact(&line, indented.Bytes()); err != nil {
		return err
	}
	line.WriteByte('\n')
	_, err := w.Write(line.Bytes())
	return err
}

// signedHeaders are the headers a delivery is verified with; --save keeps them.
var signedHeaders = []string{
	webhook.HeaderAlgorithm, webhook.HeaderVersion, webhook.HeaderKeyID, webhook.HeaderTimestamp,
	webhook.HeaderEventID, webhook.HeaderSignature, webhook.HeaderOrganizationID, webhook.HeaderEventType,
}

// parseHeaderLines reads 'Name: value' lines (blank lines skipped).
func parseHeaderLines(lines []string) (http.Header, error) {
	h := http.Header{}
	for _, l := range lines {
		l = strings.TrimRight(l, "\r")
		if strings.TrimSpace(l) == "" {
			continue
		}
		name, value, ok := strings.Cut(l, ":")
		if !ok || strings.TrimSpace(name) == "" || strings.ContainsAny(name, " \t") {
			return nil, usagef("header %q is not 'Name: value'", api.Sanitize(l))
		}
		h.Add(name, strings.TrimSpace(value))
	}
	return h, nil
}

const webhookVerifyUsage = `Usage: vigil webhook verify --body FILE (--header 'Name: value'… | --headers FILE)
                          [--jwks FILE|URL] [--organization ID] [--max-age D] [--json]

Verifies one captured webhook delivery: its signature with the published key
its key id names, its timestamp (no older than --max-age, at most a minute
ahead), and that the signed body's organizationId is the header's and the
profile's organization_id (or --organization): the service signs every
organization's deliveries with the same keys.

The keys come from --jwks (a JWKS file, or a URL), else from the profile's
{base_url}/public/v1/discovery/webhooks/jwks. A --jwks URL is https://, or
http:// to this machine, as base_url is (elsewhere only with the profile's
allow_plaintext_http = true): a key set forged on the way would vouch for
forged deliveries. A delivery saved by
'vigil webhook listen --save DIR' is DIR/NAME.body with DIR/NAME.headers;
to check an old one, raise --max-age. When the service has rotated its key out
of the published set since, the key saved beside it (DIR/NAME.jwk, which the
service published when the listener accepted the delivery) is used instead,
and verify says so; it proves as much as that directory can be trusted.

Exit status: 0 verified, 1 not verified (the reason on standard error), 2 usage
(also: no --jwks and no profile to fetch the keys from).

Examples:
  vigil webhook verify --body d.json --header 'X-Service-Signature: 3f…' --header 'X-Service-Timestamp: 1732…' …
  vigil webhook verify --body hooks/0001.body --headers hooks/0001.headers --max-age 720h
  vigil webhook verify --jwks jwks.json --body d.json --headers d.headers

Flags:
`

// stringList is a repeatable string flag.
type stringList []string

func (l *stringList) String() string { return strings.Join(*l, ", ") }
func (l *stringList) Set(v string) error {
	if v == "" {
		// As for every string flag (refuseEmptyValues).
		return errors.New("empty (an unset shell variable?); give a value, or leave the flag out")
	}
	*l = append(*l, v)
	return nil
}

func webhookVerify(ctx context.Context, c proc, args []string) error {
	fs := newFlagSet("webhook verify", webhookVerifyUsage)
	var conn connFlags
	conn.registerReportFlags(fs, `print the report as one JSON object ({"verified":…,"eventId":…}), values exact`)
	bodyPath := fs.String("body", "", "the delivery's body `FILE` exactly as received (- for standard input)")
	var headerArgs stringList
	fs.Var(&headerArgs, "header", "a delivery header, 'Name: value' (repeat for each)")
	headersPath := fs.String("headers", "", "`FILE` of 'Name: value' lines, as --save writes")
	jwks := fs.String("jwks", "", "the verification keys: a JWKS `FILE` or URL (default: the profile's)")
	maxAge := fs.Duration("max-age", webhook.DefaultMaxAge, "refuse deliveries signed longer ago than this")
	org := fs.String("organization", "", "the organization `ID` the delivery must be for (default: the profile's organization_id)")
	if err := parseFlagsOnly(c, fs, args); err != nil {
		return err
	}
	if *bodyPath == "" {
		return usagef("webhook verify: --body FILE is required (the delivery's body exactly as received)")
	}
	if len(headerArgs) == 0 && *headersPath == "" {
		return usagef("webhook verify: give the delivery's headers with --header 'Name: value' (repeated) or --headers FILE")
	}
	if *maxAge <= 0 {
		return usagef("webhook verify: --max-age %s must be positive", *maxAge)
	}
	lines := []string(headerArgs)
	if *headersPath != "" {
		data, err := readHeadersFile(*headersPath)
		if err != nil {
			return inputErrorf(err, "webhook verify: --headers")
		}
		lines = append(lines, strings.Split(string(data), "\n")...)
	}
	h, err := parseHeaderLines(lines)
	if err != nil {
		return err
	}
	body, from, err := readInput(ctx, c, *bodyPath, "the delivery body", maxDeliveryBody)
	if err != nil {
		return inputErrorf(err, "webhook verify: --body %s", from)
	}
	if len(body) > maxDeliveryBody {
		return usagef("webhook verify: --body: %s is over %d MiB; no delivery is that large: give the delivery's body exactly as received", from, maxDeliveryBody>>20)
	}
	if isJWKSURL(*jwks) {
		if err := checkJWKSURL(c, conn, "webhook verify", *jwks, "; or give a JWKS file, saved where the set could be fetched safely ('vigil webhook keys --json > jwks.json')"); err != nil {
			return err
		}
	}
	source := *jwks
	if source == "" || *org == "" {
		// Without a profile, what is missing is a flag: a usage error (2)
		// naming it, not a failure (1).
		p, err := webhookProfile(c, conn)
		switch {
		case err != nil && *org == "" && source == "":
			return usagef("webhook verify: give --jwks FILE|URL, the verification keys, and --organization ID, the organization the delivery must be for, or make a profile that has base_url and organization_id: %v", err)
		case err != nil && *org == "":
			return usagef("webhook verify: give --organization ID, the organization the delivery must be for, or a profile that has it: %v", err)
		case err != nil:
			return usagef("webhook verify: give --jwks FILE|URL, the verification keys (a set saved with 'vigil webhook keys --json > jwks.json', or its URL), or make a profile whose base_url serves them: %v", err)
		}
		if *org == "" {
			*org = p.OrganizationID
		}
		if source == "" {
			base, err := profileBaseURL(p)
			if err != nil {
				return usagef("webhook verify: %v", err)
			}
			source = base + api.JWKSPath
		}
	}
	keySource, err := jwksSource(source)
	if err != nil {
		return err
	}
	now := time.Now()
	d, verr := webhook.VerifyForOrganization(ctx, *org, h, body, keySource, now, *maxAge)
	if errors.Is(verr, webhook.ErrUnknownKey) && *jwks == "" {
		// Rotated out since it was saved? 'listen --save' kept the key.
		sd, keyFile, serr := verifySavedDelivery(ctx, *bodyPath, *org, h, body, now, *maxAge)
		switch {
		case keyFile == "":
			verr = fmt.Errorf("%w; a delivery saved before the service rotated that key out can be checked only with the key saved beside it (NAME%s, written by 'vigil webhook listen --save') or with --jwks naming a set that still holds it", verr, savedKeyExt)
		case serr != nil:
			verr = fmt.Errorf("%w; with the key saved beside it, %s: %w", verr, keyFile, serr)
		default:
			d, verr = sd, nil
			fmt.Fprintf(c.stderr, "key %s is no longer published: verified with the key saved beside the delivery, %s (the service published it when 'vigil webhook listen --save' accepted the delivery)\n",
				api.SanitizeID(d.KeyID), api.Sanitize(keyFile))
		}
	}
	r := reportDelivery(h, body, d, verr)
	if err := r.write(c.stdout, conn.json); err != nil {
		return err
	}
	if verr != nil {
		return &exitStatus{code: 1, msg: "not verified: " + api.Sanitize(r.Reason)}
	}
	return nil
}

const webhookKeysUsage = `Usage: vigil webhook keys [--json] [--jwks URL]

Lists the webhook verification keys the service publishes at the profile's
{base_url}/public/v1/discovery/webhooks/jwks: key id, algorithm, version, the
reply's Cache-Control and Age lines, and how long receivers keep the set, as
their verifier works it out ("receivers keep it: 1d, and up to 7d more while it
cannot be fetched"; "receivers refuse it" for a set with no usable key). A key
a receiver would not use is marked.
--json prints the key set as published. A --jwks URL is https://, or http://
to this machine, as base_url is (elsewhere only with the profile's
allow_plaintext_http = true).

Examples:
  vigil webhook keys
  vigil webhook keys --json > jwks.json    # for 'vigil webhook verify --jwks jwks.json'

Flags:
`

func webhookKeys(ctx context.Context, c proc, args []string) error {
	fs := newFlagSet("webhook keys", webhookKeysUsage)
	var conn connFlags
	conn.register(fs, true)
	from := fs.String("jwks", "", "the JWKS `URL` (default: the profile's)")
	if err := parseFlagsOnly(c, fs, args); err != nil {
		return err
	}
	if *from == "" {
		p, err := webhookProfile(c, conn)
		if err != nil {
			return usagef("webhook keys: give --jwks URL, the service's webhook key set, or make a profile whose base_url serves it: %v", err)
		}
		base, err := profileBaseURL(p)
		if err != nil {
			return usagef("webhook keys: %v", err)
		}
		*from = base + api.JWKSPath
	}
	if _, err := url.Parse(*from); err != nil {
		return usagef("webhook keys: bad URL %s: %v", api.Quote(*from), escapedError{err})
	}
	if err := checkJWKSURL(c, conn, "webhook keys", *from, ""); err != nil {
		return err
	}
	// The same fetch as the verifier's JWKSCache: this output is what operators
	// save for `verify --jwks`, so it refuses a redirect just as strictly.
	reply, err := webhook.FetchJWKS(ctx, &http.Client{Timeout: jwksFetchTimeout}, *from)
	if err != nil {
		// net/http's errors carry text from the network (a certificate's
		// names), so they are escaped like api's.
		return fmt.Errorf("webhook keys: %w", escapedError{err})
	}
	if conn.json { // the set as published, every field kept
		return writeJSON(c.stdout, json.RawMessage(reply.Raw))
	}
	// Every line, as CacheLifetime reads them all: a proxy's second
	// Cache-Control line changes the lifetime printed below.
	cache := api.Sanitize(strings.Join(reply.Header.Values("Cache-Control"), ", "))
	if ages := reply.Header.Values("Age"); len(ages) > 0 {
		cache += ", age " + api.Sanitize(strings.Join(ages, "s, ")) + "s"
	}
	// Marked by the receiver's own selection, which also skips a kid listed
	// twice with different keys, not entry by entry.
	skip := webhook.KeySkipReasons(reply.Set)
	rows := make([][]string, 0, len(reply.Set.Keys))
	for i, k := range reply.Set.Keys {
		note := skip[i]
		rows = append(rows, []string{api.SanitizeID(k.Kid), api.SanitizeID(k.Alg) + "/" + api.SanitizeID(k.Crv),
			api.SanitizeID(k.ServiceSignatureAlgorithm) + " " + api.SanitizeID(k.ServiceSignatureVersion), note})
	}
	if err := table(c.stdout, []string{"KID", "ALG", "VERSION", ""}, rows); err != nil {
		return err
	}
	_, err = fmt.Fprintf(c.stdout, "cache: %s\n%s\n", orDash(cache), keptFor(reply))
	return err
}

// keptFor says how long a receiver keeps the key set of reply, from the
// verifier's own reading of it (webhook.CacheLifetime): operators judge from
// it how long a rotated-out key stays trusted. A set with no usable key is
// not kept at all: JWKSCache counts it as a failed fetch.
func keptFor(reply webhook.JWKSReply) string {
	if webhook.UsableKeyCount(reply.Set) == 0 {
		return "receivers refuse it: no usable key (each goes on with the set it had while that lasts, or refuses deliveries)"
	}
	fresh, stale := webhook.CacheLifetime(reply.Header)
	s := "receivers keep it: " + ui.HumanDuration(fresh)
	if fresh <= webhook.MinRefetchInterval {
		s += " (the least time between two fetches)"
	}
	if stale > 0 {
		s += ", and up to " + ui.HumanDuration(stale) + " more while it cannot be fetched"
	}
	return s
}

// maxHeadersFile bounds a --headers file: a delivery's headers are a few
// hundred bytes.
const maxHeadersFile = 1 << 20

// readHeadersFile reads a --headers file: a regular file or a pipe, whose
// open does not block (see readInput).
func readHeadersFile(path string) ([]byte, error) {
	const give = "give the file of 'Name: value' lines that --save wrote"
	f, err := userfile.OpenInput(path)
	if err != nil {
		return nil, fmt.Errorf("%w; %s", err, give)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxHeadersFile+1))
	if err != nil {
		return nil, inputReadError{fmt.Errorf("read %s: %w", path, err)}
	}
	if len(data) > maxHeadersFile {
		return nil, fmt.Errorf("%s is larger than %d bytes; a delivery's headers are far smaller: %s", path, maxHeadersFile, give)
	}
	return data, nil
}
