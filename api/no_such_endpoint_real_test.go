package api_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/server/servertest"
)

// Against the local service: a base_url with a path reaches no endpoint, and
// the advice is base_url; a record that is not there still gets the advice
// to check the id.
func TestWrongBaseURLPathHintsBaseURLNotTheID(t *testing.T) {
	demo := servertest.StartDemo(t)
	ctx := context.Background()

	_, err := demo.ClientAt(demo.URL+"/foo", "alice").ListActivities(ctx, api.ListActivitiesOptions{})
	if !errors.Is(err, api.ErrNotFound) || strings.Contains(err.Error(), "check the id") || !strings.Contains(err.Error(), "check the profile's base_url") {
		t.Errorf("base_url with a path: %v; want a hint at base_url, not at the id", err)
	}

	_, err = demo.Client("alice").GetActivity(ctx, "00000000-0000-4000-8000-000000000000")
	if !errors.Is(err, api.ErrNotFound) || !strings.Contains(err.Error(), "check the id") || strings.Contains(err.Error(), "base_url") {
		t.Errorf("an activity that does not exist: %v; want the hint to check the id", err)
	}
}
