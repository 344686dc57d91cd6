package api

import (
	"encoding/json"
	"errors"
	"fmt"
)

// unexpectedJSON is the error of a 2xx reply to op that does not decode as
// expected. The decoder's text may quote the reply (encoding/json quotes a
// number literal whole, up to MaxReplyBytes), so it is cut to the excerpt
// bound of other error bodies and says so: a hostile service must not fill a
// terminal line, the status bar or the messages log.
func unexpectedJSON(op string, err error) error {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) && te.Value != "" {
		short := *te // keep the field it names, not the whole literal
		short.Value = ClipBytes(te.Value, 64)
		err = &short
	}
	text := err.Error()
	if cut := truncateRunes(text, errorExcerptRunes); cut != text {
		text = cut + " (shortened)"
	}
	return fmt.Errorf("%s: the reply is not the expected JSON (%s); the server may not be this service", op, Sanitize(text))
}
