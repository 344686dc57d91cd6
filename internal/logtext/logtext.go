// Package logtext makes log records safe to write where an operator reads
// them: a terminal or a log file. The local service logs what clients and
// webhook receivers sent (an unknown id, a path, a receiver's malformed
// reply); slog's text handler quotes control characters but leaves
// invisible ones (Hangul fillers, variation selectors) as they are and
// bounds nothing, so one request could write megabytes or a value that
// looks like another.
package logtext

import (
	"context"
	"fmt"
	"io"
	"log/slog"

	"github.com/vigil-console/vigil/api"
)

// MaxValueBytes bounds, in bytes of what was logged, a record's message and
// each of its values; the rest is cut ("…"). It is far above every message
// and value the service writes of its own, and above the 256 bytes a
// refusal's message quotes of each value it was sent.
const MaxValueBytes = 2048

// Text is s as a log shows it: cut to MaxValueBytes, then every control,
// invisible character and invalid byte escaped by api.Sanitize (the one
// sanitizer for untrusted text), newlines included, so that a record stays
// one line.
func Text(s string) string { return api.Sanitize(api.ClipBytes(s, MaxValueBytes)) }

// NewText is a logger writing slog's text format to w, every string it
// carries passed through Text.
func NewText(w io.Writer, opts *slog.HandlerOptions) *slog.Logger {
	return slog.New(Wrap(slog.NewTextHandler(w, opts)))
}

// Wrap returns next with every record's message and values passed through
// Text. A handler already wrapped is returned as it is.
func Wrap(next slog.Handler) slog.Handler {
	if h, ok := next.(handler); ok {
		return h
	}
	return handler{next: next}
}

type handler struct{ next slog.Handler }

func (h handler) Enabled(ctx context.Context, l slog.Level) bool { return h.next.Enabled(ctx, l) }

func (h handler) Handle(ctx context.Context, r slog.Record) error {
	out := slog.NewRecord(r.Time, r.Level, Text(r.Message), r.PC)
	r.Attrs(func(a slog.Attr) bool {
		out.AddAttrs(cleanAttr(a))
		return true
	})
	return h.next.Handle(ctx, out)
}

func (h handler) WithAttrs(attrs []slog.Attr) slog.Handler {
	return handler{next: h.next.WithAttrs(cleanAttrs(attrs))}
}

// WithGroup keeps name as it is: group names are the program's own.
func (h handler) WithGroup(name string) slog.Handler { return handler{next: h.next.WithGroup(name)} }

func cleanAttrs(attrs []slog.Attr) []slog.Attr {
	out := make([]slog.Attr, len(attrs))
	for i, a := range attrs {
		out[i] = cleanAttr(a)
	}
	return out
}

// cleanAttr passes a's value through Text: a string, and an error or any
// other value as its text (as the text handler would print it). Numbers,
// times, durations and booleans are the program's and stay as they are.
func cleanAttr(a slog.Attr) slog.Attr {
	v := a.Value.Resolve()
	switch v.Kind() {
	case slog.KindString:
		return slog.String(a.Key, Text(v.String()))
	case slog.KindGroup:
		return slog.Attr{Key: a.Key, Value: slog.GroupValue(cleanAttrs(v.Group())...)}
	case slog.KindAny:
		if err, ok := v.Any().(error); ok {
			return slog.String(a.Key, Text(err.Error()))
		}
		return slog.String(a.Key, Text(fmt.Sprintf("%+v", v.Any())))
	}
	return slog.Attr{Key: a.Key, Value: v}
}
