package webhook_test

import (
	"errors"
	"io"
	"log"
	"net/http"
	"time"

	"github.com/vigil-console/vigil/webhook"
)

// A receiver: verify every delivery before trusting it, answer 503 when the
// key cannot be found yet (the service retries), 401 when the delivery is not
// genuine, and drop duplicates by event id.
func Example_receiver() {
	keys := webhook.NewJWKSCache(
		"https://api.example.com/public/v1/discovery/webhooks/jwks",
		&http.Client{Timeout: 10 * time.Second}, nil)

	http.HandleFunc("POST /hooks/vigil", func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, 1<<20))
		if err != nil {
			http.Error(w, "body too large", http.StatusRequestEntityTooLarge)
			return
		}
		d, err := webhook.VerifyContext(r.Context(), r.Header, body, keys, time.Now(), webhook.DefaultMaxAge)
		switch {
		case errors.Is(err, webhook.ErrUnknownKey), errors.Is(err, webhook.ErrJWKSUnavailable):
			http.Error(w, "verification key not available yet", http.StatusServiceUnavailable)
			return
		case err != nil:
			log.Printf("rejected webhook: %v", err)
			http.Error(w, "invalid signature", http.StatusUnauthorized)
			return
		}
		// d.EventID is stable across retries: skip it if already handled.
		log.Printf("activity update %s for organization %s", d.EventID, d.OrganizationID)
		w.WriteHeader(http.StatusNoContent)
	})
}
