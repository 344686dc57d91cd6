package screens

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"net/mail"
	"os"
	"sort"
	"strings"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/keys"
	"github.com/vigil-console/vigil/ui"
)

// operationSpecs are the forms of the submit operations that have no screen of
// their own yet; each is a spec of opforms.go.
func operationSpecs() []opSpec {
	return []opSpec{
		createInvitationsSpec(),
		createUserTagSpec(),
		createSmartContractInterfaceSpec(),
		deleteWalletAccountsSpec(),
		updateOauth2CredentialSpec(),
		deleteTvcDeploymentSpec(),
		createReadOnlySessionSpec(),
	}
}

// splitIDs splits a list of ids separated by commas or spaces (an id holds
// neither), dropping empty items.
func splitIDs(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' })
}

// splitNames splits a comma-separated list whose items may hold spaces (a
// tag named "on call"), trimming each item and dropping empty ones.
func splitNames(s string) []string {
	var items []string
	for _, item := range strings.Split(s, ",") {
		if item = strings.TrimSpace(item); item != "" {
			items = append(items, item)
		}
	}
	return items
}

func createInvitationsSpec() opSpec {
	return opSpec{
		op: "create_invitations", title: "Create invitations",
		fields: func(c *Common) []ui.Field {
			return []ui.Field{
				{Key: "invitees", Label: "Invitees (name <e-mail>, comma-separated)", Required: true, CharLimit: inviteesCharLimit,
					Placeholder: "dave <dave@example.com>, erin <erin@example.com>", Validate: checkInvitees, CutMessage: inviteesCut},
				{Key: "accessType", Label: "Access type", Choices: api.AccessTypes()},
				// Checked with the other fields, so that every mistake shows
				// at once (build resolves them the same way).
				{Key: "receiverUserTags", Label: "User tags (names or ids, comma-separated)", CharLimit: userTagsCharLimit,
					Validate: func(s string) error { return problemOnly(invitationRefs(c, map[string]string{"receiverUserTags": s})) }},
				{Key: "senderUserId", Label: "Sender user id", Required: true, Value: c.Org.UserID, CharLimit: api.MaxIDLength,
					Validate: func(s string) error { return problemOnly(invitationRefs(c, map[string]string{"senderUserId": s})) }},
				{Key: perInviteeKey, Label: "Per invitee (address: access=…, tags=…, sender=…; …)",
					CharLimit: perInviteeCharLimit, Placeholder: "erin@example.com: access=api, tags=ops", OneLine: perInviteeLine,
					Validate: func(s string) error {
						_, _, err := inviteeOverrides(c, s)
						return problemOnly(nil, "", nil, err)
					}},
			}
		},
		fieldKey: map[string]string{"receiverUserName": "invitees", "receiverUserEmail": "invitees", "invitations": "invitees"},
		build: func(c *Common, v map[string]string) (prepared, error) {
			addrs, err := parseInvitees(v["invitees"])
			if err != nil {
				return prepared{}, &api.ValidationError{Field: "invitees", Problem: err.Error()}
			}
			tags, sender, warnings, err := invitationRefs(c, v)
			if err != nil {
				return prepared{}, err
			}
			overrides, overrideWarnings, err := inviteeOverrides(c, v[perInviteeKey])
			if err != nil {
				return prepared{}, err
			}
			warnings = append(warnings, overrideWarnings...)
			p := api.CreateInvitationsParams{}
			for _, a := range addrs {
				name := a.Name
				if name == "" {
					name, _, _ = strings.Cut(a.Address, "@")
				}
				p.Invitations = append(p.Invitations, api.Invitation{ReceiverUserName: name, ReceiverUserEmail: a.Address,
					ReceiverUserTags: tags, AccessType: v["accessType"], SenderUserID: sender})
			}
			if err := applyOverrides(p.Invitations, overrides); err != nil {
				return prepared{}, err
			}
			if err := p.Validate(); err != nil {
				return prepared{}, err
			}
			return prepared{params: p, facts: warnings, run: func(ctx context.Context, s Submitter, note *string, o ...api.SubmitOption) (*api.Activity, error) {
				return s.CreateInvitations(ctx, p, o...)
			}}, nil
		},
	}
}

// invitationRefs checks the tags and the sender against what the console
// knows before anything is sent: the service takes any tag id, and refuses a
// sender that is no user only once the quorum has voted. A tag may be given by
// its name (resolved to its id, as the vote dialog will show it), the sender
// by id or name. Tags resolve as the CLI's --tag does (api.ResolveUserTag):
// when not every tag was read, warnings say what could not be checked.
func invitationRefs(c *Common, v map[string]string) (tags []string, sender string, warnings []string, err error) {
	tags = []string{} // sent as [], not null
	var tagErr, senderErr error
	for _, t := range splitNames(v["receiverUserTags"]) {
		id, warning, err := api.ResolveUserTag(c.Org.TagNames, c.Org.TagNamesComplete, t)
		if err != nil {
			tagErr = &api.ValidationError{Field: "receiverUserTags",
				Problem: err.Error() + "; a tag created since the console loaded is known after r on the Organization screen"}
			break
		}
		if warning != "" {
			warnings = append(warnings, "warning: "+warning)
		}
		tags = append(tags, id)
	}
	sender, err = api.ResolveByIDOrName("user", c.Org.UserNames, v["senderUserId"])
	if err != nil && strings.TrimSpace(v["senderUserId"]) != "" {
		senderErr = &api.ValidationError{Field: "senderUserId", Problem: err.Error()}
	}
	if err := errors.Join(tagErr, senderErr); err != nil {
		return nil, "", nil, err
	}
	return tags, sender, warnings, nil
}

// refuseSecret is the check of a name or notes field sent as field: a
// private key pasted there would be recorded for every member to see, so
// it is refused under the field before the confirm (api.SecretInText),
// the message saying so without showing it.
func refuseSecret(field string) func(string) error {
	return func(s string) error { return problemOnly(nil, "", nil, api.SecretInText(field, s)) }
}

// refuseSecretBeside is refuseSecret for a field of a draft whose other
// fields (beside: its condition, read as the check runs) are sent with it:
// a token one of them holds too is not refused, as a policy named after the
// manifest hash its condition pins is sent.
func refuseSecretBeside(field string, beside func() []string) func(string) error {
	return func(s string) error { return problemOnly(nil, "", nil, api.SecretInText(field, s, beside()...)) }
}

// problemOnly is the problem of invitationRefs' error, for a form field,
// which shows it under itself.
func problemOnly(_ []string, _ string, _ []string, err error) error {
	var ve *api.ValidationError
	if errors.As(err, &ve) {
		return errors.New(ve.Problem)
	}
	return err
}

// The form's list fields hold anything the service accepts in one activity:
// api.MaxListItems entries, each at the longest the service takes, with its
// separators (an invitee's quoted name, " <", ">" and ", ").
const (
	inviteesCharLimit = api.MaxListItems * (api.MaxNameLength + api.MaxEmailLength + len(`"" <>, `))
	userTagsCharLimit = api.MaxListItems * (max(api.MaxNameLength, api.MaxIDLength) + len(", "))
	// idListCharLimit holds as many ids as the service takes in one list,
	// each as long as it takes one.
	idListCharLimit = api.MaxListItems * (api.MaxIDLength + len(", "))
)

// checkInvitees checks the invitee list with the form's other fields, so that
// every mistake shows at once.
func checkInvitees(s string) error {
	if strings.TrimSpace(s) == "" {
		return nil // Required says so
	}
	_, err := parseInvitees(s)
	return err
}

// badInvitee is the first entry of s that is not an invitee on its own, for
// the error to name (net/mail says what is wrong, not where: in a pasted list
// of a hundred, "an e-mail address has no @" leaves the member to hunt); ""
// when no single entry is to blame (an empty one: a comma too many). Entries
// are split at the commas net/mail splits at: not one inside a quoted name
// ("Doe, Jane") or a comment ((ops, night)), over which an entry grows.
func badInvitee(s string) string {
	entry, open := "", addressOpenings{}
	for _, piece := range strings.Split(s, ",") {
		if entry != "" {
			entry += ","
			open.read(",") // inside the quote or comment: maybe escaped
		}
		entry += piece
		// Read once, piece by piece: a quote left open before a pasted
		// list's thousand commas is not read again for each.
		if open.read(piece); open.unclosed() {
			continue // net/mail cannot take it yet: the comma was inside
		}
		if strings.TrimSpace(entry) == "" {
			return ""
		}
		if _, err := mail.ParseAddress(entry); err != nil {
			return strings.TrimSpace(entry)
		}
		entry = ""
	}
	// The last entry leaves a quote or a comment open.
	return strings.TrimSpace(entry)
}

// addressOpenings is where a text read so far ends inside a quoted string or
// a comment, as RFC 5322 (and net/mail) reads them: a backslash escapes the
// next character in either, a comment may nest, and a quote inside a comment
// is no quote. (A comma inside <…> outside quotes is no address's: the entry
// that leaves a < open is the one to blame, and is.)
type addressOpenings struct {
	quoted   bool
	comments int // how deep
	escaped  bool
}

// read reads s on from where the text before it ended.
func (o *addressOpenings) read(s string) {
	for _, r := range s {
		switch {
		case o.escaped:
			o.escaped = false
		case (o.quoted || o.comments > 0) && r == '\\':
			o.escaped = true
		case o.quoted:
			o.quoted = r != '"'
		case o.comments > 0 && r == '(':
			o.comments++
		case o.comments > 0 && r == ')':
			o.comments--
		case o.comments > 0:
		case r == '"':
			o.quoted = true
		case r == '(':
			o.comments = 1
		}
	}
}

// unclosed reports whether the text read ends inside a quoted string or a
// comment.
func (o addressOpenings) unclosed() bool { return o.quoted || o.comments > 0 }

// inviteesCut is the invitees field's message when a paste went past its
// limit, which only a list longer than the service takes does: it says how
// many whole invitees were kept, as the cut leaves the last one partial.
func inviteesCut(kept string) string {
	const what = "the service takes at most %d in one activity: delete the partial entry at the end (ctrl+w removes a word), submit, and invite the rest in a second form"
	// The entries up to the last comma are whole; a comma inside a quoted
	// name fails to parse, so step back a few commas (a few: each try
	// parses the whole text).
	rest := kept
	for range 8 {
		i := strings.LastIndex(rest, ",")
		if i < 0 {
			break
		}
		rest = rest[:i]
		if addrs, err := mail.ParseAddressList(rest); err == nil {
			if len(addrs) > api.MaxListItems {
				// Short entries: more whole ones were kept than one activity takes.
				return fmt.Sprintf("the list went past %d characters and was cut there, after %d whole invitees and part of one: the service takes at most %d in one activity; keep the first %d (the %dth is %s), delete the rest, submit, and invite the others in a second form",
					inviteesCharLimit, len(addrs), api.MaxListItems, api.MaxListItems, api.MaxListItems, api.Quote(addrs[api.MaxListItems-1].Address))
			}
			return fmt.Sprintf("the list went past %d characters and was cut there: the first %d whole invitees were kept, then part of one; "+what,
				inviteesCharLimit, len(addrs), api.MaxListItems)
		}
	}
	return fmt.Sprintf("the list went past %d characters and was cut there; "+what, inviteesCharLimit, api.MaxListItems)
}

// inviteesProblem says what is wrong with the list, and in which entry when
// one is to blame.
func inviteesProblem(err error, entry string) string {
	where := ""
	if entry != "" {
		where = " (in " + api.Quote(clip(entry, 60)) + ")"
	}
	return "not a list of name <e-mail>: " + mailProblem(err) + where + "; write e.g. dave <dave@example.com>, erin <erin@example.com>"
}

// mailProblem says in words what net/mail's terse errors mean.
func mailProblem(err error) string {
	msg := strings.TrimPrefix(err.Error(), "mail: ")
	switch msg {
	case "missing @ in addr-spec":
		return "an e-mail address has no @"
	case "no angle-addr":
		return "a name is not followed by its <e-mail>"
	case "unclosed angle-addr":
		return "an <e-mail> is not closed by >"
	case "missing '@' or angle-addr":
		return "an entry is neither name <e-mail> nor an e-mail address (a name with a comma or a quote needs quotes: \"Doe, Jane\" <jane@example.com>)"
	case "expected comma":
		return "two entries are not separated by a comma"
	case "misformatted parenthetical comment":
		return "a ( is not closed by )"
	case "invalid string":
		return "a name or address has characters that need quotes"
	}
	return msg
}

func createUserTagSpec() opSpec {
	return opSpec{
		op: "create_user_tag", title: "Create a user tag",
		fields: func(c *Common) []ui.Field {
			ids := make([]string, 0, len(c.Org.UserNames))
			for id := range c.Org.UserNames {
				ids = append(ids, id)
			}
			sort.Slice(ids, func(i, j int) bool { return c.Org.UserNames[ids[i]] < c.Org.UserNames[ids[j]] })
			labels, tails := userLabels(c, ids)
			// Users are optional: SPEC.md allows a tag given to users later.
			users := ui.Field{Key: "userIds", Label: "Users (from list_users; none: the tag alone)", Multi: true, Filter: true,
				Choices: ids, ChoiceLabels: labels, ChoiceTails: tails}
			if len(ids) == 0 {
				users = ui.Field{Key: "userIds", Label: "User ids (comma- or space-separated, or none; the user list is not loaded)", CharLimit: idListCharLimit}
			}
			return []ui.Field{{Key: "userTagName", Label: "Tag name", Required: true, CharLimit: api.MaxNameLength, Validate: refuseSecret("userTagName")}, users}
		},
		build: func(c *Common, v map[string]string) (prepared, error) {
			p := api.CreateUserTagParams{UserTagName: v["userTagName"], UserIDs: splitIDs(v["userIds"])}
			if err := p.Validate(); err != nil {
				return prepared{}, err
			}
			var facts []string
			if w := api.SameNameTagWarning(c.Org.TagNames, p.UserTagName); w != "" {
				facts = append(facts, "warning: "+w)
			}
			return prepared{params: p, facts: facts, run: func(ctx context.Context, s Submitter, note *string, o ...api.SubmitOption) (*api.Activity, error) {
				return s.CreateUserTag(ctx, p, o...)
			}}, nil
		},
	}
}

func createSmartContractInterfaceSpec() opSpec {
	return opSpec{
		op: "create_smart_contract_interface", title: "Create a smart contract interface",
		fields: func(*Common) []ui.Field {
			return []ui.Field{
				{Key: "smartContractAddress", Label: "Contract address or program id", Required: true, CharLimit: api.MaxIDLength},
				{Key: "type", Label: "Type", Choices: api.SmartContractInterfaceTypes()},
				{Key: "label", Label: "Label", Required: true, CharLimit: api.MaxNameLength},
				{Key: "file", Label: fmt.Sprintf("ABI/IDL JSON file (at most %d bytes, 400 kB)", api.MaxSmartContractInterfaceBytes), Required: true, CharLimit: 4096},
				{Key: "notes", Label: "Notes", CharLimit: idListCharLimit},
			}
		},
		fieldKey: map[string]string{"smartContractInterface": "file"},
		build: func(_ *Common, v map[string]string) (prepared, error) {
			p := api.CreateSmartContractInterfaceParams{SmartContractAddress: strings.TrimSpace(v["smartContractAddress"]),
				Type: v["type"], Label: v["label"], Notes: v["notes"], SmartContractInterface: "{}"}
			// Everything but the file is checked now; the file is read by a
			// command (no I/O in Update) before the confirm, which shows its
			// size and digest: what is confirmed is what is sent, even if the
			// file changes after.
			if err := p.Validate(); err != nil {
				return prepared{}, err
			}
			// Checked with the address beside: a label naming the
			// contract by its program id is sent.
			if err := api.SecretInFreeText(&p); err != nil {
				return prepared{}, err
			}
			path := strings.TrimSpace(v["file"])
			return prepared{params: p, load: func() (prepared, error) {
				data, err := readInterfaceFile(path)
				if err != nil {
					return prepared{}, err
				}
				p.SmartContractInterface = string(data)
				if err := p.Validate(); err != nil {
					return prepared{}, err
				}
				limit := api.MaxSmartContractInterfaceBytes
				size := fmt.Sprintf("interface: %d bytes of %d allowed (%.1f%%)", len(data), limit, 100*float64(len(data))/float64(limit))
				sum := sha256.Sum256(data)
				facts := []string{size, fmt.Sprintf("file: %s, sha256 %x", ui.Clean(path), sum[:8])}
				return prepared{params: p, facts: facts, run: func(ctx context.Context, s Submitter, note *string, o ...api.SubmitOption) (*api.Activity, error) {
					*note = size
					return s.CreateSmartContractInterface(ctx, p, o...)
				}}, nil
			}}, nil
		},
	}
}

// fileKind names what a path that is not a regular file is.
func fileKind(m os.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&os.ModeNamedPipe != 0:
		return "a named pipe"
	case m&os.ModeSocket != 0:
		return "a socket"
	case m&os.ModeDevice != 0:
		return "a device"
	}
	return "a special file"
}

// readInterfaceFile reads an ABI/IDL, refusing one over the limit without
// reading it all; its errors say the size against the limit.
func readInterfaceFile(path string) ([]byte, error) {
	limit := api.MaxSmartContractInterfaceBytes
	// A FIFO or a device would block the read, or never end: only a regular
	// file, looked at before it is opened.
	if st, err := os.Stat(path); err == nil && !st.Mode().IsRegular() {
		return nil, &api.ValidationError{Field: "file", Problem: "is " + fileKind(st.Mode()) + "; type the path of the ABI/IDL JSON file"}
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, &api.ValidationError{Field: "file", Problem: "cannot be read: " + err.Error() + "; type the path of the ABI/IDL JSON file"}
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, &api.ValidationError{Field: "file", Problem: err.Error()}
	}
	if !st.Mode().IsRegular() {
		return nil, &api.ValidationError{Field: "file", Problem: "is not a regular file; type the path of the ABI/IDL JSON file"}
	}
	if st.Size() > int64(limit) {
		return nil, &api.ValidationError{Field: "file", Problem: fmt.Sprintf("is %d bytes of %d allowed (%.0f%% of 400 kB); trim the ABI/IDL to the functions you need",
			st.Size(), limit, 100*float64(st.Size())/float64(limit))}
	}
	data := make([]byte, st.Size())
	if _, err := f.ReadAt(data, 0); err != nil && int64(len(data)) != st.Size() {
		return nil, &api.ValidationError{Field: "file", Problem: "cannot be read: " + err.Error()}
	}
	return data, nil
}

func deleteWalletAccountsSpec() opSpec {
	return opSpec{
		op: "delete_wallet_accounts", title: "Delete wallet accounts",
		fields: func(*Common) []ui.Field {
			return []ui.Field{
				{Key: "walletAccountIds", Label: "Wallet account ids (comma- or space-separated)", Required: true, CharLimit: idListCharLimit},
				{Key: "deleteWithoutExport", Label: "Delete without export (keys never exported are lost for good)", Choices: []string{"no", "yes"}},
			}
		},
		build: func(_ *Common, v map[string]string) (prepared, error) {
			p := api.DeleteWalletAccountsParams{WalletAccountIDs: splitIDs(v["walletAccountIds"])}
			// The service takes an empty list and deletes nothing; here that
			// can only be a slip (the field held only commas).
			if len(p.WalletAccountIDs) == 0 {
				return prepared{}, &api.ValidationError{Field: "walletAccountIds", Problem: "lists no id; type the ids of the accounts to delete, separated by commas"}
			}
			if v["deleteWithoutExport"] == "yes" {
				t := true
				p.DeleteWithoutExport = &t
			}
			if err := p.Validate(); err != nil {
				return prepared{}, err
			}
			return prepared{params: p, run: func(ctx context.Context, s Submitter, note *string, o ...api.SubmitOption) (*api.Activity, error) {
				return s.DeleteWalletAccounts(ctx, p, o...)
			}}, nil
		},
		destructive: func(v map[string]string) (string, []string) {
			ids := splitIDs(v["walletAccountIds"])
			for i, id := range ids {
				ids[i] = api.SanitizeID(id) // an id is ASCII: anything else shows
			}
			lines := []string{"wallet accounts: " + strings.Join(ids, ", ")}
			if v["deleteWithoutExport"] == "yes" {
				lines = append(lines, "WITHOUT EXPORT: the keys of accounts never exported are lost for good")
			}
			return "Delete these wallet accounts?", lines
		},
	}
}

func updateOauth2CredentialSpec() opSpec {
	return opSpec{
		op: "update_oauth2_credential", title: "Update an OAuth2 credential", secret: "clientSecret",
		fields: func(*Common) []ui.Field {
			return []ui.Field{
				{Key: "oauth2CredentialId", Label: "OAuth2 credential id", Required: true, CharLimit: api.MaxIDLength},
				{Key: "provider", Label: "Provider", Choices: api.Oauth2Providers()},
				{Key: "clientId", Label: "Client id", Required: true, CharLimit: api.MaxIDLength},
				{Key: "clientSecret", Label: "Client secret (typed hidden; encrypted here to the TLS fetcher key)", Required: true, Hidden: true, CharLimit: keys.EnvelopeMaxPlaintext(api.MaxCredentialLength)},
			}
		},
		fieldKey: map[string]string{"encryptedClientSecret": "clientSecret"},
		build: func(c *Common, v map[string]string) (prepared, error) {
			p := api.UpdateOauth2CredentialParams{Oauth2CredentialID: strings.TrimSpace(v["oauth2CredentialId"]),
				Provider: v["provider"], ClientID: strings.TrimSpace(v["clientId"]), EncryptedClientSecret: "(encrypted when sent)"}
			if err := p.Validate(); err != nil {
				return prepared{}, err
			}
			targetHex := c.TLSFetcherPublicKey
			if targetHex == "" {
				targetHex = api.ProductionTLSFetcherPublicKey
			}
			target, err := hex.DecodeString(targetHex)
			if err != nil {
				return prepared{}, fmt.Errorf("the profile's tls_fetcher_public_key is not hex: %w", err)
			}
			secret := []byte(v["clientSecret"])
			return prepared{params: p, run: func(ctx context.Context, s Submitter, note *string, o ...api.SubmitOption) (*api.Activity, error) {
				enc, err := keys.EnvelopeEncrypt(target, secret)
				clear(secret)
				if err != nil {
					return nil, fmt.Errorf("encrypt the client secret to the TLS fetcher key: %w", err)
				}
				p.EncryptedClientSecret = enc
				return s.UpdateOauth2Credential(ctx, p, o...)
			}}, nil
		},
	}
}

func deleteTvcDeploymentSpec() opSpec {
	return opSpec{
		op: "delete_tvc_deployment", title: "Delete a TVC deployment",
		fields: func(*Common) []ui.Field {
			return []ui.Field{{Key: "deploymentId", Label: "Deployment id", Required: true, CharLimit: api.MaxIDLength}}
		},
		build: func(_ *Common, v map[string]string) (prepared, error) {
			p := api.DeleteTvcDeploymentParams{DeploymentID: strings.TrimSpace(v["deploymentId"])}
			if err := p.Validate(); err != nil {
				return prepared{}, err
			}
			return prepared{params: p, run: func(ctx context.Context, s Submitter, note *string, o ...api.SubmitOption) (*api.Activity, error) {
				return s.DeleteTvcDeployment(ctx, p, o...)
			}}, nil
		},
		destructive: func(v map[string]string) (string, []string) {
			return "Delete this TVC deployment?", []string{"deployment: " + api.SanitizeID(strings.TrimSpace(v["deploymentId"]))}
		},
	}
}

func createReadOnlySessionSpec() opSpec {
	return opSpec{
		op: "create_read_only_session", title: "Create a read-only session (one hour, for you)",
		fields: func(*Common) []ui.Field { return nil },
		build: func(*Common, map[string]string) (prepared, error) {
			return prepared{params: api.CreateReadOnlySessionParams{}, run: func(ctx context.Context, s Submitter, note *string, o ...api.SubmitOption) (*api.Activity, error) {
				return s.CreateReadOnlySession(ctx, o...)
			}}, nil
		},
	}
}
