"""Settings: the language of the screens, remembered for the next runs."""
from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Footer, Static

from ankh.tui.i18n import (LANGUAGE_FILE, LANGUAGE_NAMES, LANGUAGES, NP_, Localised, _, language, save_language,
                    set_language, translate_bindings)
from ankh.tui.widgets.stepper import Stepper


class SettingsScreen(Localised, ModalScreen[None]):
    """``←→`` changes the language, Enter saves it (and shows everything in
    it at once), Esc leaves without a change."""

    BINDINGS = [
        Binding("enter", "save", NP_("key", "Save"), key_display="⏎"),
        Binding("escape", "cancel", NP_("key", "Back")),
    ]

    def compose(self) -> ComposeResult:
        from ankh.net.home import config_dir
        with Vertical(id="settings", classes="dialog"):
            yield Static(Text(_("Settings"), style="bold"), classes="dialog-title")
            yield Stepper(_("Language"), [(LANGUAGE_NAMES[lang], lang) for lang in LANGUAGES],
                          LANGUAGES.index(language()), id="language")
            yield Static(Text(_("Saved in {path}; 'ankh --lang en' or '--lang fr' overrides it for one run.")
                              .format(path=config_dir() / LANGUAGE_FILE), style="dim"), id="settings-note")
            yield Static(Text(_("←→ change   Enter save   Esc back"), style="dim"))
        yield Footer(compact=True)

    def on_mount(self) -> None:
        self.query_one("#language", Stepper).focus()

    def action_save(self) -> None:
        from ankh.net.home import HomeError
        lang = self.query_one("#language", Stepper).value
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
