package server

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/policy"
)

// org is an organization and its root quorum.
type org struct {
	ID        string
	Name      string
	Threshold int
	RootIDs   []string
}

func (o *org) isRoot(userID string) bool { return slices.Contains(o.RootIDs, userID) }

// rootOnly reports whether only the root quorum may complete (and vote on) an
// activity of this type: set_organization_feature, as SPEC.md requires.
func rootOnly(activityType string) bool { return policy.RootOnly(activityType) }

func loadOrg(ctx context.Context, q querier, id string) (*org, error) {
	o := &org{ID: id}
	var roots string
	err := q.QueryRowContext(ctx, `SELECT name, root_threshold, root_user_ids FROM organizations WHERE id = ?`, id).
		Scan(&o.Name, &o.Threshold, &roots)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, notFoundf("ORGANIZATION_NOT_FOUND", "organization %q not found", id)
	}
	if err != nil {
		return nil, fmt.Errorf("load organization: %w", err)
	}
	if err := json.Unmarshal([]byte(roots), &o.RootIDs); err != nil {
		return nil, fmt.Errorf("organization %s: stored quorum: %w", id, err)
	}
	return o, nil
}

// UserSpec describes a user to create with CreateOrganization or CreateUser.
type UserSpec struct {
	Name  string
	Email string
	// Root puts the user in the root quorum.
	Root bool
	// APIKeys are the user's API keys (public halves).
	APIKeys []APIKeySpec
	// Authenticators are the user's passkeys.
	Authenticators []AuthenticatorSpec
	// Tags are user tag names; a tag is created on first use.
	Tags []string
	// OIDCSubject links the user to this subject of the local OIDC issuer, so
	// an oauth activity with such a token signs in as this user.
	OIDCSubject string
}

// APIKeySpec is an API key to register.
type APIKeySpec struct {
	Name string
	// PublicKey is hex, as keys.Key.PublicKeyHex; a P-256 or secp256k1 key
	// may be uncompressed and is stored compressed, the form stamps carry.
	PublicKey string
	// CredentialType defaults to the P-256 API key type; it must be one of
	// api.CredentialTypes().
	CredentialType string
	// SessionProfileID is the session profile of a CREDENTIAL_TYPE_LOGIN key,
	// which needs one; SPEC.md gives it to that type only, so any other
	// type must leave it empty.
	SessionProfileID string
	// ExpirationSeconds is the key's lifetime from now; 0 never expires.
	ExpirationSeconds int64
}

// AuthenticatorSpec is a passkey to register. The last four are what the
// registration said of the device, returned as the official client's
// v1Authenticator requires; each may be left empty: no transports, "none"
// attestation, api.UnknownAaguid, model "".
type AuthenticatorSpec struct {
	Name            string
	CredentialID    string
	PublicKey       string   // hex P-256 public key (SEC1); stored compressed
	Transports      []string // api.AuthenticatorTransports values
	AttestationType string   // a WebAuthn attestation conveyance: none, indirect, direct or enterprise
	Aaguid          string   // a UUID, 8-4-4-4-12 hex digits
	Model           string
}

// attestationTypes are the WebAuthn attestation conveyance values.
var attestationTypes = []string{"none", "indirect", "direct", "enterprise"}

// withDefaults checks what a registration said of the device and fills in
// what it left out.
func (a AuthenticatorSpec) withDefaults() (AuthenticatorSpec, error) {
	for _, t := range a.Transports {
		if !slices.Contains(api.AuthenticatorTransports(), t) {
			return a, fmt.Errorf("authenticator %q: transport %q is not one of %s", a.Name, t, strings.Join(api.AuthenticatorTransports(), ", "))
		}
	}
	if a.AttestationType == "" {
		a.AttestationType = "none"
	} else if !slices.Contains(attestationTypes, a.AttestationType) {
		return a, fmt.Errorf("authenticator %q: attestation type %q is not one of %s", a.Name, a.AttestationType, strings.Join(attestationTypes, ", "))
	}
	if a.Aaguid == "" {
		a.Aaguid = api.UnknownAaguid
	} else if !isUUID(a.Aaguid) {
		return a, fmt.Errorf("authenticator %q: aaguid %q is not a UUID (8-4-4-4-12 hex digits)", a.Name, a.Aaguid)
	}
	return a, nil
}

// isUUID reports the 8-4-4-4-12 hex form of a UUID.
func isUUID(s string) bool {
	if len(s) != 36 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch i {
		case 8, 13, 18, 23:
			if c != '-' {
				return false
			}
		default:
			if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
				return false
			}
		}
	}
	return true
}

// Org is an organization created in the store, with its users' ids by name.
type Org struct {
	ID      string
	Name    string
	UserIDs map[string]string // user name -> user id
	TagIDs  map[string]string // tag name -> tag id
}

// CreateOrganization creates an organization with its users directly in the
// store (no activity): the way orgs come to exist on the local service. The
// root quorum is every user with Root set, with threshold rootQuorum.
func (s *Server) CreateOrganization(ctx context.Context, name string, rootQuorum int, users []UserSpec) (*Org, error) {
	return s.createOrganization(ctx, name, rootQuorum, users, nil)
}

// createOrganization is CreateOrganization; alsoInTx, if not nil, runs in the
// same transaction, after the organization and its users are inserted.
func (s *Server) createOrganization(ctx context.Context, name string, rootQuorum int, users []UserSpec, alsoInTx func(tx *txn, org *Org) error) (*Org, error) {
	if strings.TrimSpace(name) == "" {
		return nil, errors.New("create organization: name is empty")
	}
	roots := 0
	for _, u := range users {
		if u.Root {
			roots++
		}
	}
	if rootQuorum < 1 || rootQuorum > roots {
		return nil, fmt.Errorf("create organization %q: root quorum %d needs between 1 and the %d root users", name, rootQuorum, roots)
	}
	out := &Org{ID: newID(), Name: name, UserIDs: map[string]string{}, TagIDs: map[string]string{}}
	err := s.db.inTx(ctx, func(tx *txn) error {
		out.UserIDs, out.TagIDs = map[string]string{}, map[string]string{} // a write job may run twice
		now := s.now().UnixNano()
		if _, err := tx.ExecContext(ctx, `INSERT INTO organizations(id, name, root_threshold, root_user_ids, created_ns) VALUES (?, ?, ?, '[]', ?)`,
			out.ID, name, rootQuorum, now); err != nil {
			return fmt.Errorf("insert organization: %w", err)
		}
		var roots []string
		for _, u := range users {
			id, err := s.createUser(ctx, tx, out, u)
			if err != nil {
				return err
			}
			if u.Root {
				roots = append(roots, id)
			}
		}
		if alsoInTx != nil {
			if err := alsoInTx(tx, out); err != nil {
				return err
			}
		}
		// After alsoInTx: the features it sets decide whether passkeys count.
		return s.refuseUnsignableRoots(ctx, tx, out.ID, roots, s.now())
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// CreateUser adds a user to an existing organization (no activity).
func (s *Server) CreateUser(ctx context.Context, orgID string, u UserSpec) (string, error) {
	ids, err := s.CreateUsers(ctx, orgID, []UserSpec{u})
	if err != nil {
		return "", err
	}
	return ids[0], nil
}

// CreateUsers adds users to an existing organization (no activity), in one
// transaction: a large organization seeded one commit per user would wait
// for thousands of fsyncs.
func (s *Server) CreateUsers(ctx context.Context, orgID string, users []UserSpec) ([]string, error) {
	var ids []string
	err := s.db.inTx(ctx, func(tx *txn) error {
		ids = ids[:0] // a batch that is run again starts over
		o, err := loadOrg(ctx, tx, orgID)
		if err != nil {
			return err
		}
		out := &Org{ID: o.ID, Name: o.Name, UserIDs: map[string]string{}, TagIDs: map[string]string{}}
		rows, err := tx.QueryContext(ctx, `SELECT id, name FROM user_tags WHERE org_id = ?`, orgID)
		if err != nil {
			return err
		}
		for rows.Next() {
			var tid, tname string
			if err := rows.Scan(&tid, &tname); err != nil {
				rows.Close()
				return err
			}
			out.TagIDs[tname] = tid
		}
		rows.Close()
		var roots []string
		for _, u := range users {
			id, err := s.createUser(ctx, tx, out, u)
			if err != nil {
				return err
			}
			ids = append(ids, id)
			if u.Root {
				roots = append(roots, id)
			}
		}
		return s.refuseUnsignableRoots(ctx, tx, orgID, roots, s.now())
	})
	return ids, err
}

func (s *Server) createUser(ctx context.Context, tx *txn, o *Org, u UserSpec) (string, error) {
	if strings.TrimSpace(u.Name) == "" {
		return "", errors.New("create user: name is empty")
	}
	if _, dup := o.UserIDs[u.Name]; dup {
		return "", fmt.Errorf("create user: two users named %q", u.Name)
	}
	now := s.now().UnixNano()
	id := newID()
	var seq int64
	if err := tx.QueryRowContext(ctx, `SELECT COALESCE(MAX(seq), 0) + 1 FROM users WHERE org_id = ?`, o.ID).Scan(&seq); err != nil {
		return "", err
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO users(id, org_id, name, email, seq, created_ns, updated_ns) VALUES (?, ?, ?, ?, ?, ?, ?)`,
		id, o.ID, u.Name, u.Email, seq, now, now); err != nil {
		return "", fmt.Errorf("insert user %s: %w", u.Name, err)
	}
	o.UserIDs[u.Name] = id
	if u.Root {
		if _, err := tx.ExecContext(ctx, `UPDATE organizations SET root_user_ids = json_insert(root_user_ids, '$[#]', ?) WHERE id = ?`, id, o.ID); err != nil {
			return "", fmt.Errorf("add %s to the root quorum: %w", u.Name, err)
		}
	}
	for _, k := range u.APIKeys {
		if _, err := insertAPIKey(ctx, tx, o.ID, id, k, now); err != nil {
			return "", fmt.Errorf("user %s: %w", u.Name, err)
		}
	}
	for _, a := range u.Authenticators {
		if a.CredentialID == "" || a.PublicKey == "" {
			return "", fmt.Errorf("user %s: authenticator needs a credential id and a public key", u.Name)
		}
		a, err := a.withDefaults()
		if err != nil {
			return "", fmt.Errorf("user %s: %w", u.Name, err)
		}
		pub, err := authenticatorKey(ctx, tx, o.ID, a)
		if err != nil {
			return "", fmt.Errorf("user %s: %w", u.Name, err)
		}
		transports, err := json.Marshal(append([]string{}, a.Transports...))
		if err != nil {
			return "", fmt.Errorf("user %s: authenticator: %w", u.Name, err)
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO authenticators(id, org_id, user_id, name, credential_id, public_key, transports, attestation_type, aaguid, model, created_ns, updated_ns)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, newID(), o.ID, id, a.Name, a.CredentialID, pub,
			string(transports), a.AttestationType, a.Aaguid, a.Model, now, now); err != nil {
			return "", fmt.Errorf("user %s: authenticator: %w", u.Name, err)
		}
	}
	for _, t := range u.Tags {
		tagID, ok := o.TagIDs[t]
		if !ok {
			tagID = newID()
			if _, err := tx.ExecContext(ctx, `INSERT INTO user_tags(id, org_id, name, created_ns) VALUES (?, ?, ?, ?)`, tagID, o.ID, t, now); err != nil {
				return "", fmt.Errorf("create tag %s: %w", t, err)
			}
			o.TagIDs[t] = tagID
		}
		if _, err := tx.ExecContext(ctx, `INSERT OR IGNORE INTO user_tag_members(tag_id, user_id) VALUES (?, ?)`, tagID, id); err != nil {
			return "", fmt.Errorf("tag %s with %s: %w", u.Name, t, err)
		}
	}
	if u.OIDCSubject != "" {
		if _, err := tx.ExecContext(ctx, `INSERT INTO oidc_identities(org_id, issuer, subject, user_id, created_ns) VALUES (?, ?, ?, ?, ?)`,
			o.ID, LocalOIDCIssuer, u.OIDCSubject, id, now); err != nil {
			return "", fmt.Errorf("link %s to OIDC subject: %w", u.Name, err)
		}
	}
	return id, nil
}

func insertAPIKey(ctx context.Context, q querier, orgID, userID string, k APIKeySpec, now int64) (string, error) {
	if k.PublicKey == "" {
		return "", errors.New("API key has no public key")
	}
	typ := k.CredentialType
	if typ == "" {
		typ = api.CredentialAPIKeyP256
	}
	if err := checkSessionProfile(typ, k.SessionProfileID); err != nil {
		return "", err
	}
	pub, err := apiKeyPublicKey(ctx, q, orgID, k, typ)
	if err != nil {
		return "", err
	}
	name := k.Name
	if name == "" {
		name = "API key"
	}
	id := newID()
	if _, err := q.ExecContext(ctx, `INSERT INTO api_keys(id, org_id, user_id, name, public_key, credential_type, session_profile_id, expiration_seconds, created_ns, updated_ns)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, id, orgID, userID, name, pub, typ, k.SessionProfileID, k.ExpirationSeconds, now, now); err != nil {
		return "", fmt.Errorf("insert API key: %w", err)
	}
	return id, nil
}

// checkSessionProfile checks an API key's credential type and session profile
// against SPEC.md: the type is one of its credential types, and
// credential.sessionProfileId "only applies when credential.type is
// CREDENTIAL_TYPE_LOGIN" — such a key is registered with one, any other without.
func checkSessionProfile(typ, profileID string) error {
	if !slices.Contains(api.CredentialTypes(), typ) {
		return fmt.Errorf("API key credential type %q is not a credential type; use one of %s", typ, strings.Join(api.CredentialTypes(), ", "))
	}
	switch {
	case typ == api.CredentialLogin && strings.TrimSpace(profileID) == "":
		return fmt.Errorf("API key of type %s has no session profile id; set APIKeySpec.SessionProfileID", api.CredentialLogin)
	case typ != api.CredentialLogin && profileID != "":
		return fmt.Errorf("API key of type %s has session profile id %q, which only a %s key may have; leave it empty", typ, profileID, api.CredentialLogin)
	case len(profileID) > api.MaxIDLength:
		return fmt.Errorf("API key session profile id is %d bytes, over the limit of %d for an id", len(profileID), api.MaxIDLength)
	}
	return nil
}
