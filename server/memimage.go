package server

import (
	"context"
	"database/sql"
	"fmt"
)

// SchemaImage is an in-memory database migrated to the current schema, with
// nothing in it, as bytes for Config.MemoryImage. Tests open hundreds of
// services: migrating each new database costs about half a second of CPU
// under the race detector, restoring this image next to nothing.
func SchemaImage() ([]byte, error) {
	ctx := context.Background()
	db, err := sql.Open("sqlite", fmt.Sprintf("file:vigil-image-%d-%s?mode=memory&_pragma=foreign_keys(ON)", memoryDBs.Add(1), randomHex(4)))
	if err != nil {
		return nil, fmt.Errorf("open in-memory database: %w", err)
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	if err := migrate(ctx, db); err != nil {
		return nil, err
	}
	conn, err := db.Conn(ctx)
	if err != nil {
		return nil, fmt.Errorf("schema image: %w", err)
	}
	defer conn.Close()
	var image []byte
	err = conn.Raw(func(dc any) error {
		s, ok := dc.(interface{ Serialize() ([]byte, error) })
		if !ok {
			return fmt.Errorf("the sqlite driver cannot serialize a database")
		}
		image, err = s.Serialize()
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("schema image: %w", err)
	}
	return image, nil
}

// restoreImage replaces db's one in-memory database with image (SchemaImage).
func restoreImage(ctx context.Context, db *sql.DB, image []byte) error {
	conn, err := db.Conn(ctx)
	if err != nil {
		return fmt.Errorf("restore schema image: %w", err)
	}
	defer conn.Close()
	err = conn.Raw(func(dc any) error {
		d, ok := dc.(interface{ Deserialize([]byte) error })
		if !ok {
			return fmt.Errorf("the sqlite driver cannot deserialize a database")
		}
		return d.Deserialize(image)
	})
	if err != nil {
		return fmt.Errorf("restore schema image: %w", err)
	}
	return nil
}
