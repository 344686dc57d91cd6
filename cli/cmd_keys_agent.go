package cli

import (
	"fmt"
	"io"
	"unicode/utf8"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/keys"
)

// openStamper opens the key a reference names: ssh-agent:… is a key of the
// ssh-agent at SSH_AUTH_SOCK, anything else a key name in dir (default
// keys.DefaultDir).
func openStamper(getenv func(string) string, ref, dir string) (keys.Stamper, error) {
	if keys.IsAgentRef(ref) {
		return keys.OpenAgentStamper(getenv("SSH_AUTH_SOCK"), ref)
	}
	if dir == "" {
		var err error
		if dir, err = keys.DefaultDir(getenv); err != nil {
			return nil, err
		}
	}
	return keys.Store{Dir: dir}.Load(ref)
}

// stamperKindLabel is what the console's status bar says about the key.
func stamperKindLabel(s keys.Stamper) string {
	switch keys.StamperKind(s) {
	case keys.KindFile:
		return "file key"
	case keys.KindAgent:
		return "agent key"
	case keys.KindHardware:
		return "hardware key (agent)"
	}
	return ""
}

// agentComment shows an agent key's comment, which any process that can add
// keys to the agent chose: shortened, then cleaned of control sequences (in
// that order, so that an escape is never cut in half).
func agentComment(s string) string {
	const max = 60 // runes (a byte that is not UTF-8 counts as one)
	for i, n := 0, 0; i < len(s); n++ {
		if n == max {
			return api.Sanitize(s[:i]) + "…"
		}
		_, size := utf8.DecodeRuneInString(s[i:])
		i += size
	}
	return api.Sanitize(s)
}

func schemeShort(scheme string) string {
	switch scheme {
	case keys.SchemeP256:
		return "p256"
	case keys.SchemeEd25519:
		return "ed25519"
	case keys.SchemeSecp256k1:
		return "secp256k1"
	}
	return "-"
}

// keysListAgent prints the keys of the agent at SSH_AUTH_SOCK: those that can
// stamp with the reference and public key to register, then the others with
// the reason they cannot.
func keysListAgent(c proc) error {
	a, err := keys.DialAgent(c.getenv("SSH_AUTH_SOCK"))
	if err != nil {
		return err
	}
	defer a.Close()
	list, err := a.Keys()
	if err != nil {
		return err
	}
	if len(list) == 0 {
		_, err := fmt.Fprintf(c.stdout, "The ssh-agent at %s lists no keys: it is locked (ssh-add -X unlocks it) or holds none (ssh-add FILE, or ssh-add -s MODULE for a token).\n", api.Sanitize(a.Socket()))
		return err
	}
	var usable, unusable []keys.AgentKey
	for _, k := range list {
		if k.Unusable == "" {
			usable = append(usable, k)
		} else {
			unusable = append(unusable, k)
		}
	}
	w := &errWriter{w: c.stdout} // checked once, at the end
	if len(usable) == 0 {
		fmt.Fprintln(w, "No key in the agent can stamp: vigil needs a P-256 or Ed25519 key (ssh-keygen -t ecdsa -b 256, or ssh-keygen -t ed25519).")
	} else {
		var rows [][]string
		for _, k := range usable {
			rows = append(rows, []string{k.Ref(), schemeShort(k.Scheme), string(k.Kind()), k.PublicKeyHex, agentComment(k.Comment)})
		}
		table(w, []string{"KEY REFERENCE", "SCHEME", "HELD IN", "PUBLIC KEY", "COMMENT"}, rows)
		fmt.Fprintln(w, "\nRegister a public key as an API key of your user (P-256: CREDENTIAL_TYPE_API_KEY_P256,\nEd25519: CREDENTIAL_TYPE_API_KEY_ED25519), then set key = \"KEY REFERENCE\" in your profile.")
	}
	if len(unusable) > 0 {
		fmt.Fprintln(w, "\nCannot stamp:")
		for _, k := range unusable {
			id := k.Fingerprint
			if id == "" {
				id = api.Sanitize(k.Type)
			}
			fmt.Fprintf(w, "  %s %s (%s): %s\n", id, api.Sanitize(k.Type), agentComment(k.Comment), api.Sanitize(k.Unusable))
		}
	}
	return w.err
}

// keysShowAgent describes one agent key.
func keysShowAgent(c proc, ref string) error {
	a, err := keys.DialAgent(c.getenv("SSH_AUTH_SOCK"))
	if err != nil {
		return err
	}
	defer a.Close()
	k, err := a.Find(ref)
	if err != nil {
		return err
	}
	return printAgentKey(c.stdout, a.Socket(), k)
}

func printAgentKey(w io.Writer, socket string, k keys.AgentKey) error {
	lines := [][]string{
		{"  key reference:", k.Ref()},
		{"  ssh key type:", api.Sanitize(k.Type)},
		{"  comment:", agentComment(k.Comment)},
		{"  held in:", string(k.Kind()) + " (ssh-agent at " + api.Sanitize(socket) + ")"},
	}
	if k.Unusable != "" {
		lines = append(lines, []string{"  cannot stamp:", api.Sanitize(k.Unusable)})
	} else {
		lines = append(lines,
			[]string{"  public key:", k.PublicKeyHex},
			[]string{"  scheme:", k.Scheme},
			[]string{"  credential type:", k.CredentialType()})
	}
	return writeColumns(w, 2, lines)
}
