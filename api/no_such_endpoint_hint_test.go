package api

import (
	"context"
	"net/http"
	"strings"
	"testing"
)

// base_url with a wrong path (e.g. the auth proxy's address, or an extra
// prefix): the service answers 404 "no such endpoint", and vigil appends
// "check the id and the organization of the profile" — the request named no
// id, and the fix is base_url.
func TestNoSuchEndpointHintNamesBaseURL(t *testing.T) {
	s := newTestService(t, func(_ int, _ recorded, w http.ResponseWriter) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusNotFound)
		w.Write([]byte(`{"code":5,"message":"no such endpoint: POST /foo/public/v1/query/list_activities","details":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"NOT_FOUND"}]}`))
	})
	_, err := s.client(t).ListActivities(context.Background(), ListActivitiesOptions{})
	t.Logf("err: %v", err)
	if err == nil || strings.Contains(err.Error(), "check the id") || !strings.Contains(err.Error(), "base_url") {
		t.Errorf("err = %v, want a hint to check base_url, not the id", err)
	}
}

// A 404 that is not the service's error shape (another server, or a gateway
// routing the path nowhere) is about the URL too.
func TestForeign404HintNamesBaseURL(t *testing.T) {
	s := newTestService(t, func(_ int, _ recorded, w http.ResponseWriter) {
		http.NotFound(w, nil)
	})
	_, err := s.client(t).ListActivities(context.Background(), ListActivitiesOptions{})
	if err == nil || strings.Contains(err.Error(), "check the id") || !strings.Contains(err.Error(), "base_url") {
		t.Errorf("err = %v, want a hint to check base_url, not the id", err)
	}
}
