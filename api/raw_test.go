package api

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
)

func TestSendStampsExactBytesAndReturnsAnyStatus(t *testing.T) {
	reply := `{"code":5,"message":"no such activity \u202e"}`
	s := newTestService(t, func(_ int, _ recorded, w http.ResponseWriter) { writeJSON(w, 404, reply) })
	body := []byte("{ \"organizationId\" : \"org\",\n  \"activityId\":\"x\" }\n")
	r, err := s.client(t).Send(context.Background(), "/public/v1/query/get_activity", body)
	if err != nil {
		t.Fatal(err)
	}
	if r.Status != 404 || string(r.Body) != reply {
		t.Errorf("reply %d %q, want 404 and the body as sent", r.Status, r.Body)
	}
	reqs := s.requests()
	if len(reqs) != 1 || string(reqs[0].Body) != string(body) || reqs[0].Path != "/public/v1/query/get_activity" {
		t.Fatalf("requests %+v", reqs)
	}
	s.checkStamp(t, reqs[0])
}

func TestSendRetriesQueriesButNotSubmits(t *testing.T) {
	s := newTestService(t, func(n int, _ recorded, w http.ResponseWriter) {
		if n < 2 {
			writeJSON(w, 503, `{"code":14,"message":"busy"}`)
			return
		}
		writeJSON(w, 200, `{}`)
	})
	r, err := s.client(t).Send(context.Background(), "/public/v1/query/whoami", []byte(`{}`))
	if err != nil || r.Status != 200 || len(s.requests()) != 3 {
		t.Errorf("query: %+v %v after %d requests, want 200 after 3", r, err, len(s.requests()))
	}

	s = newTestService(t, func(_ int, _ recorded, w http.ResponseWriter) { writeJSON(w, 503, `{"code":14,"message":"busy"}`) })
	r, err = s.client(t).Send(context.Background(), "/public/v1/submit/create_read_only_session", []byte(`{}`))
	if err != nil || r.Status != 503 || len(s.requests()) != 1 {
		t.Errorf("submit: %+v %v after %d requests, want the 503 after 1", r, err, len(s.requests()))
	}
}

func TestSendRefusesOtherPathsWithoutARequest(t *testing.T) {
	s := newTestService(t, func(_ int, _ recorded, w http.ResponseWriter) { writeJSON(w, 200, `{}`) })
	for _, p := range []string{"", "/v1/wallet_kit_config", "https://evil.example/public/v1/query/whoami", "/public/v1/query/whoami?x=1",
		"/public/v1/query/../submit/create_user_tag", "/public/v1/query/%2E%2E/submit/create_user_tag", "/public/v1/submit/", "/public/v1/query/who/ami"} {
		if _, err := s.client(t).Send(context.Background(), p, []byte(`{}`)); err == nil || !strings.Contains(err.Error(), "path") {
			t.Errorf("%q: %v", p, err)
		}
	}
	if n := len(s.requests()); n != 0 {
		t.Errorf("%d requests sent", n)
	}
}

func TestRawRepliesAreUnsanitised(t *testing.T) {
	const users = `{"users":[{"userId":"u-1","userName":"a\u202eb` + "\u0085" + `"}]}`
	s := newTestService(t, func(_ int, _ recorded, w http.ResponseWriter) { writeJSON(w, 200, users) })
	raw, err := s.client(t).QueryRaw(context.Background(), QueryListUsers, ListUsersRequest{OrganizationID: testOrg})
	if err != nil || string(raw) != users {
		t.Errorf("QueryRaw = %s, %v; want the reply byte for byte", raw, err)
	}
	// The typed call over the same reply sanitises.
	list, err := s.client(t).ListUsers(context.Background())
	if err != nil || strings.ContainsAny(list[0].UserName, "\u202e\u0085") {
		t.Errorf("ListUsers = %q, %v", list[0].UserName, err)
	}

	s = newTestService(t, func(_ int, _ recorded, w http.ResponseWriter) { writeJSON(w, 403, `{"code":7,"message":"no"}`) })
	_, err = s.client(t).QueryRaw(context.Background(), QueryListUsers, ListUsersRequest{OrganizationID: testOrg})
	var apiErr *Error
	if !errors.As(err, &apiErr) || apiErr.StatusCode != 403 {
		t.Errorf("QueryRaw on 403: %v", err)
	}
}
