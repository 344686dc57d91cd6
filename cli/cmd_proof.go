package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/profile"
	"github.com/vigil-console/vigil/proof"
)

const proofUsage = `vigil proof — verify enclave boot proofs and app proofs

Usage:
  vigil proof verify (--boot-proof FILE | --attestation FILE) [flags]
  vigil proof fetch --app NAME [--profile P] [--config F] [--out FILE] [flags]

A boot proof is checked cryptographically, offline: the AWS Nitro attestation
document's COSE signature and certificate chain (to the built-in, pinned AWS
Nitro Enclaves Root-G1, or to roots you add), its binding to the QuorumOS
manifest (user_data) and ephemeral key (public_key), the manifest's PCRs and
quorum approvals, your pins, and each app proof's signature by the attested key.

Exit status: 0 when no check failed, 1 when one did, 2 for usage errors.
Run 'vigil proof verify -h' or 'vigil proof fetch -h' for flags.
`

const verifyUsage = `Usage: vigil proof verify (--boot-proof FILE | --attestation FILE) [flags]

Examples:
  vigil proof verify --boot-proof boot.json --app-proofs proofs.json --activity 0192a6c4-…
  vigil proof verify --boot-proof boot.json --allow-manifest 4d5e…07c1 --require-pinned
  vigil proof verify --boot-proof boot.json --expect-pivot dc64…ba27 --expect-manifest-set set.json --require-pinned
  vigil proof verify --attestation doc.cbor --at 2024-09-07T14:40:00Z
  vigil proof verify --boot-proof demo-boot.json --root demo-root.pem

FILE may be - for standard input. --boot-proof takes a get_latest_boot_proof reply
({"bootProof":…}) or a bare boot proof; --app-proofs a list_app_proofs reply
({"appProofs":[…]}), a list, or one app proof; --attestation a raw COSE_Sign1
document, binary CBOR or base64.

A valid signature shows only that the enclave signed an app proof's payload;
--activity ID also requires each payload to name that activity (check
app-proof[i].activity), so that a proof of another activity fails. Without it
that check is not run (–) and the report says which activity each proof names.

Pins: the manifest hash (--allow-manifest), or the pivot hash (the app binary,
--expect-pivot) and the manifest set (the operators who approve it,
--expect-manifest-set) together, tie the proof to your app; unlike the manifest
hash, the pivot and set survive a new manifest (nonce, rotation). PCRs
(--expect-pcr) measure the QuorumOS enclave image, which anyone can boot with a
manifest of their own, so PCR pins alone leave a caveat under the verdict, as no
pins do and as partial pins (a pivot or a quorum key alone) do.
--require-verified accepts a VERIFIED with a caveat; --require-pinned does not.

Flags:
`

const fetchUsage = `Usage: vigil proof fetch --app NAME [--profile P] [--config F] [--out FILE] [flags]

Fetches the latest boot proof of enclave app NAME with the profile's key, verifies
it against the profile's trusted_roots, expected_pcrs.NAME,
allowed_manifest_hashes, expected_pivot_hashes.NAME, expected_manifest_sets.NAME
and expected_quorum_keys.NAME, checks that it is NAME's (its attested manifest
namespace and its label name NAME), and prints the report. --out also saves the reply
({"bootProof":…}) so it can be verified again later with 'vigil proof verify';
--out - writes the reply to standard output instead, and the report to standard
error (without --json, which would print it there).
A reply that FAILED is saved to a new FILE (it is the evidence), but does not
replace an existing one, which likely holds the last good proof, unless --force.
--out naming a directory is refused before anything is fetched (exit 2).

--expect-pcr N=HEX replaces the profile's pin of PCR N, and --expect-manifest-set
and --expect-quorum-key the profile's pin of them; --allow-manifest HEX and
--expect-pivot HEX add to the profile's allowed_manifest_hashes and
expected_pivot_hashes.NAME (they cannot narrow them: edit the profile).

Examples:
  vigil proof fetch --app signer
  vigil proof fetch --app signer --profile prod --out signer-boot.json --json
  vigil proof fetch --app signer --out - | vigil proof verify --boot-proof - --require-pinned

Flags:
`

// maxProofFile bounds what we read from a proof file.
const maxProofFile = 8 << 20

func cmdProof(ctx context.Context, c proc, args []string) error {
	if len(args) == 0 {
		fmt.Fprint(c.stderr, proofUsage)
		return usagef("proof needs a subcommand: verify or fetch")
	}
	switch args[0] {
	case "verify":
		return cmdProofVerify(ctx, c, args[1:])
	case "fetch":
		return cmdProofFetch(ctx, c, args[1:])
	case "-h", "-help", "--help", "help":
		return showHelp(c.stdout, proofUsage)
	}
	return usagef("unknown proof subcommand %s; use verify or fetch", shownArg(args[0], "a subcommand"))
}

// listFlag collects a repeatable string flag.
type listFlag []string

func (l *listFlag) String() string { return strings.Join(*l, ",") }
func (l *listFlag) Set(v string) error {
	if v == "" {
		// As for every string flag (refuseEmptyValues): most often an
		// unset shell variable.
		return errors.New("empty (an unset shell variable?); give a value, or leave the flag out")
	}
	*l = append(*l, v)
	return nil
}

// commonProofFlags are shared by verify and fetch.
type commonProofFlags struct {
	roots      listFlag
	expectPCRs listFlag
	allowHash  listFlag
	// Pins of the manifest's content: they survive a new manifest (nonce,
	// rotation), where --allow-manifest does not.
	expectPivot     listFlag
	expectSet       string
	expectQuorumKey string
	at              string
	json            bool
	// requireVerified: exit 1 unless the verdict is VERIFIED, so a script
	// that checks only the exit status does not take PARTIAL for it.
	requireVerified bool
	// requirePinned: exit 1 unless VERIFIED with no caveat, that is with the
	// manifest hash pinned, or its pivot hash and manifest set (PCR pins
	// alone do not tie the proof to the app).
	requirePinned bool
}

func (f *commonProofFlags) register(fs *flag.FlagSet) {
	fs.Var(&f.roots, "root", "extra trusted root certificate `PEM` file (repeatable); the AWS Nitro root is always trusted")
	fs.Var(&f.expectPCRs, "expect-pcr", "pin a PCR: `N=HEX` (repeatable)")
	fs.Var(&f.allowHash, "allow-manifest", "allowed manifest SHA-256 `HEX` (repeatable)")
	fs.Var(&f.expectPivot, "expect-pivot", "pin the manifest's pivot hash, the app binary's SHA-256: `HEX` (repeatable: any of them)")
	fs.StringVar(&f.expectSet, "expect-manifest-set", "", "pin the manifest set: `THRESHOLD:KEY,KEY…` (QOS public keys, hex) or a FILE with the set as --json prints it; the manifest's set may hold only these members and needs at least this threshold")
	fs.StringVar(&f.expectQuorumKey, "expect-quorum-key", "", "pin the manifest's quorum public key: `HEX` (260 hex digits)")
	fs.StringVar(&f.at, "at", "", "validate certificates at this RFC 3339 `TIME` instead of the document's own timestamp (which must still fall within its leaf certificate's validity)")
	fs.BoolVar(&f.json, "json", false, "print the report as JSON")
	fs.BoolVar(&f.requireVerified, "require-verified", false, "exit 1 unless the verdict is VERIFIED (PARTIAL too; without it, only FAILED exits 1); a VERIFIED with a caveat (no pins, PCR pins only) passes")
	fs.BoolVar(&f.requirePinned, "require-pinned", false, "exit 1 unless the verdict is VERIFIED with no caveat: the manifest hash pinned (--allow-manifest), or its pivot hash and manifest set (--expect-pivot and --expect-manifest-set), here or in the profile")
}

// report prints rep, and fails when it FAILED, or when it is not VERIFIED
// and --require-verified was given.
func (f *commonProofFlags) report(c proc, rep *proof.Report, bp *api.BootProof) error {
	if err := printReport(c, rep, bp, f.json); err != nil {
		return err
	}
	flag := "--require-verified"
	if f.requirePinned {
		flag = "--require-pinned"
	}
	if (f.requireVerified || f.requirePinned) && rep.Verdict != proof.Verified {
		return fmt.Errorf("verification %s, not VERIFIED (%s): %s; see the report", rep.Verdict, flag, rep.PartialReason())
	}
	if f.requirePinned && rep.Caveat != "" {
		return fmt.Errorf("verification VERIFIED with a caveat (--require-pinned): %s", rep.Caveat)
	}
	return nil
}

// options turns the flags into proof.Options; it returns usage errors for bad
// flag values and plain errors for unreadable files.
func (f *commonProofFlags) options(ctx context.Context, c proc) (proof.Options, error) {
	var o proof.Options
	if f.at != "" {
		t, err := time.Parse(time.RFC3339, f.at)
		if err != nil {
			return o, usagef("--at %q is not an RFC 3339 time such as 2025-09-16T21:30:00Z", f.at)
		}
		o.At = t
	}
	for _, e := range f.expectPCRs {
		i, v, err := parsePCRFlag(e)
		if err != nil {
			return o, usagef("--expect-pcr %s: %v", pinExcerpt(e), err)
		}
		if _, dup := o.ExpectedPCRs[i]; dup {
			return o, usagef("--expect-pcr: PCR%d is pinned twice; pin each PCR once", i)
		}
		if o.ExpectedPCRs == nil {
			o.ExpectedPCRs = map[int][]byte{}
		}
		o.ExpectedPCRs[i] = v
	}
	for _, h := range f.allowHash {
		b, err := profile.ParseManifestHash(h)
		if err != nil {
			return o, usagef("--allow-manifest %s: %v", pinExcerpt(h), err)
		}
		o.AllowedManifestHashes = append(o.AllowedManifestHashes, b)
	}
	for _, h := range f.expectPivot {
		b, err := profile.ParsePivotHash(h)
		if err != nil {
			return o, usagef("--expect-pivot %s: %v", pinExcerpt(h), err)
		}
		o.ExpectedPivotHashes = append(o.ExpectedPivotHashes, b)
	}
	if f.expectQuorumKey != "" {
		b, err := profile.ParseQuorumKey(f.expectQuorumKey)
		if err != nil {
			return o, usagef("--expect-quorum-key: %v", err)
		}
		o.ExpectedQuorumKey = b
	}
	if f.expectSet != "" {
		set, err := parseManifestSetFlag(ctx, c, f.expectSet)
		if err != nil {
			return o, inputErrorf(err, "--expect-manifest-set")
		}
		o.ExpectedManifestSet = set
	}
	for _, path := range f.roots {
		roots, err := readRoots(ctx, c, path)
		if err != nil {
			return o, err
		}
		o.Roots = append(o.Roots, roots...)
	}
	return o, nil
}

func readRoots(ctx context.Context, c proc, path string) ([]proof.Root, error) {
	b, err := readProofFile(ctx, c, path)
	if err != nil {
		return nil, fmt.Errorf("--root: %w", err)
	}
	roots, err := proof.ParseRootsPEM(path, b)
	if err != nil {
		return nil, fmt.Errorf("--root: %w", err)
	}
	return roots, nil
}

func readProofFile(ctx context.Context, c proc, path string) ([]byte, error) {
	b, _, err := readInput(ctx, c, path, "the proof", maxProofFile)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	if len(b) > maxProofFile {
		return nil, usagef("%s is over %d MiB; that is not a proof file: check the file name, and give the file the proof (or root certificate) was saved to", path, maxProofFile>>20)
	}
	return b, nil
}

func cmdProofVerify(ctx context.Context, c proc, args []string) error {
	fs := newFlagSet("proof verify", verifyUsage)
	var common commonProofFlags
	common.register(fs)
	bootPath := fs.String("boot-proof", "", "boot proof `FILE` (get_latest_boot_proof reply or bare boot proof)")
	appPath := fs.String("app-proofs", "", "app proofs `FILE` (list_app_proofs reply, list, or one proof)")
	attPath := fs.String("attestation", "", "raw attestation document `FILE` (COSE_Sign1, CBOR or base64)")
	activity := fs.String("activity", "", "require each app proof to be about the activity with this `ID`")
	if err := parseFlagsOnly(c, fs, args); err != nil {
		return err
	}
	if (*bootPath == "") == (*attPath == "") {
		return usagef("give exactly one of --boot-proof FILE or --attestation FILE; run 'vigil proof verify -h' for examples")
	}
	if *activity != "" && *appPath == "" {
		return usagef("--activity ID checks app proofs: give them with --app-proofs FILE")
	}
	opts, err := common.options(ctx, c)
	if err != nil {
		return err
	}
	if *appPath != "" {
		b, err := readProofFile(ctx, c, *appPath)
		if err != nil {
			return err
		}
		if opts.AppProofs, err = parseAppProofs(b); err != nil {
			return fmt.Errorf("%s: %w", *appPath, err)
		}
	}
	if *activity != "" {
		opts.Activity = &proof.Subject{ActivityID: *activity}
	}
	var rep *proof.Report
	var bp *api.BootProof
	if *bootPath != "" {
		b, err := readProofFile(ctx, c, *bootPath)
		if err != nil {
			return err
		}
		if bp, err = parseBootProof(b); err != nil {
			return fmt.Errorf("%s: %w", *bootPath, err)
		}
		rep = proof.VerifyBootProof(*bp, opts)
	} else {
		b, err := readProofFile(ctx, c, *attPath)
		if err != nil {
			return err
		}
		rep = proof.VerifyAttestation(attestationBytes(b), opts)
	}
	return common.report(c, rep, bp)
}

// parseBootProof accepts {"bootProof":{…}} or a bare boot proof.
func parseBootProof(b []byte) (*api.BootProof, error) {
	var wrapped struct {
		BootProof *api.BootProof `json:"bootProof"`
	}
	if err := json.Unmarshal(b, &wrapped); err != nil {
		return nil, fmt.Errorf("not JSON: %w", err)
	}
	bp := wrapped.BootProof
	if bp == nil {
		bp = new(api.BootProof)
		if err := json.Unmarshal(b, bp); err != nil {
			return nil, fmt.Errorf("not a boot proof: %w", err)
		}
	}
	if bp.AwsAttestationDocB64 == "" {
		return nil, errors.New("neither a get_latest_boot_proof reply nor a boot proof (no awsAttestationDocB64)")
	}
	return bp, nil
}

// parseAppProofs accepts {"appProofs":[…]}, a list, or one app proof. No
// proofs at all is an error: a script that checks an activity's app proofs
// must not pass having checked nothing.
func parseAppProofs(b []byte) ([]api.AppProof, error) {
	list, err := decodeAppProofs(b)
	if err == nil && len(list) == 0 {
		err = errors.New("holds no app proofs, so there is nothing to verify (an activity has them once it completes, when it was submitted with app proofs requested: 'vigil activity proofs ID')")
	}
	return list, err
}

func decodeAppProofs(b []byte) ([]api.AppProof, error) {
	b = bytes.TrimSpace(b)
	if len(b) > 0 && b[0] == '[' {
		var list []api.AppProof
		if err := json.Unmarshal(b, &list); err != nil {
			return nil, fmt.Errorf("not a list of app proofs: %w", err)
		}
		return list, nil
	}
	var wrapped struct {
		AppProofs *[]api.AppProof `json:"appProofs"`
	}
	if err := json.Unmarshal(b, &wrapped); err != nil {
		return nil, fmt.Errorf("not JSON: %w", err)
	}
	if wrapped.AppProofs != nil {
		return *wrapped.AppProofs, nil
	}
	var one api.AppProof
	if err := json.Unmarshal(b, &one); err != nil || one.Signature == "" {
		return nil, errors.New("neither a list_app_proofs reply nor an app proof")
	}
	return []api.AppProof{one}, nil
}

// attestationBytes returns binary CBOR as is and decodes base64 text.
func attestationBytes(b []byte) []byte {
	if len(b) > 0 && (b[0] == 0x84 || b[0] == 0xd2) {
		return b
	}
	if d, err := proof.DecodeBase64(string(b)); err == nil {
		return d
	}
	return b // let the verifier report what is wrong with it
}

func cmdProofFetch(ctx context.Context, c proc, args []string) error {
	fs := newFlagSet("proof fetch", fetchUsage)
	var common commonProofFlags
	common.register(fs)
	app := fs.String("app", "", "enclave app `NAME`, e.g. signer")
	profile := fs.String("profile", "", "config profile `NAME` (default $VIGIL_PROFILE, then default_profile)")
	config := fs.String("config", "", "config `FILE` (default $VIGIL_CONFIG, then $XDG_CONFIG_HOME/vigil/config.toml)")
	out := fs.String("out", "", "also save the reply to `FILE` (a FAILED reply does not replace an existing file without --force); - writes it to standard output and the report to standard error")
	force := fs.Bool("force", false, "with --out, replace an existing FILE even with a reply that FAILED")
	if err := parseFlagsOnly(c, fs, args); err != nil {
		return err
	}
	if *app == "" {
		return usagef("--app NAME is required; run 'vigil proof fetch -h' for examples")
	}
	toStdout := *out == "-"
	if toStdout && common.json {
		return usagef("proof fetch: --out - writes the reply to standard output, which leaves the report standard error; drop --json, or save the reply with --out FILE to print the report as JSON")
	}
	if toStdout && *force {
		return usagef("proof fetch: --out - writes to standard output, which has no file for --force to replace; drop --force")
	}
	var err error
	if *out, err = flagPath(c, "proof fetch", "out", *out); err != nil {
		return err
	}
	if *force && *out == "" {
		return usagef("--force replaces the file of --out: give --out FILE too")
	}
	// Said before the fetch, not after it, with the reply lost. A
	// directory that appears later is still refused by the write.
	if fi, err := os.Stat(*out); *out != "" && !toStdout && err == nil && fi.IsDir() {
		return usagef("proof fetch: --out %s is a directory; give a file name in it, such as %s", shownPath(*out), shownPath(filepath.Join(*out, "boot-proof.json")))
	}
	opts, err := common.options(ctx, c)
	if err != nil {
		return err
	}
	// Exact strings: --out saves the reply as sent and --json keeps values exact;
	// the report for people is sanitized when printed.
	client, p, err := profileClient(c, *config, *profile, api.WithExactStrings())
	if err != nil {
		return err
	}
	if err := profileProofOptions(p, *app, &opts); err != nil {
		return err
	}
	opts.App = *app // the proof must be this app's, not another the service sent
	bp, err := client.GetLatestBootProof(ctx, *app)
	if err != nil {
		return fmt.Errorf("fetch boot proof of %q: %w", *app, err)
	}
	rep := proof.VerifyBootProof(*bp, opts)
	if toStdout {
		return fetchToStdout(c, common, rep, bp)
	}
	if *out != "" && rep.Verdict == proof.Failed && !*force && holdsFile(*out) {
		// The file most likely holds the last proof that verified: a FAILED
		// reply is evidence, but not in its place.
		err := common.report(c, rep, bp)
		return fmt.Errorf("%w; %s not replaced: it exists and the reply FAILED (the file is left as it was); save it elsewhere with --out NEWFILE, or give --force to replace it", err, *out)
	}
	if *out != "" {
		var b bytes.Buffer
		if err := api.EncodeJSON(&b, api.BootProofResponse{BootProof: *bp}); err != nil {
			return err
		}
		// Replaced whole (written aside, synced, renamed): a full disk
		// leaves a proof saved there earlier as it was.
		err := writeFileAtomic(*out, b.Bytes(), 0o644)
		if errors.Is(err, errPipeNobodyReads) {
			return usagef("proof fetch: --out %s is a named pipe nobody reads, and the reply was not saved; start its reader first (cat %s), or give --out a regular file", shownPath(*out), shownWord(*out))
		}
		if err != nil {
			return fmt.Errorf("save reply: %w; %s is left as it was", err, *out)
		}
	}
	return common.report(c, rep, bp)
}

// fetchToStdout writes the reply to standard output, so that it can be
// piped or redirected whole ('--out - > boot.json', '| vigil proof verify
// --boot-proof -'), and the report to standard error.
func fetchToStdout(c proc, common commonProofFlags, rep *proof.Report, bp *api.BootProof) error {
	var b bytes.Buffer
	if err := api.EncodeJSON(&b, api.BootProofResponse{BootProof: *bp}); err != nil {
		return err
	}
	if _, err := c.stdout.Write(b.Bytes()); err != nil {
		return fmt.Errorf("write reply to standard output: %w", err)
	}
	toErr := c
	toErr.stdout = c.stderr
	return common.report(toErr, rep, bp)
}

// holdsFile reports whether path is (or links to) an existing regular file:
// what a FAILED reply must not replace. A device is not, nor a name of our
// own descriptor such as /dev/stdout, which is written to, never replaced.
func holdsFile(path string) bool {
	if _, ok := ownFD(path); ok {
		return false
	}
	fi, err := os.Stat(path)
	return err == nil && fi.Mode().IsRegular()
}

// profileProofOptions adds the profile's roots and pins for app to opts (the
// flags' pins win over the profile's), through the mapping the console uses too.
func profileProofOptions(p Profile, app string, opts *proof.Options) error {
	s, err := profileProofSettings(p)
	if err != nil {
		return err
	}
	po := s.Options(app, time.Time{})
	opts.Roots = append(opts.Roots, po.Roots...)
	for i, v := range po.ExpectedPCRs {
		if opts.ExpectedPCRs == nil {
			opts.ExpectedPCRs = map[int][]byte{}
		}
		if _, set := opts.ExpectedPCRs[i]; !set {
			opts.ExpectedPCRs[i] = v
		}
	}
	opts.AllowedManifestHashes = append(opts.AllowedManifestHashes, po.AllowedManifestHashes...)
	opts.ExpectedPivotHashes = append(opts.ExpectedPivotHashes, po.ExpectedPivotHashes...)
	if opts.ExpectedManifestSet == nil {
		opts.ExpectedManifestSet = po.ExpectedManifestSet
	}
	if opts.ExpectedQuorumKey == nil {
		opts.ExpectedQuorumKey = po.ExpectedQuorumKey
	}
	return nil
}
