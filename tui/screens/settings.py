"""Settings: the language of the screens and the name you sit under at
tables, remembered for the next runs."""
from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Footer, Input, Static

from ankh.tui.i18n import (LANGUAGE_FILE, LANGUAGE_NAMES, LANGUAGES, NP_, Localised, _, language, save_language,
                    set_language, translate_bindings)
from ankh.tui.screens.dialogs import Titled
from ankh.tui.widgets.stepper import Stepper


class SettingsScreen(Titled, Localised, ModalScreen[None]):
    """``←→`` changes the language, Tab goes to the name, Enter saves both
    (and shows everything in the language at once), Esc leaves without a change."""

    BINDINGS = [
        Binding("enter", "save", NP_("key", "Save"), key_display="⏎"),
        Binding("escape", "cancel", NP_("key", "Back")),
    ]

    def compose(self) -> ComposeResult:
        from ankh.net.files.home import MAX_NAME, config_dir, player_name
        with Vertical(id="settings", classes="dialog"):
            yield Static(Text(_("Settings"), style="bold"), classes="dialog-title")
            yield Stepper(_("Language"), [(LANGUAGE_NAMES[lang], lang) for lang in LANGUAGES],
                          LANGUAGES.index(language()), id="language")
            with Horizontal(id="name-row"):
                yield Static(_("Your name"), id="name-label")
                yield Input(player_name(), id="name", max_length=MAX_NAME)
            yield Static("", id="name-error")
            yield Static(Text(_("Saved in {path}; 'ankh --lang en' or '--lang fr' overrides it for one run.")
                              .format(path=config_dir() / LANGUAGE_FILE), style="dim"), id="settings-note")
            yield Static(Text(_("←→ change   Tab your name (the others see it at tables)   Enter save   "
                                "Esc back"), style="dim"))
        yield Footer(compact=True)

    def on_mount(self) -> None:
        self.query_one("#language", Stepper).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.action_save()

    def action_save(self) -> None:
        from ankh.net.files.home import MAX_NAME, HomeError, player_name, set_name
        lang = self.query_one("#language", Stepper).value
        name = self.query_one("#name", Input).value
        try:
            if " ".join(name.split()) != player_name():
                set_name(name)
        except ValueError:
            # said in the dialog, under the name (a notice would cover it)
            self.query_one("#name-error", Static).update(Text(_(
                "A name is 1 to {n} letters, digits, spaces and . ' - (starting with a letter or a digit)."
            ).format(n=MAX_NAME), style="bold red"))
            self.query_one("#name", Input).focus()
            return
        except (OSError, HomeError) as e:
            self.notify(_("Cannot save the settings: {why}").format(why=e), severity="error", timeout=8)
        try:
            save_language(lang)
        except (OSError, HomeError) as e:
            self.notify(_("Cannot save the settings: {why}").format(why=e), severity="error", timeout=8)
        changed = lang != language()
        set_language(lang)
        self.dismiss(None)
        if changed:
            relabel(self.app)

    def action_cancel(self) -> None:
        self.dismiss(None)


def relabel(app) -> None:
    """Show the screens still open in the language just chosen."""
    app.title = _(app.TITLE)
    for name in [n for n in app._installed_screens if n.startswith("help")]:
        if app.get_screen(name) not in app.screen_stack:
            app.uninstall_screen(name)  # built again, in the new language, when next opened
    for screen in app.screen_stack:
        translate_bindings(screen)
        screen.refresh(recompose=True)
        screen.refresh_bindings()
