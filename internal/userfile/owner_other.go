//go:build !unix

package userfile

import "io/fs"

// owner is unknown outside Unix: files there have no uid to compare.
func owner(fs.FileInfo) (int, bool) { return 0, false }

// group is unknown outside Unix.
func group(fs.FileInfo) (int, bool) { return 0, false }

// links is unknown outside Unix.
func links(fs.FileInfo) (uint64, bool) { return 0, false }
