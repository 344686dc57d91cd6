package keys

import (
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"regexp"
	"strings"
	"sync"
	"time"
	"unicode"

	"golang.org/x/crypto/ssh"
	"golang.org/x/crypto/ssh/agent"
)

// AgentRefPrefix starts a key reference to a key held by the ssh-agent at
// SSH_AUTH_SOCK: "ssh-agent:SHA256:…" (the fingerprint as 'ssh-add -l -E sha256'
// prints it) or "ssh-agent:COMMENT" (a comment no other agent key has).
const AgentRefPrefix = "ssh-agent:"

// Reasons an agent key cannot stamp. Errors wrap exactly one of them; the
// message says what to do.
var (
	// ErrNoAgent: SSH_AUTH_SOCK is not set, or nothing answers there.
	ErrNoAgent = errors.New("no ssh-agent")
	// ErrAgentLocked: the agent lists no keys. OpenSSH's agent, when locked,
	// answers exactly as an empty one does, so the message names both.
	ErrAgentLocked = errors.New("ssh-agent is locked or empty")
	// ErrKeyNotInAgent: no agent key has the fingerprint or comment.
	ErrKeyNotInAgent = errors.New("key not in the ssh-agent")
	// ErrAmbiguousAgentKey: more than one agent key has the comment.
	ErrAmbiguousAgentKey = errors.New("more than one ssh-agent key matches")
	// ErrKeyCannotStamp: the key's type makes no stamp the service accepts.
	ErrKeyCannotStamp = errors.New("key type cannot stamp")
	// ErrAgentRefused: the agent answered a signing request with a failure,
	// did not answer in time, or answered with something that is not a valid
	// signature by the key.
	ErrAgentRefused = errors.New("ssh-agent refused to sign")
)

// Kind is how a stamping key is held.
type Kind string

const (
	KindFile     Kind = "file"     // a key file in the keys directory
	KindAgent    Kind = "agent"    // a key the ssh-agent holds in memory
	KindHardware Kind = "hardware" // a key the agent reaches in a token or enclave
)

// StamperKind says how the key behind s is held; "" for stampers that do not say.
func StamperKind(s Stamper) Kind {
	if k, ok := s.(interface{ Kind() Kind }); ok {
		return k.Kind()
	}
	return ""
}

// Kind of a key file.
func (k *Key) Kind() Kind { return KindFile }

// IsAgentRef reports whether ref names a key in the ssh-agent rather than a
// stored key.
func IsAgentRef(ref string) bool { return strings.HasPrefix(ref, AgentRefPrefix) }

// ValidateRef checks a key reference: a stored key's name (CheckName) or
// ssh-agent:SELECTOR.
func ValidateRef(ref string) error {
	if !IsAgentRef(ref) {
		return CheckName(ref)
	}
	_, err := agentSelector(ref)
	return err
}

// agentSelector is the fingerprint or comment after the prefix.
func agentSelector(ref string) (string, error) {
	sel := strings.TrimPrefix(ref, AgentRefPrefix)
	switch {
	case sel == "":
		return "", errors.New("ssh-agent key reference has nothing after \"ssh-agent:\"; write ssh-agent:SHA256:… as 'vigil keys list --agent' shows it")
	case len(sel) > 256:
		return "", fmt.Errorf("ssh-agent key reference %s is longer than 256 characters", quoteRef(ref))
	case strings.ContainsFunc(sel, func(r rune) bool { return !unicode.IsPrint(r) }):
		return "", fmt.Errorf("ssh-agent key reference %s contains control characters", quoteRef(ref))
	case strings.HasPrefix(sel, "MD5:"):
		return "", fmt.Errorf("ssh-agent key reference %s uses an MD5 fingerprint; use the SHA256 form ('ssh-add -l -E sha256' or 'vigil keys list --agent')", quoteRef(ref))
	case strings.HasPrefix(sel, "SHA256:") && !sha256FingerprintRE.MatchString(sel):
		return "", fmt.Errorf("ssh-agent key reference %s: a SHA256 fingerprint is \"SHA256:\" and 43 base64 characters", quoteRef(ref))
	}
	return sel, nil
}

var sha256FingerprintRE = regexp.MustCompile(`^SHA256:[A-Za-z0-9+/]{43}$`)

// quoteRef is an agent key reference, or the part after its prefix, as an
// error quotes it; described, not quoted, when it holds what looks like a
// private key (one pasted after "ssh-agent:SHA256:" reads as a malformed
// fingerprint), as the error may go to a terminal or a log.
func quoteRef(ref string) string {
	if HasSecretToken(ref) {
		return "(" + describeText(ref) + " that look like a private key, not a fingerprint; not shown: treat that key as exposed)"
	}
	return fmt.Sprintf("%q", truncate(ref))
}

// agentTimeout bounds one request to the agent: long enough for a PIN prompt
// or a token's touch, short enough that a hung agent does not hang vigil.
const agentTimeout = 2 * time.Minute

// Agent is a connection to an ssh-agent. It redials after a broken
// connection, so a long-running console survives an agent restart. It is
// safe for concurrent use; requests go one at a time (agents answer in order
// anyway, and a deadline per request needs one request in flight).
type Agent struct {
	socket  string
	timeout time.Duration

	mu     sync.Mutex
	conn   *agentConn
	client agent.ExtendedAgent
}

// agentConn records the last I/O error, which tells a broken or slow
// connection from the agent's own refusal.
type agentConn struct {
	net.Conn
	err error
}

func (c *agentConn) Read(p []byte) (int, error) {
	n, err := c.Conn.Read(p)
	if err != nil {
		c.err = err
	}
	return n, err
}

func (c *agentConn) Write(p []byte) (int, error) {
	n, err := c.Conn.Write(p)
	if err != nil {
		c.err = err
	}
	return n, err
}

// DialAgent connects to the agent listening at socket (the value of
// SSH_AUTH_SOCK).
func DialAgent(socket string) (*Agent, error) {
	if socket == "" {
		return nil, fmt.Errorf("%w: SSH_AUTH_SOCK is not set; start an agent (eval \"$(ssh-agent)\") and add your key with ssh-add, or use a key file ('vigil keys generate NAME')", ErrNoAgent)
	}
	a := &Agent{socket: socket, timeout: agentTimeout}
	a.mu.Lock()
	defer a.mu.Unlock()
	if err := a.dialLocked(); err != nil {
		return nil, err
	}
	return a, nil
}

func (a *Agent) dialLocked() error {
	c, err := net.DialTimeout("unix", a.socket, 5*time.Second)
	if err != nil {
		return fmt.Errorf("%w: cannot reach the ssh-agent at SSH_AUTH_SOCK=%s (%v); is the agent still running? Start one with eval \"$(ssh-agent)\"", ErrNoAgent, a.socket, err)
	}
	a.conn = &agentConn{Conn: c}
	// Without Close, the client does one request at a time with no reader
	// goroutine, so a deadline on the connection bounds each request.
	a.client = agent.NewClient(struct{ io.ReadWriter }{a.conn})
	return nil
}

// Socket is the agent's socket path.
func (a *Agent) Socket() string { return a.socket }

// Close closes the connection.
func (a *Agent) Close() error {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.conn == nil {
		return nil
	}
	err := a.conn.Close()
	a.conn, a.client = nil, nil
	return err
}

// do runs one request with the connection's deadline. A transport error (the
// agent went away, or did not answer in time) drops the connection and is
// returned as such; the agent's own failure reply comes back as fn's error.
// When a connection that served earlier requests turns out broken, the agent
// was restarted or replaced in between: the request is tried once more on a
// new connection, so a long-running console does not fail on it.
func (a *Agent) do(fn func(agent.ExtendedAgent) error) (transport, err error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	for retried := false; ; retried = true {
		fresh := a.conn == nil
		if fresh {
			if err := a.dialLocked(); err != nil {
				return err, err
			}
		}
		a.conn.err = nil
		a.conn.SetDeadline(time.Now().Add(a.timeout))
		err = fn(a.client)
		ioErr := a.conn.err
		if ioErr == nil {
			return nil, err
		}
		a.conn.Close()
		a.conn, a.client = nil, nil
		if errors.Is(ioErr, os.ErrDeadlineExceeded) {
			return fmt.Errorf("%w: the ssh-agent at %s did not answer within %s (a token waiting for a touch or PIN?)", ErrAgentRefused, a.socket, a.timeout), err
		}
		if fresh || retried {
			return fmt.Errorf("%w: the connection to the ssh-agent at %s broke (%v); is the agent still running?", ErrNoAgent, a.socket, ioErr), err
		}
	}
}

// AgentKey describes a key the agent holds.
type AgentKey struct {
	Fingerprint  string // SHA256:… as 'ssh-add -l -E sha256' prints it
	Type         string // the SSH key type, e.g. ecdsa-sha2-nistp256
	Comment      string // as the agent reports it: untrusted text, clean it before display
	Scheme       string // the stamp scheme; "" when the key cannot stamp
	PublicKeyHex string // the public key as the service registers it; "" when it cannot stamp
	Unusable     string // why the key cannot stamp; "" when it can
	Hardware     bool   // the agent says the key lives in a token or enclave (see hardwareHint)

	pub ssh.PublicKey
}

// Ref is the key reference that names this key: ssh-agent:SHA256:….
func (k AgentKey) Ref() string { return AgentRefPrefix + k.Fingerprint }

// Kind is KindHardware when the agent says so, else KindAgent.
func (k AgentKey) Kind() Kind {
	if k.Hardware {
		return KindHardware
	}
	return KindAgent
}

// CredentialType is the service's credential type for the key ("" when it
// cannot stamp).
func (k AgentKey) CredentialType() string {
	if k.Scheme != SchemeP256 && k.Scheme != SchemeEd25519 {
		return ""
	}
	return CredentialTypeOfScheme(k.Scheme)
}

// Keys lists the agent's keys, those that cannot stamp included (with the
// reason), in the agent's order.
func (a *Agent) Keys() ([]AgentKey, error) {
	var list []*agent.Key
	transport, err := a.do(func(c agent.ExtendedAgent) error {
		var err error
		list, err = c.List()
		return err
	})
	if transport != nil {
		return nil, fmt.Errorf("list ssh-agent keys: %w", transport)
	}
	if err != nil {
		return nil, fmt.Errorf("list ssh-agent keys: %w: the agent at %s refused to list its keys (%v)", ErrAgentRefused, a.socket, err)
	}
	out := make([]AgentKey, 0, len(list))
	for _, k := range list {
		out = append(out, describeAgentKey(k))
	}
	return out, nil
}

// describeAgentKey decides whether an agent key can stamp, and how.
func describeAgentKey(k *agent.Key) AgentKey {
	d := AgentKey{Type: k.Format, Comment: k.Comment, Hardware: hardwareHint(k.Format, k.Comment)}
	pub, err := ssh.ParsePublicKey(k.Blob)
	if err != nil {
		// The parser's error quotes the agent's type name as it came: quoted
		// here, so that no control character it holds reaches a terminal.
		d.Unusable = fmt.Sprintf("a key of type %q whose public half vigil cannot read (%q)", truncate(k.Format), truncate(err.Error()))
		return d
	}
	d.pub, d.Type, d.Fingerprint = pub, pub.Type(), ssh.FingerprintSHA256(pub)
	switch pub.Type() {
	case ssh.KeyAlgoECDSA256:
		ec, ok := pub.(ssh.CryptoPublicKey).CryptoPublicKey().(*ecdsa.PublicKey)
		if !ok || ec.Curve != elliptic.P256() {
			d.Unusable = "not a P-256 key"
			return d
		}
		u, err := ec.Bytes()
		if err != nil {
			d.Unusable = fmt.Sprintf("P-256 public key cannot be encoded (%v)", err)
			return d
		}
		d.Scheme, d.PublicKeyHex = SchemeP256, hex.EncodeToString(compressP256(u))
	case ssh.KeyAlgoED25519:
		ed, ok := pub.(ssh.CryptoPublicKey).CryptoPublicKey().(ed25519.PublicKey)
		if !ok {
			d.Unusable = "not an Ed25519 key"
			return d
		}
		d.Scheme, d.PublicKeyHex = SchemeEd25519, hex.EncodeToString(ed)
	case ssh.KeyAlgoSKECDSA256, ssh.KeyAlgoSKED25519:
		d.Hardware = true
		d.Unusable = "a FIDO security-key (sk-) key signs the authenticator's flags and counter with the data, which no API-key stamp verifies; put a P-256 key in the token's PIV applet instead (see docs/keys.md)"
	case ssh.KeyAlgoECDSA384, ssh.KeyAlgoECDSA521:
		d.Unusable = "a P-384 or P-521 key; the service's API keys are P-256, secp256k1 or Ed25519"
	//lint:ignore SA1019 an agent can still hold a DSA key; it is named here so the user hears why it cannot stamp
	case ssh.KeyAlgoRSA, ssh.KeyAlgoDSA:
		d.Unusable = "an RSA or DSA key; the service's API keys are P-256, secp256k1 or Ed25519"
	default:
		if _, ok := pub.(*ssh.Certificate); ok {
			d.Unusable = "an SSH certificate; stamp with its plain key, which the agent lists separately"
		} else {
			d.Unusable = fmt.Sprintf("of type %q; the service's API keys are P-256, secp256k1 or Ed25519", truncate(pub.Type()))
		}
	}
	return d
}

// hardwareHint reports whether the agent says a key lives in hardware. The
// agent protocol has no such field, so this reads what agents put in the
// comment: OpenSSH names the PKCS#11 module a token's key came from
// (ssh-add -s), gpg-agent writes "cardno:…", yubikey-agent "YubiKey …",
// Secretive names the Secure Enclave; sk- key types are FIDO tokens by
// definition. A key the agent holds in memory can carry any comment, so this
// labels the key for the user; it proves nothing.
func hardwareHint(keyType, comment string) bool {
	if strings.HasPrefix(keyType, "sk-") {
		return true
	}
	return pkcs11ModuleRE.MatchString(comment) || hardwareWordsRE.MatchString(comment)
}

// hardwareWordsRE matches what token and enclave agents write in comments.
var hardwareWordsRE = regexp.MustCompile(`(?i)\b(piv|yubikey|pkcs ?#?11|smart ?card|secure enclave|secretive)\b|\bcardno:`)

// pkcs11ModuleRE matches a shared-library path, the comment OpenSSH gives a
// key it loaded from a PKCS#11 module.
var pkcs11ModuleRE = regexp.MustCompile(`(^|/)[^/ ]+\.(so(\.[0-9]+)*|dylib|dll)$`)

// Stamper returns a stamper for the agent key named by ref
// ("ssh-agent:SHA256:…" or "ssh-agent:COMMENT").
func (a *Agent) Stamper(ref string) (*AgentStamper, error) {
	k, err := a.Find(ref)
	if err != nil {
		return nil, err
	}
	if k.Unusable != "" {
		return nil, fmt.Errorf("%w: ssh-agent key %s (%q) is %s", ErrKeyCannotStamp, k.Fingerprint, truncate(k.Type), k.Unusable)
	}
	return &AgentStamper{agent: a, key: k}, nil
}

// Find looks up the agent key ref names, usable or not.
func (a *Agent) Find(ref string) (AgentKey, error) {
	sel, err := agentSelector(ref)
	if err != nil {
		return AgentKey{}, err
	}
	list, err := a.Keys()
	if err != nil {
		return AgentKey{}, err
	}
	if len(list) == 0 {
		return AgentKey{}, fmt.Errorf("%w: the ssh-agent at %s lists no keys: it is locked (unlock it with ssh-add -X) or holds none (add yours with ssh-add FILE, or ssh-add -s MODULE for a token)", ErrAgentLocked, a.socket)
	}
	byFingerprint := strings.HasPrefix(sel, "SHA256:")
	var found []AgentKey
	for _, k := range list {
		if byFingerprint && k.Fingerprint == sel || !byFingerprint && k.Comment == sel {
			found = append(found, k)
		}
	}
	what := "fingerprint"
	if !byFingerprint {
		what = "comment"
	}
	switch len(found) {
	case 0:
		return AgentKey{}, fmt.Errorf("%w: no key with %s %s among the %d keys of the ssh-agent at %s; 'vigil keys list --agent' lists them (add yours with ssh-add)", ErrKeyNotInAgent, what, quoteRef(sel), len(list), a.socket)
	case 1:
		return found[0], nil
	}
	if byFingerprint {
		// One key listed more than once (an agent may, under two comments):
		// a fingerprint cannot tell the copies apart.
		return AgentKey{}, fmt.Errorf("%w: %d keys have the fingerprint %s: the ssh-agent at %s lists the same key more than once; remove its copies (ssh-add -d FILE, or ssh-add -D for all) and add it once", ErrAmbiguousAgentKey, len(found), sel, a.socket)
	}
	fps := make([]string, len(found))
	for i, k := range found {
		fps[i] = k.Fingerprint
	}
	return AgentKey{}, fmt.Errorf("%w: %d keys have the comment %q (%s); name one by its fingerprint: ssh-agent:SHA256:…", ErrAmbiguousAgentKey, len(found), truncate(sel), strings.Join(fps, ", "))
}
