package cli

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/vigil-console/vigil/webhook"
)

// Receivers skip a kid listed twice with different keys (it is ambiguous):
// `vigil webhook keys` must mark both of its rows, and only rows a receiver
// really skips, so that the table agrees with what JWKSCache verifies with.
func TestWebhookKeysMarksADuplicatedKid(t *testing.T) {
	good, _ := webhook.NewKeyRing()
	a, _ := webhook.NewKeyRing()
	b, _ := webhook.NewKeyRing()
	set := good.JWKS()
	for _, r := range []*webhook.KeyRing{a, b} {
		k := r.JWKS().Keys[0]
		k.Kid = "twice"
		set.Keys = append(set.Keys, k)
	}
	body, err := json.Marshal(set)
	if err != nil {
		t.Fatal(err)
	}
	url, out := webhookKeysOf(t, servedJWKS(body))
	cache := webhook.NewJWKSCache(url, nil, time.Now)
	for _, kid := range []string{good.ActiveKeyID(), "twice"} {
		_, err := cache.Key(context.Background(), kid)
		rows := 0
		for l := range strings.SplitSeq(out, "\n") {
			if !strings.HasPrefix(l, kid+" ") {
				continue
			}
			rows++
			if marked := strings.Contains(l, "skip"); marked != (err != nil) {
				t.Errorf("kid %s: row marked %v, but a receiver verifying with it gets error %v:\n%s", kid, marked, err, out)
			}
		}
		if want := strings.Count(string(body), `"kid":"`+kid+`"`); rows != want {
			t.Errorf("kid %s: %d rows, want %d:\n%s", kid, rows, want, out)
		}
	}
}
