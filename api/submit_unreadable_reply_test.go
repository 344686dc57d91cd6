package api_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/keys"
	"github.com/vigil-console/vigil/server/servertest"
)

// A submit the service accepted (2xx) and recorded, whose reply then cannot
// be read (a proxy's page in its place, or JSON without the activity), is an
// unknown outcome, not a failure: the caller must not act as if nothing was
// recorded, and resending the same request finds the activity.
func TestSubmitWithUnreadableSuccessReplyIsOutcomeUnknown(t *testing.T) {
	for _, tc := range []struct{ name, reply string }{
		{"proxy page", "<html>accepted</html>"},
		{"no activity", `{"activity":{}}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			demo := servertest.StartDemo(t)
			var garble bool
			url := demo.Rewriting(func(op string, request, reply []byte) []byte {
				if garble && strings.HasPrefix(op, "submit/") {
					return []byte(tc.reply)
				}
				return reply
			})
			client := demo.ClientAt(url, "alice")
			tag := "unreadable-" + strings.ReplaceAll(tc.name, " ", "-")
			garble = true
			_, err := client.CreateUserTag(context.Background(), api.CreateUserTagParams{UserTagName: tag, UserIDs: []string{demo.Info.Members[0].UserID}})
			garble = false
			var unknown *api.OutcomeUnknownError
			if !errors.As(err, &unknown) {
				t.Fatalf("err = %v, want an unknown outcome", err)
			}
			if api.NotRecorded(err) {
				t.Errorf("NotRecorded(%v) = true after a 2xx", err)
			}
			if msg := err.Error(); !strings.Contains(msg, "could not be read") {
				t.Errorf("message does not say the reply could not be read: %q", msg)
			}
			wantResubmitGivesTheOneRecorded(t, demo, client, unknown, tag)
		})
	}
}

// NotRecorded holds only when nothing can have been recorded: a request
// never sent, or the service's own refusal.
func TestNotRecordedOnlyForUnsentOrRefused(t *testing.T) {
	demo := servertest.StartDemo(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	params := api.CreateUserTagParams{UserTagName: "t", UserIDs: []string{demo.Info.Members[0].UserID}}
	if _, err := demo.Client("alice").CreateUserTag(ctx, params); !api.NotRecorded(err) {
		t.Errorf("a request never sent (cancelled first): NotRecorded(%v) = false", err)
	}
	if _, err := demo.Client("alice").CreateUserTag(context.Background(), api.CreateUserTagParams{}); !api.NotRecorded(err) {
		t.Errorf("invalid parameters, never sent: NotRecorded(%v) = false", err)
	}
	stranger, err := keys.ParsePrivateHex(keys.SchemeP256, strings.Repeat("11", 32)) // no user's API key
	if err != nil {
		t.Fatal(err)
	}
	refused, err := api.NewClient(demo.URL, demo.Client("alice").OrganizationID(), stranger)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := refused.CreateUserTag(context.Background(), params); err == nil || !api.NotRecorded(err) {
		t.Errorf("the service's refusal: NotRecorded(%v) = false", err)
	}
	g := demo.Gateway()
	g.FailSubmits.Store(true)
	if _, err := demo.ClientAt(g.URL, "alice").CreateUserTag(context.Background(), params); api.NotRecorded(err) {
		t.Errorf("a gateway's 503: NotRecorded(%v) = true", err)
	}
}
