package api_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strconv"
	"testing"
	"time"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/keys"
)

// A reply whose header claims 250 MB, followed by one byte and a closed
// connection: what the client allocates follows what arrived, not what the
// header claims (a stalling or hostile server would otherwise cost 256 MiB
// per list request, and the console sends several at once).
func TestAClaimedReplyLengthDoesNotDecideWhatIsAllocated(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		conn, buf, err := w.(http.Hijacker).Hijack()
		if err != nil {
			return
		}
		buf.WriteString("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 250000000\r\n\r\n{")
		buf.Flush()
		conn.(*net.TCPConn).Close()
	}))
	defer srv.Close()
	k, err := keys.Generate(keys.SchemeP256)
	if err != nil {
		t.Fatal(err)
	}
	c, err := api.NewClient(srv.URL, "org", k, api.WithRetryPolicy(0, time.Millisecond, time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err = c.ListUsers(context.Background())
	runtime.ReadMemStats(&after)
	if err == nil {
		t.Fatal("a 1-byte reply claiming 250 MB was read as a list")
	}
	if got := after.TotalAlloc - before.TotalAlloc; got > 16<<20 {
		t.Errorf("a 1-byte reply claiming 250 MB made the client allocate %d MB", got>>20)
	}
}

// An honest reply that says its length, larger than the first piece read,
// is read whole.
func TestAReplyThatSaysItsLengthIsReadWhole(t *testing.T) {
	var users []map[string]any
	for i := range 3000 {
		users = append(users, map[string]any{"userId": fmt.Sprintf("u-%05d", i), "userName": fmt.Sprintf("user-%05d", i),
			"apiKeys": []any{}, "authenticators": []any{}, "userTags": []any{},
			"createdAt": map[string]string{"seconds": "1", "nanos": "0"}, "updatedAt": map[string]string{"seconds": "1", "nanos": "0"}})
	}
	body, err := json.Marshal(map[string]any{"users": users})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Content-Length", strconv.Itoa(len(body)))
		w.Write(body)
	}))
	defer srv.Close()
	k, err := keys.Generate(keys.SchemeP256)
	if err != nil {
		t.Fatal(err)
	}
	c, err := api.NewClient(srv.URL, "org", k)
	if err != nil {
		t.Fatal(err)
	}
	got, err := c.ListUsers(context.Background())
	if err != nil || len(got) != len(users) || got[len(got)-1].UserName != "user-02999" {
		t.Fatalf("a %d-byte reply with its length: %d users, %v", len(body), len(got), err)
	}
}
