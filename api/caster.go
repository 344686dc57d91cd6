package api

// Caster is who cast a vote, as the organization's user list names them.
// A vote's own "user" object is the service's label, which no signature
// covers: a reply may call alice's vote bob's. The vote's userId is what
// its key is checked against (VoteKeyOwner), so the voter is named by it.
type Caster struct {
	// User is the list's entry for the vote's userId; nil when the list
	// does not hold that id, or no list was read.
	User *User
	// Relabeled: the list holds the userId, and the vote's own user
	// (its userName or userId, when sent) says otherwise: the user was
	// renamed since the vote, or the reply was relabeled on the way.
	Relabeled bool
}

// CasterOf looks up v's userId in users. It does no I/O.
func CasterOf(users []User, v *Vote) Caster {
	for i := range users {
		u := &users[i]
		if u.UserID != v.UserID {
			continue
		}
		relabeled := v.User.UserName != "" && v.User.UserName != u.UserName ||
			v.User.UserID != "" && v.User.UserID != v.UserID
		return Caster{User: u, Relabeled: relabeled}
	}
	return Caster{}
}

// RelabelText says how v's own user differs from the list's entry u
// (Caster.Relabeled), its names quoted (Quote), for a warning.
func RelabelText(v *Vote, u *User) string {
	s := "the vote itself names its voter " + Quote(v.User.UserName)
	if v.User.UserName == "" {
		s = "the vote itself names no voter"
	}
	if v.User.UserID != "" && v.User.UserID != v.UserID {
		s += " with user id " + Quote(v.User.UserID)
	}
	return s + "; the organization's user list names this user id " + Quote(u.UserName) +
		" (renamed since the vote, or relabeled on the way): the name shown is the list's"
}
