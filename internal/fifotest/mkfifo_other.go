//go:build !unix

package fifotest

import "errors"

func mkfifo(string) error { return errors.New("named pipes are a Unix file type") }
