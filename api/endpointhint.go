package api

import (
	"fmt"
	"net/http"
	"strings"
)

// noSuchEndpoint reports a 404 about the URL rather than about a record: the
// service says it has no such endpoint (base_url with a path, or the auth
// proxy's address), or the reply is not the service's error at all (another
// server, or a gateway routing the path nowhere). No id is involved then.
// A body read two ways is neither: what it says is not known.
func (e *Error) noSuchEndpoint() bool {
	if e.StatusCode != http.StatusNotFound || e.twoWays {
		return false
	}
	return !e.fromService || strings.HasPrefix(e.Message, "no such endpoint")
}

// urlHint names the setting the request's URL came from.
func (e *Error) urlHint() string {
	setting := e.setting
	if setting == "" {
		setting = "base_url"
	}
	return fmt.Sprintf("the URL reached no operation of the service: check the profile's %s: it should be a root address, with no path", setting)
}
