package server

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/url"
	"time"

	"github.com/vigil-console/vigil/api"
)

func (s *Server) queryListUsers(ctx context.Context, c *caller, body api.StrictBody) (any, error) {
	var req api.ListUsersRequest
	if err := decodeQuery(body, &req); err != nil {
		return nil, err
	}
	return usersStream{s: s, orgID: c.OrgID}, nil
}

func (s *Server) queryGetUser(ctx context.Context, c *caller, body api.StrictBody) (any, error) {
	var req api.GetUserRequest
	if err := decodeQuery(body, &req); err != nil {
		return nil, err
	}
	if err := requireField("userId", req.UserID); err != nil {
		return nil, err
	}
	users, err := s.loadUsers(ctx, c.OrgID, req.UserID)
	if err != nil {
		return nil, err
	}
	if len(users) == 0 {
		return nil, notFoundf("USER_NOT_FOUND", "user %q not found in organization %q", req.UserID, c.OrgID)
	}
	return api.GetUserResponse{User: users[0]}, nil
}

// loadUsers loads the organization's users (or the one with onlyID) with their
// API keys, authenticators, tag ids, OIDC identities and MFA policies, all
// from one snapshot: a write between the statements (a key created with its
// user, a user deleted with their keys) must not give a torn record.
func (s *Server) loadUsers(ctx context.Context, orgID, onlyID string) ([]api.User, error) {
	var users []api.User
	err := s.inSnapshot(ctx, func(q querier) error {
		var err error
		users, err = loadUsersIn(ctx, q, orgID, onlyID)
		return err
	})
	return users, err
}

func loadUsersIn(ctx context.Context, q querier, orgID, onlyID string) ([]api.User, error) {
	where, args := `org_id = ?`, []any{orgID}
	if onlyID != "" {
		where += ` AND id = ?`
		args = append(args, onlyID)
	}
	rows, err := q.QueryContext(ctx, `SELECT id, name, email, created_ns, updated_ns FROM users WHERE `+where+` ORDER BY seq`, args...)
	if err != nil {
		return nil, fmt.Errorf("load users: %w", err)
	}
	var users []api.User
	for rows.Next() {
		var u api.User
		var created, updated int64
		if err := rows.Scan(&u.UserID, &u.UserName, &u.UserEmail, &created, &updated); err != nil {
			rows.Close()
			return nil, err
		}
		u.CreatedAt, u.UpdatedAt = api.NewTime(time.Unix(0, created)), api.NewTime(time.Unix(0, updated))
		users = append(users, u)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	if users == nil {
		return []api.User{}, nil
	}
	// get_user reads that user's credentials alone: reading the whole
	// organization's for one user made its cost grow with the organization.
	scope, scopeArgs := `org_id = ?`, []any{orgID}
	if onlyID != "" {
		scope, scopeArgs = `org_id = ? AND user_id = ?`, []any{orgID, onlyID}
	}
	keys, err := loadAPIKeys(ctx, q, scope, scopeArgs...)
	if err != nil {
		return nil, err
	}
	auths := map[string][]api.Authenticator{}
	arows, err := q.QueryContext(ctx, `SELECT id, user_id, name, credential_id, public_key, transports, attestation_type, aaguid, model, created_ns, updated_ns FROM authenticators WHERE `+scope+` ORDER BY created_ns`, scopeArgs...)
	if err != nil {
		return nil, err
	}
	for arows.Next() {
		user, a, err := scanAuthenticator(arows)
		if err != nil {
			arows.Close()
			return nil, err
		}
		auths[user] = append(auths[user], a)
	}
	arows.Close()
	tags := map[string][]string{}
	// One user's tags are found from their memberships (CROSS JOIN keeps
	// that order), each tag by its id (the unary + keeps the planner off
	// the organization's index), not by walking every tag of the organization.
	join, tagScope := `JOIN`, `t.org_id = ?`
	if onlyID != "" {
		join, tagScope = `CROSS JOIN`, `+t.org_id = ? AND m.user_id = ?`
	}
	trows, err := q.QueryContext(ctx, `SELECT m.user_id, m.tag_id FROM user_tag_members m `+join+` user_tags t ON t.id = m.tag_id WHERE `+tagScope+` ORDER BY `+userTagOrder, scopeArgs...)
	if err != nil {
		return nil, err
	}
	for trows.Next() {
		var user, tag string
		if err := trows.Scan(&user, &tag); err != nil {
			trows.Close()
			return nil, err
		}
		tags[user] = append(tags[user], tag)
	}
	trows.Close()
	providers, err := loadOauthProviders(ctx, q, orgID, onlyID)
	if err != nil {
		return nil, err
	}
	mfa, err := loadMfaPolicies(ctx, q, scope, scopeArgs...)
	if err != nil {
		return nil, err
	}
	mfaByUser := map[string][]api.MfaPolicy{}
	for _, p := range mfa {
		mfaByUser[p.UserID] = append(mfaByUser[p.UserID], p)
	}
	for i := range users {
		id := users[i].UserID
		users[i].APIKeys = keys[id]
		users[i].Authenticators = auths[id]
		users[i].UserTags = tags[id]
		users[i].OauthProviders = providers[id]
		users[i].MfaPolicies = mfaByUser[id]
	}
	return users, nil
}

// loadOauthProviders lists the OIDC identities linked to the organization's
// users (or the one with onlyID), by user id. The audience is what the organization expects in aud from
// that issuer: its own id for the local issuer, the trusted issuer's audience
// otherwise.
func loadOauthProviders(ctx context.Context, q querier, orgID, onlyID string) (map[string][]api.OauthProvider, error) {
	where, args := `i.org_id = ?`, []any{orgID}
	if onlyID != "" {
		where, args = `i.org_id = ? AND i.user_id = ?`, []any{orgID, onlyID}
	}
	rows, err := q.QueryContext(ctx, `SELECT i.user_id, i.issuer, i.subject, i.created_ns, u.created_ns,
		COALESCE((SELECT t.audience FROM oidc_trusted_issuers t WHERE t.org_id = i.org_id AND t.issuer = i.issuer LIMIT 1), '')
		FROM oidc_identities i JOIN users u ON u.id = i.user_id WHERE `+where+` ORDER BY i.created_ns, i.issuer, i.subject`, args...)
	if err != nil {
		return nil, fmt.Errorf("load OAuth providers: %w", err)
	}
	defer rows.Close()
	out := map[string][]api.OauthProvider{}
	scan := scanOauthProvider(orgID)
	for rows.Next() {
		user, p, err := scan(rows)
		if err != nil {
			return nil, fmt.Errorf("load OAuth providers: %w", err)
		}
		out[user] = append(out[user], p)
	}
	return out, rows.Err()
}

// scanAuthenticator reads a row of an authenticator's columns (loadUsersIn's):
// the passkey and its user's id.
func scanAuthenticator(rows *sql.Rows) (string, api.Authenticator, error) {
	var a api.Authenticator
	var user string
	var created, updated int64
	var transports string
	if err := rows.Scan(&a.AuthenticatorID, &user, &a.AuthenticatorName, &a.CredentialID, &a.Credential.PublicKey,
		&transports, &a.AttestationType, &a.Aaguid, &a.Model, &created, &updated); err != nil {
		return "", a, err
	}
	if err := json.Unmarshal([]byte(transports), &a.Transports); err != nil {
		return "", a, fmt.Errorf("authenticator %s: stored transports: %w", a.AuthenticatorID, err)
	}
	a.Credential.Type = api.CredentialWebAuthnAuthenticator
	a.CreatedAt, a.UpdatedAt = api.NewTime(time.Unix(0, created)), api.NewTime(time.Unix(0, updated))
	return user, a, nil
}

// scanOauthProvider reads a row of loadOauthProviders' columns in orgID:
// the identity and its user's id.
func scanOauthProvider(orgID string) func(*sql.Rows) (string, api.OauthProvider, error) {
	return func(rows *sql.Rows) (string, api.OauthProvider, error) {
		var p api.OauthProvider
		var user string
		var created, userCreated int64
		if err := rows.Scan(&user, &p.Issuer, &p.Subject, &created, &userCreated, &p.Audience); err != nil {
			return "", p, err
		}
		if created == 0 { // linked before identities recorded their time
			created = userCreated
		}
		if p.Issuer == LocalOIDCIssuer {
			p.Audience = orgID
		}
		p.ProviderID = oauthProviderID(orgID, p.Issuer, p.Subject)
		p.ProviderName = oauthProviderName(p.Issuer)
		p.CreatedAt = api.NewTime(time.Unix(0, created))
		p.UpdatedAt = p.CreatedAt
		return user, p, nil
	}
}

// oauthProviderID names an identity by what identifies it (organization,
// issuer, subject), so the id is stable without a column of its own.
func oauthProviderID(orgID, issuer, subject string) string {
	sum := sha256.Sum256([]byte(orgID + "\x00" + issuer + "\x00" + subject))
	return "oauth-provider-" + hex.EncodeToString(sum[:12])
}

func oauthProviderName(issuer string) string {
	if issuer == LocalOIDCIssuer {
		return "vigil local OIDC issuer"
	}
	if u, err := url.Parse(issuer); err == nil && u.Host != "" {
		return u.Host
	}
	return issuer
}

// userTagOrder orders a user's tags (user_tags t): by creation, then id. The
// service evaluates policies (loadPolicyUsers) and lists users with it, so
// user.tags[i] is the same tag in both.
const userTagOrder = "t.created_ns, t.id"
