package webhook_test

import (
	"errors"
	"io"
	"log"
	"net/http"
	"time"

	"github.com/vigil-console/vigil/webhook"
)

// A receiver: verify every delivery before trusting it, for its own
// organization (the service signs every organization's deliveries with the
// same keys), answer 503 when the key cannot be found yet (the service
// retries), 503 too when its timestamp is outside the window (the clocks
// disagree: the service retries, re-signed, once the clock is fixed), 401
// when the delivery is not genuine or not its own, and drop
// duplicates by event id.
func Example_receiver() {
	const myOrganization = "0b7f7d5a-2a4e-4a51-9a50-5c6f1f6f2f3e" // the profile's organization_id
	keys := webhook.NewJWKSCache(
		"https://api.example.com/public/v1/discovery/webhooks/jwks",
		&http.Client{Timeout: 10 * time.Second}, nil)

	http.HandleFunc("POST /hooks/vigil", func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, webhook.MaxBodyBytes))
		if err != nil {
			http.Error(w, "body too large", http.StatusRequestEntityTooLarge)
			return
		}
		d, err := webhook.VerifyForOrganization(r.Context(), myOrganization, r.Header, body, keys, time.Now(), webhook.DefaultMaxAge)
		switch {
		case errors.Is(err, webhook.ErrUnknownKey), errors.Is(err, webhook.ErrJWKSUnavailable):
			http.Error(w, "verification key not available yet", http.StatusServiceUnavailable)
			return
		case errors.Is(err, webhook.ErrStale):
			// Genuine (or unchecked), outside the time window: the clocks
			// disagree. Retried, re-signed, by the service; fix the clock.
			log.Printf("webhook outside the time window, check this machine's clock: %v", err)
			http.Error(w, "timestamp outside the window: check the receiver's clock", http.StatusServiceUnavailable)
			return
		case err != nil: // ErrMalformed, ErrBadSignature, ErrOtherOrganization
			log.Printf("rejected webhook: %v", err)
			http.Error(w, "invalid signature", http.StatusUnauthorized)
			return
		}
		// d.EventID is stable across retries: skip it if already handled.
		log.Printf("activity update %s for organization %s", d.EventID, d.OrganizationID)
		w.WriteHeader(http.StatusNoContent)
	})
}
