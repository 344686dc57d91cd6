package cli

import (
	"context"
	"crypto/ed25519"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/webhook"
)

// savedKeyExt names the file 'listen --save' writes beside a delivery's
// .body and .headers: a JWKS holding the one public key that verified it.
// The service drops a key from its published set soon after a rotation, so
// without it a saved delivery could never be verified again.
const savedKeyExt = ".jwk"

// saveKeyLocked writes the key that verified d as base+savedKeyExt, synced
// like the delivery's other files. A delivery without a key (never so for
// one VerifyForOrganization accepted) gets no file.
func (l *listener) saveKeyLocked(base string, d *webhook.Delivery) error {
	if len(d.Key) != ed25519.PublicKeySize {
		return nil
	}
	var b strings.Builder
	if err := api.EncodeJSON(&b, api.JWKS{Keys: []api.JWK{webhook.PublicJWK(d.KeyID, d.Key)}}); err != nil {
		return fmt.Errorf("save the verifying key of %s: %w", d.EventID, err)
	}
	if err := createExclusive(base+savedKeyExt, []byte(b.String()), l.syncFile); err != nil {
		return fmt.Errorf("save the verifying key of %s: %w", d.EventID, err)
	}
	return nil
}

// verifySavedDelivery verifies a delivery whose key id the published set no
// longer holds with the key 'listen --save' kept beside its body (bodyPath
// NAME.body, the key NAME.jwk), which the service published when the
// delivery was accepted. It returns the key file used, or "" when there is
// none (then the caller keeps the first error, with a hint).
func verifySavedDelivery(ctx context.Context, bodyPath, org string, h http.Header, body []byte, now time.Time, maxAge time.Duration) (*webhook.Delivery, string, error) {
	base, ok := strings.CutSuffix(bodyPath, ".body")
	if !ok {
		return nil, "", nil
	}
	keyFile := base + savedKeyExt
	if _, err := os.Stat(keyFile); errors.Is(err, fs.ErrNotExist) {
		return nil, "", nil
	}
	keys, err := jwksSource(keyFile)
	if err != nil {
		return nil, keyFile, err
	}
	d, err := webhook.VerifyForOrganization(ctx, org, h, body, keys, now, maxAge)
	return d, keyFile, err
}
