// Command vigil is a terminal admin console for organizations on the
// activity/query service, and a local implementation of that service.
package main

import (
	"os"

	"github.com/vigil-console/vigil/cli"
)

func main() { os.Exit(cli.Main(os.Args[1:])) }
