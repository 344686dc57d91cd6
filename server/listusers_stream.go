package server

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/vigil-console/vigil/api"
)

// list_users is sent user by user (usersStream): built whole, a reply of
// 5,000 members with 50 keys and 20 passkeys each (112.8 MiB) cost the
// service 1.69 GB, and any member may send it. Each of the statements below
// walks the organization's users in the reply's order (users_org) and each
// user's rows by the index migration 23 gave them, so they can be read side
// by side, one user at a time: their rows come in exactly the order the
// whole-organization reads gave each user (loadUsersIn), which get_user
// still uses.
const (
	streamUsersQuery = `SELECT id, name, email, created_ns, updated_ns FROM users WHERE org_id = ? ORDER BY seq`
	streamKeysQuery  = `SELECT k.id, k.user_id, k.name, k.public_key, k.credential_type, k.session_profile_id, k.expiration_seconds, k.created_ns, k.updated_ns
		FROM users u CROSS JOIN api_keys k ON k.org_id = u.org_id AND k.user_id = u.id WHERE u.org_id = ? ORDER BY u.seq, k.created_ns, k.id`
	// The rowid orders passkeys created in the same nanosecond as the
	// organization's index (authenticators_org) orders them for get_user.
	streamAuthenticatorsQuery = `SELECT a.id, a.user_id, a.name, a.credential_id, a.public_key, a.transports, a.attestation_type, a.aaguid, a.model, a.created_ns, a.updated_ns
		FROM users u CROSS JOIN authenticators a ON a.org_id = u.org_id AND a.user_id = u.id WHERE u.org_id = ? ORDER BY u.seq, a.created_ns, a.rowid`
	streamTagsQuery = `SELECT m.user_id, m.tag_id FROM users u CROSS JOIN user_tag_members m ON m.user_id = u.id CROSS JOIN user_tags t ON t.id = m.tag_id
		WHERE u.org_id = ? AND +t.org_id = u.org_id ORDER BY u.seq, ` + userTagOrder
	streamOauthProvidersQuery = `SELECT i.user_id, i.issuer, i.subject, i.created_ns, u.created_ns,
		COALESCE((SELECT t.audience FROM oidc_trusted_issuers t WHERE t.org_id = i.org_id AND t.issuer = i.issuer LIMIT 1), '')
		FROM users u CROSS JOIN oidc_identities i ON i.org_id = u.org_id AND i.user_id = u.id WHERE u.org_id = ? ORDER BY u.seq, i.created_ns, i.issuer, i.subject`
	streamMfaPoliciesQuery = `SELECT p.id, p.user_id, p.name, p.condition, p.methods, p.ord, p.notes, p.created_ns, p.updated_ns
		FROM users u CROSS JOIN mfa_policies p ON p.org_id = u.org_id AND p.user_id = u.id WHERE u.org_id = ? ORDER BY u.seq, p.ord, p.seq`
)

// maxUserStreams bounds the list_users replies being sent at once: each
// holds a connection of the read pool (8) for as long as its client takes
// to read it, so a few clients that stop reading must not hold them all.
const maxUserStreams = 2

// usersStream is a list_users reply, written by writeTo.
type usersStream struct {
	s     *Server
	orgID string
}

// userCursor is one statement's rows, read ahead by one: the row read last
// belongs to user (the next user it has rows for), or the rows are done.
type userCursor[T any] struct {
	rows *sql.Rows
	scan func(*sql.Rows) (user string, v T, err error)
	user string
	next T
	done bool
}

func openUserCursor[T any](ctx context.Context, q querier, query, orgID string, scan func(*sql.Rows) (string, T, error)) (*userCursor[T], error) {
	rows, err := q.QueryContext(ctx, query, orgID)
	if err != nil {
		return nil, err
	}
	c := &userCursor[T]{rows: rows, scan: scan}
	if err := c.advance(); err != nil {
		rows.Close()
		return nil, err
	}
	return c, nil
}

func (c *userCursor[T]) advance() error {
	if !c.rows.Next() {
		c.done = true
		return c.rows.Err()
	}
	var err error
	c.user, c.next, err = c.scan(c.rows)
	return err
}

// take returns user's rows: those up to the first of a later user.
func (c *userCursor[T]) take(user string) ([]T, error) {
	var out []T
	for !c.done && c.user == user {
		out = append(out, c.next)
		if err := c.advance(); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// finish fails if rows are left: a row of a user the users statement did
// not list, which one snapshot cannot give (its order is the users').
func (c *userCursor[T]) finish(what string) error {
	defer c.rows.Close()
	if !c.done {
		return fmt.Errorf("list users: %s of user %q out of the users' order", what, c.user)
	}
	return nil
}

// writeTo writes the reply to w, byte for byte what
// api.Marshal(api.ListUsersResponse{...}) gives for loadUsersIn's users,
// from one snapshot: a user deleted meanwhile is listed whole or not at all.
// It encodes one user at a time.
func (st usersStream) writeTo(ctx context.Context, w func([]byte) error) error {
	sn := st.s.db.snapshot(true) // read once, nothing from the caches: what is written cannot be read again
	defer sn.end(ctx)
	users, err := openUserCursor(ctx, sn, streamUsersQuery, st.orgID, scanStreamedUser)
	if err != nil {
		return fmt.Errorf("load users: %w", err)
	}
	keys, err := openUserCursor(ctx, sn, streamKeysQuery, st.orgID, scanAPIKey)
	if err != nil {
		users.rows.Close()
		return fmt.Errorf("load API keys: %w", err)
	}
	auths, err := openUserCursor(ctx, sn, streamAuthenticatorsQuery, st.orgID, scanAuthenticator)
	if err != nil {
		closeRows(users.rows, keys.rows)
		return fmt.Errorf("load authenticators: %w", err)
	}
	tags, err := openUserCursor(ctx, sn, streamTagsQuery, st.orgID, scanUserTag)
	if err != nil {
		closeRows(users.rows, keys.rows, auths.rows)
		return fmt.Errorf("load user tags: %w", err)
	}
	providers, err := openUserCursor(ctx, sn, streamOauthProvidersQuery, st.orgID, scanOauthProvider(st.orgID))
	if err != nil {
		closeRows(users.rows, keys.rows, auths.rows, tags.rows)
		return fmt.Errorf("load OAuth providers: %w", err)
	}
	mfa, err := openUserCursor(ctx, sn, streamMfaPoliciesQuery, st.orgID, scanMfaPolicy)
	if err != nil {
		closeRows(users.rows, keys.rows, auths.rows, tags.rows, providers.rows)
		return fmt.Errorf("load MFA policies: %w", err)
	}
	defer closeRows(users.rows, keys.rows, auths.rows, tags.rows, providers.rows, mfa.rows)
	if err := w([]byte(`{"users":[`)); err != nil {
		return err
	}
	for first := true; !users.done; first = false {
		u := users.next
		if u.APIKeys, err = keys.take(u.UserID); err != nil {
			return fmt.Errorf("load API keys: %w", err)
		}
		if u.Authenticators, err = auths.take(u.UserID); err != nil {
			return fmt.Errorf("load authenticators: %w", err)
		}
		if u.UserTags, err = tags.take(u.UserID); err != nil {
			return fmt.Errorf("load user tags: %w", err)
		}
		if u.OauthProviders, err = providers.take(u.UserID); err != nil {
			return fmt.Errorf("load OAuth providers: %w", err)
		}
		if u.MfaPolicies, err = mfa.take(u.UserID); err != nil {
			return fmt.Errorf("load MFA policies: %w", err)
		}
		b, err := api.Marshal(u)
		if err != nil {
			return fmt.Errorf("encode user %s: %w", u.UserID, err)
		}
		if !first {
			b = append([]byte{','}, b...)
		}
		if err := w(b); err != nil {
			return err
		}
		if err := users.advance(); err != nil {
			return fmt.Errorf("load users: %w", err)
		}
	}
	return errors.Join(keys.finish("an API key"), auths.finish("an authenticator"), tags.finish("a tag"),
		providers.finish("an OAuth provider"), mfa.finish("an MFA policy"), w([]byte(`]}`)))
}

func closeRows(rows ...*sql.Rows) {
	for _, r := range rows {
		r.Close()
	}
}

func scanStreamedUser(rows *sql.Rows) (string, api.User, error) {
	var u api.User
	var created, updated int64
	if err := rows.Scan(&u.UserID, &u.UserName, &u.UserEmail, &created, &updated); err != nil {
		return "", u, err
	}
	u.CreatedAt, u.UpdatedAt = api.NewTime(time.Unix(0, created)), api.NewTime(time.Unix(0, updated))
	return u.UserID, u, nil
}

func scanUserTag(rows *sql.Rows) (string, string, error) {
	var user, tag string
	err := rows.Scan(&user, &tag)
	return user, tag, err
}

// streamedReply is a reply written as it is read (writeStreamed).
type streamedReply interface {
	writeTo(ctx context.Context, write func([]byte) error) error
}

// streamSpill is how much of a streamed reply is held before the first
// bytes are sent: a reply that fits is sent with its length, and an error
// before then is an ordinary error reply.
const streamSpill = 64 << 10

// writeStreamed sends reply. Once bytes are sent, the status is: an error
// after them aborts the response (http.ErrAbortHandler), so that the
// client reads a cut reply (a chunked body without its end) and fails,
// never a shorter list that parses.
func (s *Server) writeStreamed(w http.ResponseWriter, r *http.Request, reply streamedReply) {
	select {
	case s.userStreams <- struct{}{}:
		defer func() { <-s.userStreams }()
	case <-r.Context().Done():
		s.writeError(w, r, r.Context().Err())
		return
	}
	buf := make([]byte, 0, streamSpill)
	sent := false
	err := reply.writeTo(r.Context(), func(b []byte) error {
		if len(buf)+len(b) <= streamSpill {
			buf = append(buf, b...)
			return nil
		}
		if !sent {
			w.Header().Set("Content-Type", "application/json")
			sent = true
		}
		if len(buf) > 0 {
			if _, err := w.Write(buf); err != nil {
				return fmt.Errorf("send reply: %w", err)
			}
			buf = buf[:0]
		}
		if len(b) > streamSpill {
			_, err := w.Write(b)
			if err != nil {
				return fmt.Errorf("send reply: %w", err)
			}
			return nil
		}
		buf = append(buf, b...)
		return nil
	})
	switch {
	case err != nil && !sent:
		s.writeError(w, r, err)
	case err != nil:
		s.log.Error("reply cut short", "path", truncateForMessage(r.URL.Path), "err", err)
		panic(http.ErrAbortHandler)
	case !sent:
		writeBody(w, buf)
	default:
		if _, err := w.Write(buf); err != nil {
			s.log.Error("reply cut short", "path", truncateForMessage(r.URL.Path), "err", err)
			panic(http.ErrAbortHandler)
		}
	}
}
