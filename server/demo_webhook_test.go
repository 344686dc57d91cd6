package server

import (
	"context"
	"strings"
	"testing"
)

// The demo's webhook takes the rule every webhook URL takes (absolute http or
// https), and only a data directory seeded with the demo has one to point.
func TestPointDemoWebhookRefusesWhatItCannotPoint(t *testing.T) {
	srv, err := Open(Config{})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	ctx := context.Background()
	for _, bad := range []string{"", "ftp://127.0.0.1:1/", "127.0.0.1:1", "http:///path"} {
		if _, err := PointDemoWebhook(ctx, srv, bad); err == nil || !strings.Contains(err.Error(), "http(s)") {
			t.Errorf("PointDemoWebhook(%q): %v; want the http(s) URL rule", bad, err)
		}
	}
	if _, err := PointDemoWebhook(ctx, srv, "http://127.0.0.1:1/"); err == nil || !strings.Contains(err.Error(), "no demo organization") {
		t.Errorf("PointDemoWebhook without a demo: %v", err)
	}
}
