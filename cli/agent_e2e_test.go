package cli

import (
	"context"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/keys"
	"github.com/vigil-console/vigil/keys/agenttest"
	"github.com/vigil-console/vigil/server"
)

// agentOrg is a local service with one organization whose members' keys are
// given, and a config file with one profile per member.
type agentOrg struct {
	org        *server.Org
	configPath string
	env        map[string]string
}

// member is a user of the test organization and the key reference of its profile.
type member struct {
	name, ref       string
	pubHex, cred    string
	root            bool
	keysDirForFiles string
}

// startAgentOrg starts the real local service over HTTP and creates an
// organization of members with root quorum threshold.
func startAgentOrg(t *testing.T, socket string, threshold int, members ...member) *agentOrg {
	t.Helper()
	srv, err := server.Open(server.Config{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	ts := httptest.NewServer(srv.Handler())
	t.Cleanup(ts.Close)
	var specs []server.UserSpec
	for _, m := range members {
		specs = append(specs, server.UserSpec{Name: m.name, Email: m.name + "@agent.test", Root: m.root,
			APIKeys: []server.APIKeySpec{{Name: m.name + " key", PublicKey: m.pubHex, CredentialType: m.cred}}})
	}
	org, err := srv.CreateOrganization(context.Background(), "Agent Org", threshold, specs)
	if err != nil {
		t.Fatal(err)
	}
	var cfg strings.Builder
	for _, m := range members {
		fmt.Fprintf(&cfg, "[profiles.%s]\nbase_url = %q\norganization_id = %q\nkey = %q\n", m.name, ts.URL, org.ID, m.ref)
		if m.keysDirForFiles != "" {
			fmt.Fprintf(&cfg, "keys_dir = %q\n", m.keysDirForFiles)
		}
	}
	path := filepath.Join(t.TempDir(), "config.toml")
	if err := os.WriteFile(path, []byte(cfg.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	return &agentOrg{org: org, configPath: path, env: map[string]string{"SSH_AUTH_SOCK": socket, "HOME": t.TempDir()}}
}

// client opens the profile's key the way every command does and returns a
// client stamped with it.
func (o *agentOrg) client(t *testing.T, profile string) (*api.Client, keys.Stamper) {
	t.Helper()
	c := proc{getenv: func(k string) string { return o.env[k] }}
	p, err := loadProfile(c, o.configPath, profile)
	if err != nil {
		t.Fatal(err)
	}
	st, err := profileStamper(p, c.getenv)
	if err != nil {
		t.Fatalf("profile %s: %v", profile, err)
	}
	cl, err := api.NewClient(p.BaseURL, p.OrganizationID, st)
	if err != nil {
		t.Fatal(err)
	}
	return cl, st
}

// TestAgentKeysWhoamiAndVoteInTheRootQuorum: alice's P-256 key and bob's
// Ed25519 key live in a real ssh-agent, carol's in a key file; the root quorum
// is 2 of the 3. Each agent key is accepted by the service for a query
// (whoami) and for votes that complete activities.
func TestAgentKeysWhoamiAndVoteInTheRootQuorum(t *testing.T) {
	a := agenttest.Start(t, agenttest.Options{})
	p256, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	_, ed, _ := ed25519.GenerateKey(rand.Reader)
	a.Add(p256, "alice@laptop")
	a.Add(ed, "bob@laptop")
	ag, err := keys.DialAgent(a.Socket)
	if err != nil {
		t.Fatal(err)
	}
	defer ag.Close()
	aliceKey, err := ag.Find("ssh-agent:" + agenttest.Fingerprint(t, &p256.PublicKey))
	if err != nil {
		t.Fatal(err)
	}
	bobKey, err := ag.Find("ssh-agent:bob@laptop")
	if err != nil {
		t.Fatal(err)
	}
	keysDir := t.TempDir()
	carolKey, err := keys.Store{Dir: keysDir}.Generate("carol", "p256")
	if err != nil {
		t.Fatal(err)
	}
	o := startAgentOrg(t, a.Socket, 2,
		member{name: "alice", ref: aliceKey.Ref(), pubHex: aliceKey.PublicKeyHex, cred: aliceKey.CredentialType(), root: true},
		member{name: "bob", ref: "ssh-agent:bob@laptop", pubHex: bobKey.PublicKeyHex, cred: bobKey.CredentialType(), root: true},
		member{name: "carol", ref: "carol", pubHex: carolKey.PublicKeyHex(), cred: carolKey.CredentialType(), root: true, keysDirForFiles: keysDir},
	)
	ctx := context.Background()
	carol, _ := o.client(t, "carol")
	for i, name := range []string{"alice", "bob"} {
		voter, st := o.client(t, name)
		if _, ok := st.(*keys.AgentStamper); !ok {
			t.Fatalf("profile %s stamps with %T, want the agent", name, st)
		}
		who, err := voter.Whoami(ctx)
		if err != nil {
			t.Fatalf("%s whoami through the agent: %v", name, err)
		}
		if who.UserID != o.org.UserIDs[name] || who.Username != name {
			t.Errorf("%s whoami: %+v, want user %s", name, who, o.org.UserIDs[name])
		}
		act, err := carol.CreateUserTag(ctx, api.CreateUserTagParams{UserTagName: fmt.Sprintf("tag-%d", i), UserIDs: []string{o.org.UserIDs["carol"]}})
		if err != nil || act.Status != api.StatusConsensusNeeded {
			t.Fatalf("carol's activity: %v %+v; want it waiting for a second root vote", err, act)
		}
		done, err := voter.ApproveActivity(ctx, act.Fingerprint)
		if err != nil {
			t.Fatalf("%s approves through the agent: %v", name, err)
		}
		if done.Status != api.StatusCompleted {
			t.Errorf("after %s's vote: %s, want COMPLETED", name, done.Status)
		}
	}
	// Both agent keys together make the quorum without the file key.
	alice, _ := o.client(t, "alice")
	bob, _ := o.client(t, "bob")
	act, err := bob.CreateUserTag(ctx, api.CreateUserTagParams{UserTagName: "agents-only", UserIDs: []string{o.org.UserIDs["carol"]}})
	if err != nil || act.Status != api.StatusConsensusNeeded {
		t.Fatalf("bob's activity: %v %+v", err, act)
	}
	if done, err := alice.ApproveActivity(ctx, act.Fingerprint); err != nil || done.Status != api.StatusCompleted {
		t.Fatalf("alice approves bob's activity: %v %+v", err, done)
	}

	// The console says which kind of key it stamps with.
	for profile, want := range map[string]string{"alice": "agent key", "carol": "file key"} {
		p, err := loadProfile(proc{getenv: func(k string) string { return o.env[k] }}, o.configPath, profile)
		if err != nil {
			t.Fatal(err)
		}
		root, err := consoleModel(p, false, func(k string) string { return o.env[k] }, discardLogger())
		if err != nil {
			t.Fatal(err)
		}
		if frame := root.Render(); !strings.Contains(frame, want) {
			t.Errorf("%s's console status bar lacks %q:\n%s", profile, want, frame)
		}
	}
}

// TestStampCommandAndKeysListThroughTheAgent: the CLI verbs take agent
// references, and 'keys list --agent' prints what to register.
func TestStampCommandAndKeysListThroughTheAgent(t *testing.T) {
	a := agenttest.Start(t, agenttest.Options{})
	p256, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	_, ed, _ := ed25519.GenerateKey(rand.Reader)
	other, _ := ecdsa.GenerateKey(elliptic.P384(), rand.Reader)
	a.Add(p256, "ops\x1b]0;owned\x07")
	a.Add(ed, "ci")
	a.Add(other, "p384")
	runEnv := func(env map[string]string, args ...string) (int, string, string) {
		var out, errOut strings.Builder
		c := proc{stdin: strings.NewReader(""), stdout: &out, stderr: &errOut, getenv: func(k string) string { return env[k] }}
		code := run(context.Background(), c, args)
		return code, out.String(), errOut.String()
	}
	env := map[string]string{"SSH_AUTH_SOCK": a.Socket, "HOME": t.TempDir()}
	fp := agenttest.Fingerprint(t, &p256.PublicKey)

	code, out, errOut := runEnv(env, "keys", "list", "--agent")
	if code != 0 {
		t.Fatalf("keys list --agent: %d %s", code, errOut)
	}
	pubHex := fmt.Sprintf("%x", elliptic.MarshalCompressed(elliptic.P256(), p256.X, p256.Y))
	for _, want := range []string{"ssh-agent:" + fp, pubHex, fmt.Sprintf("%x", []byte(ed.Public().(ed25519.PublicKey))), "Cannot stamp:", "P-384"} {
		if !strings.Contains(out, want) {
			t.Errorf("keys list --agent lacks %q:\n%s", want, out)
		}
	}
	if strings.ContainsAny(out, "\x1b\x07") {
		t.Errorf("keys list --agent put a hostile comment's control characters on the terminal: %q", out)
	}

	body := `{"organizationId":"o"}`
	for _, ref := range []string{"ssh-agent:" + fp, "ssh-agent:ci"} {
		code, out, errOut = runEnv(env, "stamp", "--key", ref, "--body", body)
		if code != 0 {
			t.Fatalf("stamp --key %s: %d %s", ref, code, errOut)
		}
		if _, err := keys.Verify(strings.TrimSpace(out), []byte(body)); err != nil {
			t.Errorf("stamp --key %s: %v", ref, err)
		}
	}
	code, out, _ = runEnv(env, "keys", "show", "ssh-agent:"+fp)
	if code != 0 || !strings.Contains(out, pubHex) || !strings.Contains(out, "CREDENTIAL_TYPE_API_KEY_P256") {
		t.Errorf("keys show: %d %s", code, out)
	}

	for _, c := range []struct {
		env  map[string]string
		args []string
		code int
		says string
	}{
		{map[string]string{}, []string{"stamp", "--key", "ssh-agent:" + fp, "--body", body}, 1, "SSH_AUTH_SOCK is not set"},
		{map[string]string{}, []string{"keys", "list", "--agent"}, 1, "SSH_AUTH_SOCK is not set"},
		{env, []string{"stamp", "--key", "ssh-agent:p384", "--body", body}, 1, "P-384"},
		{env, []string{"stamp", "--key", "ssh-agent:nobody", "--body", body}, 1, "keys list --agent"},
		{env, []string{"stamp", "--key", "ssh-agent:ci", "--dir", "x", "--body", body}, 2, "--dir is for stored keys"},
		{env, []string{"keys", "generate", "ssh-agent:ci"}, 2, "ssh-add"},
	} {
		code, _, errOut := runEnv(c.env, c.args...)
		if code != c.code || !strings.Contains(errOut, c.says) {
			t.Errorf("%q: exit %d %q; want exit %d saying %q", c.args, code, errOut, c.code, c.says)
		}
	}
}

// TestHardwareTokenKeyStampsThroughTheAgent: a P-256 key generated inside a
// SoftHSM2 token (it never exists outside it), loaded into a real ssh-agent
// with 'ssh-add -s', stamps requests the local service accepts.
func TestHardwareTokenKeyStampsThroughTheAgent(t *testing.T) {
	tok := agenttest.StartSoftHSM(t)
	// No label: OpenSSH then names the key by its PKCS#11 module, which is
	// how vigil knows it is hardware-backed.
	tok.GenerateP256("01", "")
	a := agenttest.Start(t, agenttest.Options{PKCS11Allow: tok.Module, Env: tok.Env})
	a.AddToken(tok)

	ag, err := keys.DialAgent(a.Socket)
	if err != nil {
		t.Fatal(err)
	}
	defer ag.Close()
	list, err := ag.Keys()
	if err != nil || len(list) != 1 {
		t.Fatalf("agent keys after ssh-add -s: %+v %v", list, err)
	}
	tokenKey := list[0]
	if tokenKey.Scheme != keys.SchemeP256 || tokenKey.Kind() != keys.KindHardware {
		t.Fatalf("token key: %+v; want a P-256 key the agent says is in hardware", tokenKey)
	}
	o := startAgentOrg(t, a.Socket, 1,
		member{name: "dave", ref: tokenKey.Ref(), pubHex: tokenKey.PublicKeyHex, cred: tokenKey.CredentialType(), root: true})
	dave, st := o.client(t, "dave")
	if keys.StamperKind(st) != keys.KindHardware || stamperKindLabel(st) != "hardware key (agent)" {
		t.Errorf("token key stamper kind %q", keys.StamperKind(st))
	}
	ctx := context.Background()
	who, err := dave.Whoami(ctx)
	if err != nil || who.UserID != o.org.UserIDs["dave"] {
		t.Fatalf("whoami with the token key: %+v %v", who, err)
	}
	act, err := dave.CreateUserTag(ctx, api.CreateUserTagParams{UserTagName: "hsm", UserIDs: []string{o.org.UserIDs["dave"]}})
	if err != nil || act.Status != api.StatusCompleted {
		t.Fatalf("activity stamped by the token: %v %+v", err, act)
	}
}

func TestConfigTakesAgentKeyReferences(t *testing.T) {
	const head = "[profiles.p]\nbase_url = \"https://a.example\"\norganization_id = \"o\"\n" // lines 1-3
	good := []string{"ssh-agent:SHA256:Xn3PC6cbgRA0u9dIPxHpAuQyrfuyQoA8tAqaLP3o1tQ", "ssh-agent:YubiKey #123 PIV Slot 9a"}
	for _, ref := range good {
		cfg, err := loadConfig(writeConfig(t, head+fmt.Sprintf("key = %q\n", ref)))
		if err != nil || cfg.Profiles["p"].Key != ref {
			t.Errorf("key = %q: %v", ref, err)
		}
	}
	for ref, says := range map[string]string{ // TOML strings
		`"ssh-agent:"`:                "nothing after",
		`"ssh-agent:MD5:12:34"`:       "SHA256 form",
		`"ssh-agent:SHA256:tooShort"`: "43 base64",
		`"ssh-agent:a\u001b[2Jb"`:     "control characters",
	} {
		_, err := loadConfig(writeConfig(t, head+"key = "+ref+"\n"))
		if err == nil || !strings.Contains(err.Error(), ":4:") || !strings.Contains(err.Error(), "profiles.p.key") || !strings.Contains(err.Error(), says) {
			t.Errorf("key = %s: %v; want an error at line 4, profiles.p.key, saying %q", ref, err, says)
		}
	}
}
