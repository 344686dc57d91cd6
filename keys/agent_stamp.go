package keys

import (
	"crypto/elliptic"
	"encoding/hex"
	"errors"
	"fmt"
	"math/big"
	"time"

	"golang.org/x/crypto/ssh"
	"golang.org/x/crypto/ssh/agent"
)

// AgentStamper stamps with a key the ssh-agent holds. Its stamps are exactly
// what a key file of the same scheme makes: a P-256 signature in canonical
// low-S DER, an Ed25519 signature as its 64 raw bytes.
type AgentStamper struct {
	agent *Agent
	key   AgentKey
}

// OpenAgentStamper dials the agent at socket (SSH_AUTH_SOCK) and returns a
// stamper for the key ref names.
func OpenAgentStamper(socket, ref string) (*AgentStamper, error) {
	if _, err := agentSelector(ref); err != nil {
		return nil, err
	}
	a, err := DialAgent(socket)
	if err != nil {
		return nil, err
	}
	s, err := a.Stamper(ref)
	if err != nil {
		a.Close()
		return nil, err
	}
	return s, nil
}

// Key describes the agent key.
func (s *AgentStamper) Key() AgentKey { return s.key }

// Scheme is the stamp scheme.
func (s *AgentStamper) Scheme() string { return s.key.Scheme }

// PublicKeyHex is the public key as stamps carry it.
func (s *AgentStamper) PublicKeyHex() string { return s.key.PublicKeyHex }

// CredentialType is the service's credential type for the key.
func (s *AgentStamper) CredentialType() string { return s.key.CredentialType() }

// Kind is KindHardware when the agent says the key is in hardware, else KindAgent.
func (s *AgentStamper) Kind() Kind { return s.key.Kind() }

// Close closes the connection to the agent.
func (s *AgentStamper) Close() error { return s.agent.Close() }

// Stamp has the agent sign exactly body and returns the X-Stamp header and
// its value. The stamp is verified before it is returned, so an agent that
// signs with another key, or garbles the signature, is caught here rather
// than by the service.
func (s *AgentStamper) Stamp(body []byte) (header, value string, err error) {
	var sig *ssh.Signature
	start := time.Now()
	transport, err := s.agent.do(func(c agent.ExtendedAgent) error {
		var err error
		sig, err = c.Sign(s.key.pub, body)
		return err
	})
	if transport != nil {
		return "", "", fmt.Errorf("stamp with ssh-agent key %s: %w", s.key.Fingerprint, transport)
	}
	if err != nil {
		return "", "", fmt.Errorf("stamp with ssh-agent key %s: %w", s.key.Fingerprint, s.refusal(time.Since(start)))
	}
	raw, err := stampSignature(s.key.Scheme, sig)
	if err != nil {
		return "", "", fmt.Errorf("stamp with ssh-agent key %s: %w: %v", s.key.Fingerprint, ErrAgentRefused, err)
	}
	v, err := encodeStamp(Stamp{PublicKey: s.key.PublicKeyHex, Scheme: s.key.Scheme, Signature: hex.EncodeToString(raw)})
	if err != nil {
		return "", "", fmt.Errorf("stamp with ssh-agent key %s: %w", s.key.Fingerprint, err)
	}
	if _, err := Verify(v, body); err != nil {
		return "", "", fmt.Errorf("stamp with ssh-agent key %s: %w: the agent's signature does not verify with this key (%v)", s.key.Fingerprint, ErrAgentRefused, err)
	}
	return HeaderStamp, v, nil
}

// slowRefusal is how long a refusal must take to be read as a token that
// waited for a touch or PIN and timed out (agents answer a plain refusal at
// once).
const slowRefusal = 3 * time.Second

// refusal explains why the agent answered a signing request with a failure:
// it asks the agent again to tell a locked or emptied agent from a refusal
// of this key.
func (s *AgentStamper) refusal(took time.Duration) error {
	list, err := s.agent.Keys()
	switch {
	case err != nil:
	case len(list) == 0:
		return fmt.Errorf("%w: the ssh-agent at %s now lists no keys: it was locked (unlock it with ssh-add -X) or emptied", ErrAgentLocked, s.agent.socket)
	default:
		found := false
		for _, k := range list {
			found = found || k.Fingerprint == s.key.Fingerprint
		}
		if !found {
			return fmt.Errorf("%w: the ssh-agent at %s no longer holds this key (it was removed, or its lifetime ran out); add it again with ssh-add", ErrKeyNotInAgent, s.agent.socket)
		}
	}
	took = took.Round(100 * time.Millisecond)
	switch {
	case took >= slowRefusal && s.key.Hardware:
		return fmt.Errorf("%w after %s: the key's token or agent timed out waiting for a touch, PIN or confirmation; try again and touch the token when it blinks", ErrAgentRefused, took)
	case took >= slowRefusal:
		// A key in the agent's memory has no token to touch: a slow refusal
		// is its confirmation prompt (ssh-add -c), declined or left to time
		// out. The comment may just not name the token, so that stays said.
		return fmt.Errorf("%w after %s: the ssh-agent at %s timed out waiting for a touch, PIN or confirmation, or its confirmation prompt (ssh-add -c) was declined; try again and accept the prompt (or touch the key's token, if it has one)", ErrAgentRefused, took, s.agent.socket)
	case s.key.Hardware:
		return fmt.Errorf("%w: the token behind the ssh-agent at %s refused (not inserted, PIN not given or locked out, or the touch declined)", ErrAgentRefused, s.agent.socket)
	}
	return fmt.Errorf("%w: the ssh-agent at %s refused (a confirmation (ssh-add -c) declined, or the key restricted to other uses)", ErrAgentRefused, s.agent.socket)
}

// sshECDSASignature is the blob of an ecdsa-sha2-nistp256 SSH signature
// (RFC 5656 §3.1.2).
type sshECDSASignature struct{ R, S *big.Int }

// stampSignature turns an agent's SSH signature into the stamp's encoding:
// canonical low-S DER for P-256 (SSH does not ask agents to normalise S,
// vigil's file keys always sign low S), the raw 64 bytes for Ed25519.
func stampSignature(scheme string, sig *ssh.Signature) ([]byte, error) {
	switch scheme {
	case SchemeP256:
		if sig.Format != ssh.KeyAlgoECDSA256 {
			return nil, fmt.Errorf("the agent returned a %q signature for a P-256 key", truncate(sig.Format))
		}
		var rs sshECDSASignature
		if err := ssh.Unmarshal(sig.Blob, &rs); err != nil {
			return nil, fmt.Errorf("the agent's P-256 signature is not two SSH integers (%v)", err)
		}
		n := elliptic.P256().Params().N
		if rs.R.Sign() <= 0 || rs.R.Cmp(n) >= 0 || rs.S.Sign() <= 0 || rs.S.Cmp(n) >= 0 {
			return nil, errors.New("the agent's P-256 signature has r or s out of range")
		}
		s := rs.S
		if s.Cmp(p256HalfOrder) > 0 {
			s = new(big.Int).Sub(n, s)
		}
		return marshalDER(rs.R, s)
	case SchemeEd25519:
		if sig.Format != ssh.KeyAlgoED25519 {
			return nil, fmt.Errorf("the agent returned a %q signature for an Ed25519 key", truncate(sig.Format))
		}
		if len(sig.Blob) != 64 {
			return nil, fmt.Errorf("the agent's Ed25519 signature is %d bytes, not 64", len(sig.Blob))
		}
		return sig.Blob, nil
	}
	return nil, fmt.Errorf("%w: scheme %s", ErrKeyCannotStamp, scheme)
}
