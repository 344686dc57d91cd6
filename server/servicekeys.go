package server

import (
	"context"
	"crypto/ecdh"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"fmt"
)

// serviceKeys are the service's own long-lived keys, kept in the store so they
// survive restarts: the TLS fetcher's encryption key (update_oauth2_credential)
// and the local OIDC issuer's signing key (oauth).
type serviceKeys struct {
	tlsFetcher *ecdh.PrivateKey
	oidcIssuer *ecdsa.PrivateKey
}

const (
	stateTLSFetcherKey = "tls_fetcher_key"
	stateOIDCIssuerKey = "oidc_issuer_key"
)

func loadServiceKeys(ctx context.Context, db *store) (*serviceKeys, error) {
	k := &serviceKeys{}
	err := db.inTx(ctx, func(tx *txn) error {
		raw, ok, err := getState(ctx, tx, stateTLSFetcherKey)
		if err != nil {
			return err
		}
		if !ok {
			key, err := ecdh.P256().GenerateKey(rand.Reader)
			if err != nil {
				return fmt.Errorf("generate TLS fetcher key: %w", err)
			}
			raw = key.Bytes()
			if err := putState(ctx, tx, stateTLSFetcherKey, raw); err != nil {
				return err
			}
		}
		if k.tlsFetcher, err = ecdh.P256().NewPrivateKey(raw); err != nil {
			return fmt.Errorf("stored TLS fetcher key is damaged: %w", err)
		}
		raw, ok, err = getState(ctx, tx, stateOIDCIssuerKey)
		if err != nil {
			return err
		}
		if !ok {
			key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
			if err != nil {
				return fmt.Errorf("generate OIDC issuer key: %w", err)
			}
			if raw, err = x509.MarshalECPrivateKey(key); err != nil {
				return fmt.Errorf("encode OIDC issuer key: %w", err)
			}
			if err := putState(ctx, tx, stateOIDCIssuerKey, raw); err != nil {
				return err
			}
		}
		if k.oidcIssuer, err = x509.ParseECPrivateKey(raw); err != nil {
			return fmt.Errorf("stored OIDC issuer key is damaged: %w", err)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return k, nil
}
