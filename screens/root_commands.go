// The root's global keys and palette commands, and the messages they send.

package screens

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/vigil-console/vigil/api"
	"github.com/vigil-console/vigil/ui"
)

// themeChangedMsg tells screens to pick up the new theme from Common.
type themeChangedMsg struct{}

// Messages of the palette's global commands.
type (
	gotoScreenMsg struct{ index int }
	// ShowActivityMsg takes the user to an activity: the Activities screen
	// opens it (and follows it, as any open activity). Activity, when set, is
	// shown at once while the fresh record loads.
	ShowActivityMsg struct {
		ID       string
		Activity *api.Activity
	}
	toggleHelpMsg struct{}
)

func (r *Root) broadcast(msg tea.Msg) tea.Cmd {
	cmds := make([]tea.Cmd, len(r.screens))
	for i, s := range r.screens {
		r.screens[i], cmds[i] = s.Update(msg)
	}
	return tea.Batch(cmds...)
}

func (r *Root) handleKey(k tea.KeyPressMsg) tea.Cmd {
	if key.Matches(k, r.keys.ForceQuit) {
		return tea.Quit
	}
	// Nothing acts unseen: while the frame only says the terminal is too
	// small, a key could answer a vote dialog nobody can read.
	if r.tooSmall() {
		return nil
	}
	if r.dialogAwaited {
		return nil // typed before the dialog its key asked for appeared
	}
	if top := r.dialogs.Top(); top != nil {
		cmd := r.dialogs.Update(k)
		r.noteDialogAsked(top)
		if a, ok := top.(dialogAnswerer); ok {
			if msg := a.takeAnswer(); msg != nil {
				cmd = tea.Batch(cmd, r.update(msg))
			}
		}
		return cmd
	}
	active := r.screens[r.active]
	if ls, ok := active.(listScreen); ok && filtering(active) {
		return typeInFilter(ls, k)
	}
	if !capturing(active) {
		switch {
		case key.Matches(k, r.keys.Quit):
			return r.quit()
		case key.Matches(k, r.keys.Help):
			r.fullHelp = !r.fullHelp
			return nil
		case key.Matches(k, r.keys.Back) && r.fullHelp:
			r.fullHelp = false
			return nil
		case key.Matches(k, r.keys.Palette):
			r.openDialog(newPaletteDialog(r.commands()))
			return nil
		case key.Matches(k, r.keys.Messages):
			r.openDialog(newMessagesDialog(r.common.Theme, &r.log, r.keys.Messages.Keys()))
			return nil
		case key.Matches(k, r.keys.Next):
			return r.goTo((r.active + 1) % len(r.screens))
		case key.Matches(k, r.keys.Prev):
			return r.goTo((r.active + len(r.screens) - 1) % len(r.screens))
		case key.Matches(k, r.keys.Jump):
			return r.goTo(int(k.String()[0] - '1'))
		case key.Matches(k, r.keys.NoScreen):
			return ui.Toast("there is no screen "+k.String()+": "+r.keys.Jump.Help().Key+" go to the screens", true)
		}
	}
	var cmd tea.Cmd
	r.screens[r.active], cmd = active.Update(k)
	r.noteDialogAsked(r.screens[r.active])
	return cmd
}

// commands are the palette's entries: the global ones, then the active screen's.
func (r *Root) commands() []Command {
	var out []Command
	for i, s := range r.screens {
		k := ""
		if i < 9 {
			k = string(rune('1' + i))
		}
		out = append(out, Command{Name: "go to " + s.Title(), Key: k, Run: msgCmd(gotoScreenMsg{i})})
	}
	out = append(out,
		Command{Name: "messages", Key: r.keys.Messages.Help().Key, Dialog: newMessagesDialog(r.common.Theme, &r.log, r.keys.Messages.Keys())},
		Command{Name: "help", Key: r.keys.Help.Help().Key, Run: msgCmd(toggleHelpMsg{})},
		Command{Name: "quit", Key: r.keys.Quit.Help().Key, Run: msgCmd(quitMsg{})},
	)
	if cs, ok := r.screens[r.active].(CommandScreen); ok {
		out = append(out, cs.Commands()...)
	}
	return append(out, operationCommands(r.common)...)
}

func msgCmd(m tea.Msg) tea.Cmd { return func() tea.Msg { return m } }
