package api_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/server/servertest"
)

// BenchmarkListUsersLarge measures the client's memory decoding one
// list_users reply of ordinary users (4 API keys, 3 passkeys, 3 tags each,
// as the local service writes them): 5,000 users, and as many as fill the
// default bound of list replies. The reply is served as built, so the
// allocations are the client's. Figures: docs/performance.md.
func BenchmarkListUsersLarge(b *testing.B) {
	demo := servertest.StartDemo(b)
	demo.AddOrdinaryUsers(1)
	one, err := demo.Client("alice").QueryRaw(context.Background(), api.QueryListUsers, api.ListUsersRequest{OrganizationID: demo.Info.OrganizationID})
	if err != nil {
		b.Fatal(err)
	}
	var sample struct{ Users []json.RawMessage }
	if err := json.Unmarshal(one, &sample); err != nil {
		b.Fatal(err)
	}
	record := sample.Users[len(sample.Users)-1] // user-00000, the ordinary one
	for _, size := range []struct {
		name  string
		users int
	}{
		{"5000users", 5000},
		{"defaultBound", api.DefaultMaxListReplyBytes/(len(record)+1+len("00000000-")) - 1},
	} {
		b.Run(size.name, func(b *testing.B) {
			body := listUsersBody(record, size.users)
			ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
				w.Header().Set("Content-Length", strconv.Itoa(len(body)))
				w.Write(body)
			}))
			defer ts.Close()
			client := demo.ClientAt(ts.URL, "alice")
			b.SetBytes(int64(len(body)))
			b.ReportAllocs()
			for b.Loop() {
				users, err := client.ListUsers(context.Background())
				if err != nil || len(users) != size.users {
					b.Fatalf("%d users, %v", len(users), err)
				}
			}
		})
	}
}

// listUsersBody is a list_users reply of n copies of record, each with its
// own user id.
func listUsersBody(record json.RawMessage, n int) []byte {
	var buf bytes.Buffer
	buf.WriteString(`{"users":[`)
	for i := range n {
		if i > 0 {
			buf.WriteByte(',')
		}
		buf.WriteString(strings.Replace(string(record), `"userId":"`, fmt.Sprintf(`"userId":"%08d-`, i), 1))
	}
	buf.WriteString(`]}`)
	return buf.Bytes()
}
