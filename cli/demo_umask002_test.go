package cli

import (
	"os"
	"path/filepath"
	"testing"
)

// A --data directory made by the user with umask 002 (the default for users
// on Debian/Ubuntu, user private groups): 'vigil serve --demo --data DIR'
// prints "vigil --config DIR/config.toml --profile alice" and that config must
// load. Since 8635252 the directory's group-write bit refuses it.
func TestDemoConfigInAUmask002DirectoryLoads(t *testing.T) {
	data := filepath.Join(t.TempDir(), "demo")
	if err := os.Mkdir(data, 0o775); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(data, 0o775); err != nil { // as umask 002 leaves it
		t.Fatal(err)
	}
	if _, _, err := prepareDemoIn(t, data, "http://127.0.0.1:1"); err != nil {
		t.Fatalf("demo start: %v", err)
	}
	if _, err := loadConfig(filepath.Join(data, "config.toml")); err != nil {
		t.Fatalf("the config the demo just wrote and told the user to use is refused: %v", err)
	}
}
