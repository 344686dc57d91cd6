package server

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/vigil-console/vigil/api"
)

// A login kit signs users in to the organization wallet_kit_config names: a
// stored configuration whose JSON names another organization (or none) is
// served with the organization it belongs to, so it can never point a
// browser at someone else's organization.
func TestWalletKitConfigNamesTheOrganizationItBelongsTo(t *testing.T) {
	e := newEnv(t)
	ctx := ctxT(t)
	info, err := SeedDemo(ctx, e.srv, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if info.OrganizationID == e.org.ID {
		t.Fatal("the demo organization is the test's organization; the test needs two")
	}
	proxy := httpServer(t, e.srv.AuthProxyHandler())
	c, err := api.NewClient(e.http.URL, info.OrganizationID, nil, api.WithAuthProxy(proxy, info.AuthProxyConfigID))
	if err != nil {
		t.Fatal(err)
	}
	for _, stored := range []any{e.org.ID, nil} { // another organization; none
		setStoredConfigOrg(t, e, info.AuthProxyConfigID, stored)
		cfg, err := c.WalletKitConfig(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if cfg.OrganizationID != info.OrganizationID {
			t.Errorf("stored organizationId %v: served %q, want the configuration's own organization %s", stored, cfg.OrganizationID, info.OrganizationID)
		}
	}
}

// setStoredConfigOrg rewrites the stored configuration's organizationId
// (removes it when org is nil), as a hand-edited or corrupted store would.
func setStoredConfigOrg(t *testing.T, e *testEnv, id string, org any) {
	t.Helper()
	err := e.srv.db.inTx(context.Background(), func(tx *txn) error {
		var raw string
		if err := tx.QueryRowContext(context.Background(), `SELECT config FROM auth_proxy_configs WHERE id = ?`, id).Scan(&raw); err != nil {
			return err
		}
		m := map[string]any{}
		if err := json.Unmarshal([]byte(raw), &m); err != nil {
			return err
		}
		if org == nil {
			delete(m, "organizationId")
		} else {
			m["organizationId"] = org
		}
		b, err := json.Marshal(m)
		if err != nil {
			return err
		}
		_, err = tx.ExecContext(context.Background(), `UPDATE auth_proxy_configs SET config = ? WHERE id = ?`, string(b), id)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}
