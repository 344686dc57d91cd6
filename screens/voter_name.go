package screens

import "github.com/vigil-console/vigil/api"

// Voters are named by their vote's userId from the organization's user
// list the console holds (api.CasterOf): a vote's own "user" object is the
// service's label, which no signature covers, and a reply may call
// alice's vote bob's. The vote's own name is shown only for an id the
// list lacks, marked as the vote's word.

// voterOf is v's voter in the console's user list (Org.Users, or the
// names loaded from it).
func voterOf(c *Common, v *api.Vote) api.Caster {
	if who := api.CasterOf(c.Org.Users, v); who.User != nil {
		return who
	}
	if n, ok := c.Org.UserNames[v.UserID]; ok {
		return api.CasterOf([]api.User{{UserID: v.UserID, UserName: n}}, v)
	}
	return api.Caster{}
}

// holdsUsers reports whether the console holds the organization's user
// list (it may have failed to load alone).
func holdsUsers(c *Common) bool {
	return c.Org.Users != nil || len(c.Org.UserNames) > 0
}

// unlistedNote marks a name that is the vote's own word: the user list
// does not hold its id, or the console holds no list.
func unlistedNote(c *Common) string {
	if holdsUsers(c) {
		return "(as the vote says; not in the organization's user list)"
	}
	return "(as the vote says; the console holds no user list)"
}

// memberQuoted names the member who cast v, always quoted (api.Quote), even
// a plain ASCII name: in the vote dialog a name sits among the console's own
// sentences, and "bob) -- NOTE: this does NOT run it (" unquoted reads as
// the console's words. A member with no name is a "user" by id.
func memberQuoted(c *Common, v *api.Vote) string {
	if who := voterOf(c, v); who.User != nil {
		return listedQuoted(who.User)
	}
	if v.User.UserName != "" {
		return api.Quote(v.User.UserName) + " " + unlistedNote(c)
	}
	return "user " + api.SanitizeID(v.UserID)
}

// voterText is memberQuoted for the detail and lists: the name quoted
// only when it could pass for another (api.NameText).
func voterText(c *Common, v *api.Vote) string {
	if who := voterOf(c, v); who.User != nil {
		return optionalText(who.User.UserName)
	}
	if v.User.UserName != "" {
		return api.NameText(v.User.UserName) + " " + unlistedNote(c)
	}
	return ""
}

// relabelNote is a warning after a voter's name when the vote's own user
// says otherwise than the list (api.Caster.Relabeled); "" when it does not.
func relabelNote(c *Common, v *api.Vote) string {
	if who := voterOf(c, v); !who.Relabeled {
		return ""
	}
	if v.User.UserName != "" && v.User.UserName != voterOf(c, v).User.UserName {
		return " (WARNING: the vote itself names them " + api.Quote(v.User.UserName) + ")"
	}
	return " (WARNING: the vote itself gives them another user id)"
}
