"""`svcconf completion SHELL`: print a tab-completion script for bash, zsh or fish, generated from the argument parser.

shtab writes the script from the same parser the command line uses, so every command, option
and choice is there; this module only says which arguments name files or folders and which take
rule ids or areas. shtab is imported here, inside `run`, so that starting svcconf never loads it.
"""

from __future__ import annotations

import argparse
import re
import sys

from . import EXIT_OK, EXIT_USAGE, error

SHELLS = ("bash", "zsh", "fish")
# Arguments, by destination, that name a file or a folder (positional PATHs of validate and migrate included).
FILE_ARGUMENTS = frozenset({"paths", "config", "output", "requests", "claims"})
FOLDER_ARGUMENTS = frozenset({"directory"})
RULE_ID_ARGUMENTS = frozenset({"select", "ignore"})
_RULE_NAME = re.compile(r"^[a-z0-9]+(?:[-_][a-z0-9]+)*\Z")  # a rule id or an area (`controller_manager`)


def add_parser(commands) -> None:
    parser = commands.add_parser(
        "completion",
        help="print a shell completion script",
        description='Print a tab-completion script for SHELL. bash: add `eval "$(svcconf completion bash)"` to ~/.bashrc; '
        "zsh: `svcconf completion zsh > ~/.zfunc/_svcconf` with ~/.zfunc in $fpath before compinit; "
        "fish: `svcconf completion fish > ~/.config/fish/completions/svcconf.fish`.",
    )
    parser.add_argument("shell", choices=SHELLS, metavar="SHELL", help=", ".join(SHELLS))
    parser.set_defaults(run=run)


def run(args) -> int:
    import shtab

    from ..cli import build_parser
    from ..known.docs import area_rules, rule_areas

    rule_ids = sorted(name for name in (*rule_areas(), *area_rules()) if _RULE_NAME.match(name))
    parser = build_parser()
    for action in _actions(parser):
        if isinstance(action.choices, dict) and not isinstance(action, argparse._SubParsersAction):
            action.choices = list(action.choices)  # shtab takes any dict of choices for sub-commands
        if action.dest in FILE_ARGUMENTS:
            action.complete = shtab.FILE  # type: ignore[attr-defined]
        elif action.dest in FOLDER_ARGUMENTS:
            action.complete = shtab.DIRECTORY  # type: ignore[attr-defined]
        elif action.dest in RULE_ID_ARGUMENTS:
            action.complete = _rule_id_completer(rule_ids)  # type: ignore[attr-defined]
    try:
        script = shtab.complete(parser, shell=args.shell)
    except Exception as err:  # noqa: BLE001 - a parser shtab cannot render is a bug to report, not a traceback
        error(f"cannot write the {args.shell} completion script: {err}")
        return EXIT_USAGE
    sys.stdout.write(script if script.endswith("\n") else script + "\n")
    return EXIT_OK


def _actions(parser: argparse.ArgumentParser):
    """Every argument of the parser and of its sub-commands, at any depth."""
    for action in parser._actions:
        yield action
        if isinstance(action, argparse._SubParsersAction):
            for sub in dict.fromkeys(action.choices.values()):  # an alias maps to the same parser
                yield from _actions(sub)


def _rule_id_completer(rule_ids: list[str]) -> dict:
    """Rule ids for --select and --ignore, completed after the last comma of the list typed so far."""
    words = " ".join(rule_ids)
    return {
        "bash": "_svcconf_rule_ids",
        "zsh": f"_sequence compadd - {words}",
        "fish": "(_svcconf_rule_ids)",
        "preamble": {
            "bash": (
                "_svcconf_rule_ids() {\n"
                '  local head="" last="$1"\n'
                '  if [[ "$1" == *,* ]]; then head="${1%,*},"; last="${1##*,}"; fi\n'
                f'  compgen -P "$head" -W "{words}" -- "$last"\n'
                "}\n"
            ),
            "fish": (
                "function _svcconf_rule_ids\n"
                "    set -l typed (commandline -ct | string replace -r '^-[^=]*=' '')\n"
                "    set -l head (string replace -r '[^,]*$' '' -- $typed)\n"
                f"    printf '%s\\n' $head{{{','.join(rule_ids)}}}\n"
                "end\n"
            ),
        },
    }
