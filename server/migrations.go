package server

import (
	"context"
	"database/sql"
	"fmt"
	"log/slog"
	"os"
	"strings"
	"time"
)

// migrations are applied in order; each one runs once, recorded in
// schema_migrations. Never edit a released migration: append a new one.
var migrations = []string{
	// 1: the whole initial schema.
	`
CREATE TABLE service_state (
	key   TEXT PRIMARY KEY,
	value BLOB NOT NULL
);
CREATE TABLE organizations (
	id               TEXT PRIMARY KEY,
	name             TEXT NOT NULL,
	root_threshold   INTEGER NOT NULL,
	root_user_ids    TEXT NOT NULL, -- JSON array, in quorum order
	created_ns       INTEGER NOT NULL
);
CREATE TABLE users (
	id         TEXT PRIMARY KEY,
	org_id     TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
	name       TEXT NOT NULL,
	email      TEXT NOT NULL DEFAULT '',
	seq        INTEGER NOT NULL,
	created_ns INTEGER NOT NULL,
	updated_ns INTEGER NOT NULL
);
CREATE INDEX users_org ON users(org_id, seq);
CREATE TABLE user_tags (
	id         TEXT PRIMARY KEY,
	org_id     TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
	name       TEXT NOT NULL,
	created_ns INTEGER NOT NULL
);
CREATE TABLE user_tag_members (
	tag_id  TEXT NOT NULL REFERENCES user_tags(id) ON DELETE CASCADE,
	user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
	PRIMARY KEY (tag_id, user_id)
);
CREATE TABLE api_keys (
	id                 TEXT PRIMARY KEY,
	org_id             TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
	user_id            TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
	name               TEXT NOT NULL,
	public_key         TEXT NOT NULL,
	credential_type    TEXT NOT NULL,
	expiration_seconds INTEGER NOT NULL DEFAULT 0, -- 0: never expires
	created_ns         INTEGER NOT NULL,
	updated_ns         INTEGER NOT NULL
);
CREATE INDEX api_keys_public_key ON api_keys(public_key);
CREATE INDEX api_keys_user ON api_keys(user_id);
CREATE TABLE authenticators (
	id            TEXT PRIMARY KEY,
	org_id        TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
	user_id       TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
	name          TEXT NOT NULL,
	credential_id TEXT NOT NULL,
	public_key    TEXT NOT NULL,
	created_ns    INTEGER NOT NULL,
	updated_ns    INTEGER NOT NULL
);
CREATE INDEX authenticators_credential ON authenticators(credential_id);
CREATE TABLE invitations (
	id         TEXT PRIMARY KEY,
	org_id     TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
	body       TEXT NOT NULL, -- JSON api.Invitation
	created_ns INTEGER NOT NULL
);
CREATE TABLE policies (
	id         TEXT PRIMARY KEY,
	org_id     TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
	name       TEXT NOT NULL,
	effect     TEXT NOT NULL,
	condition  TEXT NOT NULL,
	consensus  TEXT NOT NULL,
	notes      TEXT NOT NULL,
	seq        INTEGER NOT NULL,
	created_ns INTEGER NOT NULL,
	updated_ns INTEGER NOT NULL
);
CREATE INDEX policies_org ON policies(org_id, seq);
CREATE TABLE mfa_policies (
	id         TEXT PRIMARY KEY,
	org_id     TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
	user_id    TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
	name       TEXT NOT NULL,
	condition  TEXT NOT NULL,
	methods    TEXT NOT NULL, -- JSON []api.AuthenticationStep
	ord        INTEGER NOT NULL,
	notes      TEXT NOT NULL,
	seq        INTEGER NOT NULL,
	created_ns INTEGER NOT NULL,
	updated_ns INTEGER NOT NULL
);
CREATE TABLE features (
	org_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
	name   TEXT NOT NULL,
	value  TEXT NOT NULL,
	PRIMARY KEY (org_id, name)
);
CREATE TABLE wallets (
	id         TEXT PRIMARY KEY,
	org_id     TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
	name       TEXT NOT NULL,
	created_ns INTEGER NOT NULL
);
CREATE TABLE wallet_accounts (
	id         TEXT PRIMARY KEY,
	org_id     TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
	wallet_id  TEXT NOT NULL REFERENCES wallets(id) ON DELETE CASCADE,
	address    TEXT NOT NULL,
	exported   INTEGER NOT NULL DEFAULT 0,
	created_ns INTEGER NOT NULL
);
CREATE TABLE smart_contract_interfaces (
	id         TEXT PRIMARY KEY,
	org_id     TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
	address    TEXT NOT NULL,
	interface  TEXT NOT NULL,
	type       TEXT NOT NULL,
	label      TEXT NOT NULL,
	notes      TEXT NOT NULL,
	created_ns INTEGER NOT NULL
);
CREATE TABLE oauth2_credentials (
	id                      TEXT PRIMARY KEY,
	org_id                  TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
	provider                TEXT NOT NULL,
	client_id               TEXT NOT NULL,
	encrypted_client_secret TEXT NOT NULL, -- kept encrypted; checked on update
	created_ns              INTEGER NOT NULL,
	updated_ns              INTEGER NOT NULL
);
CREATE TABLE tvc_deployments (
	id         TEXT PRIMARY KEY,
	org_id     TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
	app        TEXT NOT NULL,
	label      TEXT NOT NULL,
	created_ns INTEGER NOT NULL
);
CREATE TABLE onramp_transactions (
	id         TEXT PRIMARY KEY,
	org_id     TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
	status     TEXT NOT NULL,
	updated_ns INTEGER NOT NULL
);
CREATE TABLE read_only_sessions (
	id         TEXT PRIMARY KEY,
	org_id     TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
	user_id    TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
	token_hash TEXT NOT NULL,
	expiry_ns  INTEGER NOT NULL
);
CREATE TABLE oidc_identities (
	org_id  TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
	issuer  TEXT NOT NULL,
	subject TEXT NOT NULL,
	user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
	PRIMARY KEY (org_id, issuer, subject)
);
CREATE TABLE auth_proxy_configs (
	id     TEXT PRIMARY KEY,
	org_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
	config TEXT NOT NULL -- JSON api.WalletKitConfig
);
CREATE TABLE activities (
	seq                 INTEGER PRIMARY KEY AUTOINCREMENT,
	id                  TEXT NOT NULL UNIQUE,
	org_id              TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
	type                TEXT NOT NULL,
	status              TEXT NOT NULL,
	fingerprint         TEXT NOT NULL,
	requester_id        TEXT NOT NULL,
	body                BLOB NOT NULL, -- the exact request body
	intent              TEXT NOT NULL, -- JSON api.Intent
	result              TEXT NOT NULL, -- JSON api.Result
	failure             TEXT NOT NULL DEFAULT '', -- JSON api.Failure or empty
	generate_app_proofs INTEGER NOT NULL DEFAULT 0,
	created_ns          INTEGER NOT NULL,
	updated_ns          INTEGER NOT NULL,
	UNIQUE (org_id, fingerprint)
);
CREATE INDEX activities_org ON activities(org_id, seq);
CREATE TABLE votes (
	seq              INTEGER PRIMARY KEY AUTOINCREMENT,
	id               TEXT NOT NULL UNIQUE,
	activity_id      TEXT NOT NULL REFERENCES activities(id) ON DELETE CASCADE,
	user_id          TEXT NOT NULL,
	selection        TEXT NOT NULL,
	message          TEXT NOT NULL,
	public_key       TEXT NOT NULL,
	signature        TEXT NOT NULL,
	scheme           TEXT NOT NULL,
	body_fingerprint TEXT NOT NULL, -- fingerprint of the request that cast it
	created_ns       INTEGER NOT NULL,
	UNIQUE (activity_id, user_id)
);
CREATE TABLE policy_evaluations (
	seq         INTEGER PRIMARY KEY AUTOINCREMENT,
	id          TEXT NOT NULL UNIQUE,
	activity_id TEXT NOT NULL REFERENCES activities(id) ON DELETE CASCADE,
	org_id      TEXT NOT NULL,
	vote_id     TEXT NOT NULL,
	outcomes    TEXT NOT NULL, -- JSON []api.PolicyOutcome
	created_ns  INTEGER NOT NULL
);
CREATE INDEX policy_evaluations_activity ON policy_evaluations(activity_id, seq);
CREATE TABLE app_proofs (
	seq         INTEGER PRIMARY KEY AUTOINCREMENT,
	activity_id TEXT NOT NULL REFERENCES activities(id) ON DELETE CASCADE,
	proof       TEXT NOT NULL -- JSON api.AppProof
);
CREATE INDEX app_proofs_activity ON app_proofs(activity_id, seq);
CREATE TABLE enclaves (
	app              TEXT PRIMARY KEY,
	ephemeral_key    TEXT NOT NULL,
	boot_proof       TEXT NOT NULL, -- JSON api.BootProof
	state            BLOB NOT NULL, -- proof.DemoEnclave.Marshal()
	created_ns       INTEGER NOT NULL
);
CREATE INDEX enclaves_ephemeral ON enclaves(ephemeral_key);
`,
	// 2: a public key identifies one API key within an organization.
	`CREATE UNIQUE INDEX api_keys_org_public_key ON api_keys(org_id, public_key);`,
	// 3: OIDC issuers an organization trusts besides the local one (oauth):
	// one row per verification key; every row of an issuer has its audience.
	`
CREATE TABLE oidc_trusted_issuers (
	org_id         TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
	issuer         TEXT NOT NULL,
	audience       TEXT NOT NULL,
	kid            TEXT NOT NULL, -- '' for a key that tokens without a kid header may use
	public_key_pem TEXT NOT NULL, -- PKIX "PUBLIC KEY": ECDSA P-256 or RSA
	created_ns     INTEGER NOT NULL
);
CREATE INDEX oidc_trusted_issuers_org ON oidc_trusted_issuers(org_id, issuer);
`,
	// 4: when an OIDC identity was linked (a user's oauthProviders[].createdAt);
	// 0 for rows linked before, which show the user's creation time.
	`ALTER TABLE oidc_identities ADD COLUMN created_ns INTEGER NOT NULL DEFAULT 0;`,
	// 5: approvals expire 24 hours after an activity's first vote when consensus
	// is not reached, and the members vote again: a user may have one vote per
	// round, so (activity_id, user_id) is no longer unique.
	`
CREATE TABLE votes_v5 (
	seq              INTEGER PRIMARY KEY AUTOINCREMENT,
	id               TEXT NOT NULL UNIQUE,
	activity_id      TEXT NOT NULL REFERENCES activities(id) ON DELETE CASCADE,
	user_id          TEXT NOT NULL,
	selection        TEXT NOT NULL,
	message          TEXT NOT NULL,
	public_key       TEXT NOT NULL,
	signature        TEXT NOT NULL,
	scheme           TEXT NOT NULL,
	body_fingerprint TEXT NOT NULL, -- fingerprint of the request that cast it
	created_ns       INTEGER NOT NULL
);
INSERT INTO votes_v5(seq, id, activity_id, user_id, selection, message, public_key, signature, scheme, body_fingerprint, created_ns)
	SELECT seq, id, activity_id, user_id, selection, message, public_key, signature, scheme, body_fingerprint, created_ns FROM votes;
DROP TABLE votes;
ALTER TABLE votes_v5 RENAME TO votes;
CREATE INDEX votes_activity ON votes(activity_id, seq);
`,
	// 6: every list the console and CLI send is served by an index, in the
	// order it is paged (seq), so its cost does not grow with the organization
	// (docs/performance.md; queryplan_test.go guards the plans).
	`
CREATE INDEX activities_org_status ON activities(org_id, status, seq);
CREATE INDEX activities_org_type ON activities(org_id, type, seq);
CREATE INDEX activities_org_status_type ON activities(org_id, status, type, seq);
CREATE INDEX user_tag_members_user ON user_tag_members(user_id);
CREATE INDEX authenticators_org ON authenticators(org_id, created_ns);
CREATE INDEX api_keys_org_created ON api_keys(org_id, created_ns);
CREATE INDEX user_tags_org ON user_tags(org_id, created_ns);
CREATE INDEX mfa_policies_org ON mfa_policies(org_id, ord, seq);
CREATE INDEX wallet_accounts_org ON wallet_accounts(org_id, id);
`,
	// 7: a vote and the policy evaluation it caused are written together and
	// are one row: a submit inserts one history row fewer, with its indexes.
	// Votes need neither AUTOINCREMENT (sqlite_sequence is written on every
	// insert) nor a unique index on their id (UUIDv7s made here, never looked
	// up by id). docs/performance.md has the figures.
	`
CREATE INDEX policy_evaluations_vote ON policy_evaluations(vote_id);
CREATE TABLE votes_v7 (
	seq              INTEGER PRIMARY KEY,
	id               TEXT NOT NULL,
	activity_id      TEXT NOT NULL REFERENCES activities(id) ON DELETE CASCADE,
	user_id          TEXT NOT NULL,
	selection        TEXT NOT NULL,
	message          TEXT NOT NULL,
	public_key       TEXT NOT NULL,
	signature        TEXT NOT NULL,
	scheme           TEXT NOT NULL,
	body_fingerprint TEXT NOT NULL, -- fingerprint of the request that cast it
	created_ns       INTEGER NOT NULL,
	evaluation_id    TEXT NOT NULL DEFAULT '', -- the policy evaluation this vote caused
	outcomes         TEXT NOT NULL DEFAULT ''  -- its JSON []api.PolicyOutcome
);
INSERT INTO votes_v7(seq, id, activity_id, user_id, selection, message, public_key, signature, scheme, body_fingerprint, created_ns, evaluation_id, outcomes)
	SELECT v.seq, v.id, v.activity_id, v.user_id, v.selection, v.message, v.public_key, v.signature, v.scheme, v.body_fingerprint, v.created_ns,
		COALESCE(e.id, ''), COALESCE(e.outcomes, '')
	FROM votes v LEFT JOIN policy_evaluations e ON e.vote_id = v.id
	ORDER BY v.seq;
DROP TABLE votes;
DROP TABLE policy_evaluations;
ALTER TABLE votes_v7 RENAME TO votes;
CREATE INDEX votes_activity ON votes(activity_id, seq);
`,
	// 8: every list of activities is a merge of (org_id, status, ...) ranges,
	// one per status when it filters none (api.ActivityStatuses): the indexes by
	// organization alone and by type alone cost each submit two index entries
	// and a group commit about 6 of its 43 pages, and no list needs them.
	`
DROP INDEX activities_org;
DROP INDEX activities_org_type;
`,
	// 9: activities without AUTOINCREMENT (sqlite_sequence was written on
	// every insert) and without the unique (org_id, fingerprint) index: its
	// ~110-byte entries, one at a random place per submit, were the largest
	// share of a group commit's pages (11 of 36) and, at 100,000 activities,
	// a 12 MB index for the writer's page cache. Fingerprints are found
	// through an index of 8 bytes of their hash instead (findByFingerprint),
	// and kept unique by the writer, which looks before it inserts.
	// Foreign keys are off while migrations run (migrate), so dropping the
	// old table does not cascade into votes and app proofs.
	`
CREATE TABLE activities_v9 (
	seq                 INTEGER PRIMARY KEY,
	id                  TEXT NOT NULL UNIQUE,
	org_id              TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
	type                TEXT NOT NULL,
	status              TEXT NOT NULL,
	fingerprint         TEXT NOT NULL,
	requester_id        TEXT NOT NULL,
	body                BLOB NOT NULL, -- the exact request body
	intent              TEXT NOT NULL, -- JSON api.Intent
	result              TEXT NOT NULL, -- JSON api.Result
	failure             TEXT NOT NULL DEFAULT '', -- JSON api.Failure or empty
	generate_app_proofs INTEGER NOT NULL DEFAULT 0,
	created_ns          INTEGER NOT NULL,
	updated_ns          INTEGER NOT NULL
);
INSERT INTO activities_v9(seq, id, org_id, type, status, fingerprint, requester_id, body, intent, result, failure, generate_app_proofs, created_ns, updated_ns)
	SELECT seq, id, org_id, type, status, fingerprint, requester_id, body, intent, result, failure, generate_app_proofs, created_ns, updated_ns
	FROM activities ORDER BY seq;
DROP TABLE activities;
ALTER TABLE activities_v9 RENAME TO activities;
CREATE INDEX activities_org_status ON activities(org_id, status, seq);
CREATE INDEX activities_org_status_type ON activities(org_id, status, type, seq);
CREATE INDEX activities_fingerprint ON activities(substr(fingerprint, 8, 16));
`,
	// 10: an API key's credential.sessionProfileId (SPEC.md: only for
	// CREDENTIAL_TYPE_LOGIN keys); '' for every other key, and for every key
	// stored before.
	`ALTER TABLE api_keys ADD COLUMN session_profile_id TEXT NOT NULL DEFAULT '';`,
	// 11: the credential that cast a vote, which policies see as
	// credentials[].id, .type and .credential_id: the API key's or
	// authenticator's id, its registered type (an OAuth or session key
	// stamps as P-256 like any API key), and a passkey's credential id.
	// Votes stored before get the voter's key or passkey with the vote's
	// public key, when it still exists; '' otherwise (the policies then see
	// the type the stamp's scheme implies).
	`
ALTER TABLE votes ADD COLUMN credential_id TEXT NOT NULL DEFAULT '';
ALTER TABLE votes ADD COLUMN credential_type TEXT NOT NULL DEFAULT '';
ALTER TABLE votes ADD COLUMN passkey_credential_id TEXT NOT NULL DEFAULT '';
UPDATE votes SET (credential_id, credential_type) = (
	SELECT k.id, k.credential_type FROM api_keys k WHERE k.user_id = votes.user_id AND lower(k.public_key) = lower(votes.public_key)
	ORDER BY k.created_ns LIMIT 1)
WHERE scheme != 'SIGNATURE_SCHEME_WEBAUTHN' AND EXISTS (
	SELECT 1 FROM api_keys k WHERE k.user_id = votes.user_id AND lower(k.public_key) = lower(votes.public_key));
UPDATE votes SET (credential_id, credential_type, passkey_credential_id) = (
	SELECT a.id, 'CREDENTIAL_TYPE_WEBAUTHN_AUTHENTICATOR', a.credential_id FROM authenticators a
	WHERE a.user_id = votes.user_id AND lower(a.public_key) = lower(votes.public_key)
	ORDER BY a.created_ns LIMIT 1)
WHERE scheme = 'SIGNATURE_SCHEME_WEBAUTHN' AND EXISTS (
	SELECT 1 FROM authenticators a WHERE a.user_id = votes.user_id AND lower(a.public_key) = lower(votes.public_key));
`,
	// 12: the webhook outbox. An activity's status change inserts its
	// delivery here in the same transaction, so the event is durable exactly
	// when the change is; the dispatcher (outbox.go) deletes the row once
	// delivered, reschedules it (next_attempt_ns) while the receiver fails,
	// and keeps the last few refused or given-up events of each
	// organization as 'dead'. The pending index serves the dispatcher's
	// per-organization reads in due order; the dead one trims each
	// organization's dead rows.
	`
CREATE TABLE webhook_outbox (
	seq             INTEGER PRIMARY KEY,
	org_id          TEXT NOT NULL,
	event_id        TEXT NOT NULL, -- <activityId>:<status>
	url             TEXT NOT NULL,
	body            BLOB NOT NULL, -- the activity JSON, sent and signed unchanged
	created_ns      INTEGER NOT NULL,
	next_attempt_ns INTEGER NOT NULL,
	attempts        INTEGER NOT NULL DEFAULT 0, -- HTTP attempts made
	stays           INTEGER NOT NULL DEFAULT 0, -- times queued for delivery and not delivered
	last_status     INTEGER NOT NULL DEFAULT 0, -- HTTP status of the last attempt; 0: no reply
	last_error      TEXT NOT NULL DEFAULT '',
	state           TEXT NOT NULL DEFAULT 'pending' -- pending or dead
);
CREATE INDEX webhook_outbox_pending ON webhook_outbox(org_id, next_attempt_ns) WHERE state = 'pending';
CREATE INDEX webhook_outbox_dead ON webhook_outbox(org_id, seq) WHERE state = 'dead';
`,
	// 13: OIDC tokens already exchanged by oauth, so that none signs in twice:
	// the hex SHA-256 of the token's signed part, kept until the token
	// expires (expires_s, Unix seconds, leeway included), then pruned.
	// Global, not per organization: a token two organizations accept still
	// signs in once.
	`
CREATE TABLE oidc_exchanged_tokens (
	token_hash  TEXT PRIMARY KEY,
	org_id      TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
	activity_id TEXT NOT NULL,
	expires_s   INTEGER NOT NULL
);
CREATE INDEX oidc_exchanged_tokens_expiry ON oidc_exchanged_tokens(expires_s);
`,
	// 14: a policy's time expression (the real service's v1Policy.time):
	// when the policy is active; '' is always. Compiled before it is stored.
	`
ALTER TABLE policies ADD COLUMN time_expr TEXT NOT NULL DEFAULT '';
`,
	// 15: what a passkey's registration said of the device, which the
	// official client's v1Authenticator requires: transports (a JSON array
	// of AUTHENTICATOR_TRANSPORT_* values), the attestation conveyance, the
	// AAGUID and the model. Passkeys registered before keep the values of
	// a registration that said nothing: [], none, all zeros, "".
	`
ALTER TABLE authenticators ADD COLUMN transports TEXT NOT NULL DEFAULT '[]';
ALTER TABLE authenticators ADD COLUMN attestation_type TEXT NOT NULL DEFAULT 'none';
ALTER TABLE authenticators ADD COLUMN aaguid TEXT NOT NULL DEFAULT '00000000-0000-0000-0000-000000000000';
ALTER TABLE authenticators ADD COLUMN model TEXT NOT NULL DEFAULT '';
`,
	// 16: the running total of each organization's policies' size, which
	// caps them (policyBudgetExceeded): the bytes of each policy's texts
	// plus 512 for its record (policyCharge, policyRecordCharge), kept by
	// triggers so that no way of storing a policy can miss it.
	`
ALTER TABLE organizations ADD COLUMN policy_bytes INTEGER NOT NULL DEFAULT 0;
UPDATE organizations SET policy_bytes = (SELECT COALESCE(SUM(
	length(CAST(name AS BLOB)) + length(CAST(condition AS BLOB)) + length(CAST(consensus AS BLOB)) +
	length(CAST(time_expr AS BLOB)) + length(CAST(notes AS BLOB)) + 512), 0) FROM policies WHERE org_id = organizations.id);
CREATE TRIGGER policies_charge AFTER INSERT ON policies BEGIN
	UPDATE organizations SET policy_bytes = policy_bytes +
		length(CAST(NEW.name AS BLOB)) + length(CAST(NEW.condition AS BLOB)) + length(CAST(NEW.consensus AS BLOB)) +
		length(CAST(NEW.time_expr AS BLOB)) + length(CAST(NEW.notes AS BLOB)) + 512
	WHERE id = NEW.org_id;
END;
CREATE TRIGGER policies_refund AFTER DELETE ON policies BEGIN
	UPDATE organizations SET policy_bytes = policy_bytes -
		length(CAST(OLD.name AS BLOB)) - length(CAST(OLD.condition AS BLOB)) - length(CAST(OLD.consensus AS BLOB)) -
		length(CAST(OLD.time_expr AS BLOB)) - length(CAST(OLD.notes AS BLOB)) - 512
	WHERE id = OLD.org_id;
END;
`,
	// 17: when an event's first attempt started (Unix nanoseconds; 0: never
	// attempted), stored before the attempt: no copy is sent past it plus
	// GiveUpAfter, the receivers' memory of ids. A row already attempted
	// takes its creation, the earliest its first attempt could have been.
	`
ALTER TABLE webhook_outbox ADD COLUMN first_sent_ns INTEGER NOT NULL DEFAULT 0;
UPDATE webhook_outbox SET first_sent_ns = created_ns WHERE attempts > 0;
`,
	// 18: the instant the policies saw for a vote's evaluation when it is
	// not the vote's time (a vote dated no earlier than the previous one
	// after the clock stepped back); 0: the vote's time.
	`
ALTER TABLE votes ADD COLUMN evaluated_ns INTEGER NOT NULL DEFAULT 0;
`,
	// 19: one public key and one credential id name one passkey of an
	// organization: the credential id is not signed, so one key under two
	// ids voted as two users. Before this runs, uniqueAuthenticators
	// stores each key compressed and removes the later of two passkeys
	// that share a key or a credential id, logging each one removed.
	`
CREATE UNIQUE INDEX authenticators_org_public_key ON authenticators(org_id, public_key);
CREATE UNIQUE INDEX authenticators_org_credential ON authenticators(org_id, credential_id);
`,
	// 20: one public key is one credential of an organization, API keys
	// and passkeys together (registration refuses a second one; 19 only
	// looked among passkeys). The work is uniqueCredentials', which
	// keeps one credential of a key (the one stored in the form stamps
	// carry, else the oldest), removes the others and logs each; no
	// schema changes.
	`SELECT 1;`,
	// 21: every API key in the form stamps carry, for they are looked up
	// in it. The work is canonicalAPIKeys', which first removes the
	// credentials schema 20 let share a key (keeping the one stored in
	// that form) and logs each; no schema changes.
	`SELECT 1;`,
	// 22: a key is its curve and its bytes: a compressed P-256 key may be a
	// secp256k1 point too, and the two are keys of two holders. The unique
	// index of API keys is on the curve of their credential type (the text
	// of apiKeyCurve), so that one's registration does not keep out the
	// other. canonicalAPIKeys (21) drops the old index first: on it, two
	// such keys, one stored uncompressed, collided when it was rewritten.
	`
DROP INDEX IF EXISTS api_keys_org_public_key;
CREATE UNIQUE INDEX api_keys_org_curve_public_key ON api_keys(org_id,
	CASE credential_type WHEN 'CREDENTIAL_TYPE_API_KEY_SECP256K1' THEN 'secp256k1' WHEN 'CREDENTIAL_TYPE_API_KEY_ED25519' THEN 'ed25519' ELSE 'p256' END,
	public_key);
`,
	// 23: a user's credentials and MFA policies are read by user:
	// get_user and the quorum guard (rootCredentials, in the write
	// transaction) read one user's or the root members', which without
	// these walked every key and passkey of the organization (or of the
	// service) and every MFA policy of the organization.
	`
CREATE INDEX api_keys_org_user ON api_keys(org_id, user_id, created_ns, id);
CREATE INDEX authenticators_user ON authenticators(org_id, user_id, created_ns);
CREATE INDEX mfa_policies_user ON mfa_policies(org_id, user_id, ord, seq);
CREATE INDEX oidc_identities_user ON oidc_identities(org_id, user_id);
`,
}

// migrationUniqueAuthenticators is the migration that uniqueAuthenticators
// prepares.
const migrationUniqueAuthenticators = 19

// migrate brings the schema up to date in one transaction, on one
// connection with foreign keys off: a migration that rebuilds a table drops
// the old one, which with foreign keys on would delete the rows that
// reference it (ON DELETE CASCADE). Each migration must break no foreign key
// that was whole before it (checked before the next one runs). A failure
// rolls back every migration of the upgrade: the database stays at the
// version the previous vigil served, and that vigil can serve it again.
func migrate(ctx context.Context, db *sql.DB) error {
	return migrateLogged(ctx, db, len(migrations), nil, time.Now)
}

// migrateUpTo brings the schema up to version last (tests start from older ones).
func migrateUpTo(ctx context.Context, db *sql.DB, last int) error {
	return migrateLogged(ctx, db, last, nil, time.Now)
}

// migrateLogged is migrateUpTo telling log (nil: nobody) what a migration
// changed in the stored data that its owner should know. A database file
// that holds a schema is first copied next to it (backupBeforeUpgrade,
// named with the time now gives): a migration may remove credentials, and
// none runs without that copy.
func migrateLogged(ctx context.Context, db *sql.DB, last int, log *slog.Logger, now func() time.Time) (err error) {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	conn, err := db.Conn(ctx)
	if err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	defer conn.Close()
	// Checked at every open, not only before an upgrade: serving a database
	// an older vigil still serves splits one organization between two rules.
	release, err := holdSoleUse(ctx, conn)
	if err != nil {
		return err
	}
	defer func() {
		if rerr := release(); rerr != nil && err == nil {
			err = rerr
		}
	}()
	// Only once the database is ours: no other vigil is writing a backup.
	removePartialBackups(ctx, conn, log)
	// Read before anything is written: another program's database is
	// refused as it is.
	current, err := recordedSchemaVersion(ctx, conn)
	if err != nil {
		return err
	}
	if current > len(migrations) {
		return fmt.Errorf("database schema version %d is newer than this vigil (knows %d); upgrade vigil", current, len(migrations))
	}
	if current >= last {
		return nil
	}
	// Version 0 is a new database: nothing in it to lose.
	var backup string
	if current > 0 {
		if backup, err = backupBeforeUpgrade(ctx, conn, current, now()); err != nil {
			return err
		}
	}
	// Until the commit is tried, a failure rolls the upgrade back whole and
	// the backup is a second copy of what vigil.db still holds: it goes, or
	// a service manager restarting vigil after each refusal would write a
	// whole copy per start until the disk is full. A failed commit keeps
	// it: what the database then holds is not known for sure.
	committing := false
	defer func() {
		if err != nil && backup != "" && !committing {
			if rerr := os.Remove(backup); rerr != nil {
				err = fmt.Errorf("%w; remove %s, the copy of the unchanged database written before the upgrade: %v", err, backup, rerr)
			}
		}
	}()
	// Set outside the transaction: inside one, SQLite ignores it.
	if _, err := conn.ExecContext(ctx, `PRAGMA foreign_keys = OFF`); err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	// The connection goes back to the pool: foreign keys on again, whatever happened.
	defer conn.ExecContext(context.WithoutCancel(ctx), `PRAGMA foreign_keys = ON`)
	tx, err := conn.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	defer tx.Rollback()
	// In the transaction: a failed first upgrade leaves no trace of it.
	if _, err := tx.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (
		version INTEGER PRIMARY KEY, applied_ns INTEGER NOT NULL)`); err != nil {
		return fmt.Errorf("create schema_migrations: %w", err)
	}
	// Rows left dangling before the upgrade are the owner's to mend, not a
	// reason to refuse it (migration_fkcheck.go).
	dangling, err := findDangling(ctx, tx)
	if err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	dangling.warn(log)
	var removed migrationRemovals
	for v := current + 1; v <= last; v++ {
		if dangling, err = migrateTo(ctx, tx, v, dangling, &removed); err != nil {
			return upgradeFailed(current, v, err)
		}
	}
	committing = true
	if err := tx.Commit(); err != nil {
		return upgradeFailed(current, last, fmt.Errorf("commit: %w", err))
	}
	// Told only now: an upgrade that rolled back removed nothing.
	removed.warn(log, backup)
	if backup != "" {
		log.Info("upgraded the database schema; the database as it was before is kept in the backup, credentials the upgrade removed included: it holds the service's private keys as the database does, so keep it as private, and delete it once this vigil is known good",
			"from_version", current, "to_version", last, "backup", backup, "credentials_removed", removed.count())
	}
	return nil
}

// upgradeFailed is the failure of migration v of an upgrade from version
// current, all of which was rolled back, saying so.
func upgradeFailed(current, v int, err error) error {
	if mismatch := schemaMismatch(err, current); mismatch != nil {
		err = mismatch
	}
	return fmt.Errorf("migration %d: %w (the upgrade was rolled back whole: the database is as it was, at schema version %d)", v, err, current)
}

// schemaMismatch says, for a migration that failed because what it creates
// is already there, that the database's schema is not that of its recorded
// version; nil for any other failure, and at version 0, which no build of
// vigil leaves holding tables.
func schemaMismatch(err error, recorded int) error {
	if recorded == 0 {
		return nil
	}
	msg := err.Error()
	if !strings.Contains(msg, "already exists") && !strings.Contains(msg, "duplicate column name") {
		return nil
	}
	return fmt.Errorf("%w: the database's schema does not match its recorded version %d: it was written by a development build of vigil whose migrations are numbered differently; "+
		"serve it with the build that wrote it, or start this vigil on a new data directory", err, recorded)
}

// migrationRemovals is what the migrations of an upgrade removed from the
// stored data, logged once the upgrade has committed.
type migrationRemovals struct {
	passkeys    []removedPasskey
	credentials []removedCredential
}

// warn logs each removal, naming backup, the copy of the database from
// before the upgrade ("" for an in-memory one), which still holds it.
func (m migrationRemovals) warn(log *slog.Logger, backup string) {
	for _, r := range m.passkeys {
		r.warn(log, backup)
	}
	for _, r := range m.credentials {
		r.warn(log, backup)
	}
}

func (m migrationRemovals) count() int { return len(m.passkeys) + len(m.credentials) }

// migrateTo applies migration v in the upgrade's transaction, refusing it
// if it leaves rows dangling beyond those of before; it returns the
// dangling rows after it, and adds to removed what it removed.
func migrateTo(ctx context.Context, tx *sql.Tx, v int, before danglingRows, removed *migrationRemovals) (danglingRows, error) {
	switch v {
	case migrationUniqueAuthenticators:
		r, err := uniqueAuthenticators(ctx, tx)
		if err != nil {
			return before, err
		}
		removed.passkeys = append(removed.passkeys, r...)
	case migrationUniqueCredentials:
		r, err := uniqueCredentials(ctx, tx)
		if err != nil {
			return before, err
		}
		removed.credentials = append(removed.credentials, r...)
	case migrationCanonicalAPIKeys:
		r, err := canonicalAPIKeys(ctx, tx)
		if err != nil {
			return before, err
		}
		removed.credentials = append(removed.credentials, r...)
	}
	if _, err := tx.ExecContext(ctx, migrations[v-1]); err != nil {
		return before, err
	}
	after, err := findDangling(ctx, tx)
	if err != nil {
		return before, err
	}
	if err := before.added(after); err != nil {
		return before, err
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO schema_migrations(version, applied_ns) VALUES (?, strftime('%s','now')*1000000000)`, v); err != nil {
		return before, fmt.Errorf("record: %w", err)
	}
	return after, nil
}
