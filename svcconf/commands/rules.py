"""`svcconf rules [ID]`: list every rule, or explain one."""

from __future__ import annotations

import sys

from . import EXIT_OK, EXIT_USAGE, error


def add_parser(commands) -> None:
    parser = commands.add_parser("rules", help="explain the rules", description="List every rule, or explain one.")
    parser.add_argument("rule", nargs="?", metavar="ID", help="a rule id, e.g. unknown-field")
    parser.set_defaults(run=run)


def run(args) -> int:
    from ..known.docs import all_rule_docs, rule_doc

    if args.rule:
        doc = rule_doc(args.rule)
        if doc is None:
            error(f"no rule {args.rule!r}; `svcconf rules` lists them")
            return EXIT_USAGE
        sys.stdout.write("\n".join(explain(doc)) + "\n")
        return EXIT_OK
    docs = all_rule_docs()
    width = max(len(rule_id) for rule_id in docs)
    for doc in sorted(docs.values(), key=lambda d: (d.area, d.id)):
        sys.stdout.write(f"{doc.id:<{width}}  {doc.severity!s:<7}  {doc.area:<10}  {doc.summary}\n")
    return EXIT_OK


def explain(doc) -> list[str]:
    """One rule's doc as `svcconf rules ID` prints it: the help, who checks it, where upstream says so."""
    from ..known.docs import reporting_modules

    out = [f"{doc.id} ({doc.severity}, {doc.area})", "", doc.help_text(), ""]
    references = [f"  {reference}" for reference in doc.references]
    if doc.own:
        out.append("svcconf's own check: the component accepts this." + (" Motivated by:" if references else ""))
    else:
        out.append("Upstream, where the component checks this:")
    out += references
    out.append(f"Reported by: {', '.join(reporting_modules(doc.id)) or '?'}")
    return out
