//go:build !unix

package cli

import "net"

// portFree is not checked ahead here: listening would accept connections
// before the demo's config is written. A taken port is reported when the
// service listens.
func portFree(*net.TCPAddr) error { return nil }
