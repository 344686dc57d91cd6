package cli

import (
	"bytes"
	"strings"
	"testing"
	"text/tabwriter"
)

// For ASCII text, writeColumns lays tables out byte for byte as the
// text/tabwriter it replaced (padding with spaces, a line's last cell left as
// it is), so the output scripts and the docs' examples rely on is unchanged.
func TestColumnsMatchTabwriterForASCII(t *testing.T) {
	tables := [][][]string{
		{
			{"ID", "NAME", "EMAIL", "TAGS", "API KEYS"},
			{"01a2", "alice", "alice@vigil.demo", "", "1"},
			{"01a2-long-id", "bob", "", "ops,auditors", "12"},
			{"x", "", "", "", ""},
		},
		{{"KID", "ALG", "VERSION", ""}, {"k1", "ES256", "2", "(current)"}},
		{{"  name:", "ci"}, {"  private key file:", "/home/u/.config/vigil/keys/ci"}},
	}
	for _, lines := range tables {
		for _, gap := range []int{1, 2} {
			var want bytes.Buffer
			tw := tabwriter.NewWriter(&want, 0, 4, gap, ' ', 0)
			for _, l := range lines {
				tw.Write([]byte(strings.Join(l, "\t") + "\n"))
			}
			tw.Flush()
			var got bytes.Buffer
			if err := writeColumns(&got, gap, lines); err != nil {
				t.Fatal(err)
			}
			if got.String() != want.String() {
				t.Errorf("gap %d:\n got %q\nwant %q", gap, got.String(), want.String())
			}
		}
	}
}
