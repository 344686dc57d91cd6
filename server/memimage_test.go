package server

import (
	"context"
	"slices"
	"testing"
	"time"
)

// A service opened from SchemaImage has the schema, and the schema version, of
// one whose database was migrated anew: tests that start from the image test
// the same service.
func TestSchemaImageIsTheMigratedSchema(t *testing.T) {
	ctx := context.Background()
	schema := func(image []byte) []string {
		t.Helper()
		s, err := openStore(ctx, "", image, nil, time.Now)
		if err != nil {
			t.Fatal(err)
		}
		defer s.close()
		rows, err := s.readDB.QueryContext(ctx, `SELECT type || ' ' || name || ': ' || COALESCE(sql, '') FROM sqlite_schema
			UNION ALL SELECT 'version ' || MAX(version) FROM schema_migrations`)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		var out []string
		for rows.Next() {
			var line string
			if err := rows.Scan(&line); err != nil {
				t.Fatal(err)
			}
			out = append(out, line)
		}
		if err := rows.Err(); err != nil {
			t.Fatal(err)
		}
		slices.Sort(out)
		return out
	}
	migrated, restored := schema(nil), schema(testImage(t))
	if len(migrated) < len(migrations) || !slices.Equal(migrated, restored) {
		t.Fatalf("from the image:\n%q\nmigrated anew:\n%q", restored, migrated)
	}
}
