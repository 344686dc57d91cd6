package api_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/server/servertest"
)

// A submit answered with a gateway's 503 may have been recorded: the client
// says the outcome is unknown, and resending the same request gives the
// activity the first attempt created, not a second one.
func TestResubmitAfterGateway503GivesTheSameActivity(t *testing.T) {
	demo := servertest.StartDemo(t)
	g := demo.Gateway()
	client := demo.ClientAt(g.URL, "alice")
	ctx := context.Background()
	g.FailSubmits.Store(true)
	params := api.CreateUserTagParams{UserTagName: "resubmit-probe", UserIDs: []string{demo.Info.Members[0].UserID}}
	_, err := client.CreateUserTag(ctx, params)
	var unknown *api.OutcomeUnknownError
	if !errors.As(err, &unknown) || !errors.Is(err, api.ErrOutcomeUnknown) {
		t.Fatalf("err = %v, want an unknown outcome", err)
	}
	var apiErr *api.Error
	if !errors.As(err, &apiErr) || apiErr.StatusCode != http.StatusServiceUnavailable {
		t.Errorf("the 503 is not reachable in %v", err)
	}
	if msg := err.Error(); !strings.Contains(msg, "whether the service recorded it") || strings.Contains(msg, "try again later") {
		t.Errorf("message = %q", msg)
	}
	recorded := listTagActivities(t, demo.Client("bob"), "resubmit-probe")
	if len(recorded) != 1 {
		t.Fatalf("the service recorded %d activities, want 1 (the 503 came after it)", len(recorded))
	}

	g.FailSubmits.Store(false)
	act, err := client.Resubmit(ctx, unknown)
	if err != nil {
		t.Fatal(err)
	}
	if act.ID != recorded[0] {
		t.Errorf("resubmit gave activity %s, the first attempt created %s", act.ID, recorded[0])
	}
	if after := listTagActivities(t, demo.Client("bob"), "resubmit-probe"); len(after) != 1 {
		t.Errorf("%d activities after the resubmit, want still 1", len(after))
	}

	// Another client's request is not resent through this one.
	down := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusBadGateway)
	}))
	defer down.Close()
	lost := demo.ClientAt(down.URL, "alice")
	_, err = lost.CreateUserTag(ctx, api.CreateUserTagParams{UserTagName: "never-arrived", UserIDs: params.UserIDs})
	if !errors.As(err, &unknown) {
		t.Fatalf("err = %v, want an unknown outcome", err)
	}
	if _, err := client.Resubmit(ctx, unknown); err == nil || !strings.Contains(err.Error(), "not a submit of this client") {
		t.Errorf("another client's request was resent: %v", err)
	}
}

func listTagActivities(t *testing.T, c *api.Client, name string) []string {
	t.Helper()
	acts, err := c.ListActivities(context.Background(), api.ListActivitiesOptions{Types: []string{"ACTIVITY_TYPE_CREATE_USER_TAG"}})
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, a := range acts {
		if in := a.Intent.CreateUserTagIntent; in != nil && in.UserTagName == name {
			ids = append(ids, a.ID)
		}
	}
	return ids
}

// wantResubmitGivesTheOneRecorded checks that the service recorded one
// activity of the tag named tag, whose submit's outcome was unknown, and
// that resending it gives that activity back rather than a second one.
func wantResubmitGivesTheOneRecorded(t *testing.T, demo *servertest.Demo, client *api.Client, unknown *api.OutcomeUnknownError, tag string) {
	t.Helper()
	recorded := listTagActivities(t, demo.Client("bob"), tag)
	if len(recorded) != 1 {
		t.Fatalf("the service recorded %d activities, want 1", len(recorded))
	}
	act, err := client.Resubmit(context.Background(), unknown)
	if err != nil || act.ID != recorded[0] {
		t.Errorf("resubmit = %+v, %v; want activity %s", act, err, recorded[0])
	}
}

// A refusal is a known outcome: nothing to resend.
func TestSubmitRefusedIsNotOutcomeUnknown(t *testing.T) {
	demo := servertest.StartDemo(t)
	_, err := demo.Client("alice").ApproveActivity(context.Background(), "sha256:"+strings.Repeat("0", 64))
	if err == nil || errors.Is(err, api.ErrOutcomeUnknown) {
		t.Errorf("err = %v, want a plain refusal", err)
	}
}
