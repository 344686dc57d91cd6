package server

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/proof"
)

const (
	stateDemoAuthority = "demo_authority"
	// AppProofSigner is the enclave app whose ephemeral key signs app proofs.
	AppProofSigner = "signer"
	enclaveOwner   = "vigil local service"
	enclaveLabel   = "local-demo"
)

// demoAuthority loads (or creates and stores) the local demo root that signs the
// simulated enclaves' attestations. It is never the AWS root.
func (s *Server) demoAuthority(ctx context.Context, q querier) (*proof.DemoAuthority, error) {
	raw, ok, err := getState(ctx, q, stateDemoAuthority)
	if err != nil {
		return nil, err
	}
	if ok {
		a, err := proof.LoadDemoAuthority(raw)
		if err != nil {
			return nil, fmt.Errorf("stored demo authority: %w", err)
		}
		return a, nil
	}
	a, err := proof.NewDemoAuthority(s.now())
	if err != nil {
		return nil, err
	}
	if raw, err = a.Marshal(); err != nil {
		return nil, err
	}
	if err := putState(ctx, q, stateDemoAuthority, raw); err != nil {
		return nil, err
	}
	return a, nil
}

// enclave loads the simulated enclave of app, creating it (with a fresh boot
// proof) the first time. Enclaves belong to the service, shared by every
// organization, as the real service's enclaves are.
func (s *Server) enclave(ctx context.Context, q querier, app string) (*proof.DemoEnclave, error) {
	s.enclaveMu.Lock()
	defer s.enclaveMu.Unlock()
	var state []byte
	err := q.QueryRowContext(ctx, `SELECT state FROM enclaves WHERE app = ?`, app).Scan(&state)
	if err == nil {
		e, err := proof.LoadDemoEnclave(state)
		if err != nil {
			return nil, fmt.Errorf("stored enclave %s: %w", app, err)
		}
		return e, nil
	}
	if !errors.Is(err, sql.ErrNoRows) {
		return nil, err
	}
	auth, err := s.demoAuthority(ctx, q)
	if err != nil {
		return nil, err
	}
	e, err := proof.NewDemoEnclave(auth, app, enclaveOwner, enclaveLabel, s.now())
	if err != nil {
		return nil, fmt.Errorf("create enclave %s: %w", app, err)
	}
	if state, err = e.Marshal(); err != nil {
		return nil, err
	}
	bp, err := json.Marshal(e.BootProof)
	if err != nil {
		return nil, err
	}
	if _, err := q.ExecContext(ctx, `INSERT INTO enclaves(app, ephemeral_key, boot_proof, state, created_ns) VALUES (?, ?, ?, ?, ?)`,
		app, e.BootProof.EphemeralPublicKeyHex, string(bp), state, s.now().UnixNano()); err != nil {
		return nil, fmt.Errorf("store enclave %s: %w", app, err)
	}
	return e, nil
}

// EnsureEnclaves creates the simulated enclaves of these apps (if missing) and
// returns the PEM of the demo root their boot proofs chain to.
func (s *Server) EnsureEnclaves(ctx context.Context, apps ...string) ([]byte, error) {
	var rootPEM []byte
	err := s.db.inTx(ctx, func(tx *txn) error {
		for _, app := range apps {
			if _, err := s.enclave(ctx, tx, app); err != nil {
				return err
			}
		}
		auth, err := s.demoAuthority(ctx, tx)
		if err != nil {
			return err
		}
		rootPEM = auth.RootPEM()
		return nil
	})
	return rootPEM, err
}

// appProofPayload is what an app proof signs: the activity, its fingerprint,
// the SHA-256 of its result as served, and when it completed.
type appProofPayload struct {
	ActivityID  string `json:"activityId"`
	Type        string `json:"type"`
	Fingerprint string `json:"fingerprint"`
	ResultHash  string `json:"resultHash"`
	TimestampMs string `json:"timestampMs"`
}

func (s *Server) signAppProofs(ctx context.Context, tx *txn, a *activity) error {
	e, err := s.enclave(ctx, tx, AppProofSigner)
	if err != nil {
		return err
	}
	result, err := json.Marshal(a.Result)
	if err != nil {
		return err
	}
	sum := sha256.Sum256(result)
	payload, err := json.Marshal(appProofPayload{ActivityID: a.ID, Type: a.Type, Fingerprint: a.Fingerprint,
		ResultHash: hex.EncodeToString(sum[:]), TimestampMs: strconv.FormatInt(s.now().UnixMilli(), 10)})
	if err != nil {
		return err
	}
	p, err := e.SignAppProof(payload)
	if err != nil {
		return err
	}
	raw, err := json.Marshal(p)
	if err != nil {
		return err
	}
	if _, err = tx.ExecContext(ctx, `INSERT INTO app_proofs(activity_id, proof) VALUES (?, ?)`, a.ID, string(raw)); err != nil {
		return err
	}
	a.Proofs = append(a.Proofs, p)
	return nil
}

func (s *Server) queryGetLatestBootProof(ctx context.Context, c *caller, body api.StrictBody) (any, error) {
	var req api.GetLatestBootProofRequest
	if err := decodeQuery(body, &req); err != nil {
		return nil, err
	}
	if err := requireField("appName", req.AppName); err != nil {
		return nil, err
	}
	return s.bootProof(ctx, `app = ?`, req.AppName, "enclave app "+strconv.Quote(req.AppName))
}

func (s *Server) queryGetBootProof(ctx context.Context, c *caller, body api.StrictBody) (any, error) {
	var req api.GetBootProofRequest
	if err := decodeQuery(body, &req); err != nil {
		return nil, err
	}
	if err := requireField("ephemeralKey", req.EphemeralKey); err != nil {
		return nil, err
	}
	return s.bootProof(ctx, `ephemeral_key = ?`, req.EphemeralKey, "ephemeral key "+strconv.Quote(truncateForMessage(req.EphemeralKey)))
}

func (s *Server) bootProof(ctx context.Context, where, arg, what string) (any, error) {
	var raw string
	err := s.db.read.QueryRowContext(ctx, `SELECT boot_proof FROM enclaves WHERE `+where+` ORDER BY created_ns DESC LIMIT 1`, arg).Scan(&raw)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, notFoundf("BOOT_PROOF_NOT_FOUND", "no boot proof for %s", what)
	}
	if err != nil {
		return nil, err
	}
	var bp api.BootProof
	if err := json.Unmarshal([]byte(raw), &bp); err != nil {
		return nil, fmt.Errorf("stored boot proof: %w", err)
	}
	return api.BootProofResponse{BootProof: bp}, nil
}
