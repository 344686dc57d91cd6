package api

// WithMaxReplyBytesBelowTheLeast is WithMaxReplyBytes without its floor of
// MinReplyBytes. The list tests use it to show, with activities a fraction of
// the largest under a bound the same fraction of MinReplyBytes, what the
// largest do at MinReplyBytes: the client halves, remembers and grows pages
// by comparing a reply with its bound, never with MinReplyBytes, so only the
// proportions matter, and the race detector makes every byte costly.
func WithMaxReplyBytesBelowTheLeast(n int64) Option {
	return func(c *Client) error {
		c.maxReply = n
		return nil
	}
}

// WithMaxListReplyBytesBelowTheLeast is WithMaxListReplyBytes without its
// floor of MinReplyBytes, for the same reason: a list is refused by
// comparing it with its bound, so a fraction of the users under the same
// fraction of the bound shows the same.
func WithMaxListReplyBytesBelowTheLeast(n int64, setting string) Option {
	return func(c *Client) error {
		c.maxListReply, c.listReplySetting = n, setting
		return nil
	}
}
