"""`svcconf print TARGET`: print generated configuration, such as a component's defaults.

The documents come from `svcconf/defaults/`, which builds them as text; this module holds the
flags, the messages and the exit codes.
"""

from __future__ import annotations

import sys

from ..defaults import bootstrap, components
from ..settings.options import OptionsError, add_domain_argument, add_target_argument, api_domain
from . import EXIT_OK, EXIT_USAGE, error, usage


def add_parser(commands) -> None:
    parser = commands.add_parser("print", help="print default configuration", description="Print generated configuration documents.")
    targets = parser.add_subparsers(dest="target", metavar="TARGET")
    _add_bootstrap(targets)
    _add_component_defaults(targets)
    parser.set_defaults(run=lambda args: usage(parser))


def _bootstrap_components(text: str) -> list[str]:
    import argparse

    names = [n.strip() for n in text.split(",") if n.strip()]
    if not names or any(n not in bootstrap.COMPONENTS for n in names):
        raise argparse.ArgumentTypeError(f"--component-configs needs to contain some of [{' '.join(bootstrap.COMPONENTS)}]")
    return names


def _add_bootstrap(targets) -> None:
    for name, what in (("init-defaults", "kubeadm init"), ("join-defaults", "kubeadm join")):
        parser = targets.add_parser(
            name,
            help=f"defaults of the bootstrap tool's {what.split()[1]} configuration",
            description=f"Print the static defaults of the bootstrap tool's {what.split()[1]} configuration, as its "
            "'config print' does. Sensitive values such as the bootstrap token are placeholders.",
        )
        parser.add_argument(
            "--api-version",
            choices=bootstrap.VERSIONS,
            default=bootstrap.VERSIONS[-1],
            help="bootstrap tool API version (default: v1beta4)",
        )
        parser.add_argument(
            "--component-configs",
            type=_bootstrap_components,
            default=[],
            metavar="KINDS",
            help="also print these component configurations (comma list of KubeletConfiguration, KubeProxyConfiguration)",
        )
        parser.add_argument("--naming", choices=("kube", "svc"), default="kube", help="group spelling: kubeadm (kube) or svcadm (svc)")
        add_domain_argument(parser)
        add_target_argument(parser, help="release whose kubernetesVersion is printed (default: the newest release svcconf knows)")
        parser.set_defaults(run=_run_bootstrap, action=name)


def _run_bootstrap(args) -> int:
    from ..known.catalog import format_release, lifecycle
    from ..known.naming import Naming

    try:
        naming = Naming(api_domain(args))
    except OptionsError as err:
        error(str(err))
        return EXIT_USAGE
    group = naming.spell_group("kubeadm.k8s.io", args.naming)
    target = args.target_version or lifecycle().newest
    if args.action == "init-defaults":
        documents = bootstrap.init_documents(args.api_version, group, f"{format_release(target)}.0")
    else:
        documents = bootstrap.join_documents(args.api_version, group)
    for kind in args.component_configs:
        document = bootstrap.component_document(kind, naming, args.naming)
        if document is None:
            error(f"no printed defaults for {kind} are installed")
            return EXIT_USAGE
        documents.append(document)
    sys.stdout.write("---\n".join(documents))
    return EXIT_OK


def _add_component_defaults(targets) -> None:
    names = ", ".join(components.COMPONENTS)
    parser = targets.add_parser(
        "defaults",
        help="a component's fully defaulted configuration",
        description="Print the fully defaulted configuration document of a component, as the component itself "
        f"fills it in (default feature gates, Linux). KIND is a component ({names}) or its kind in "
        "either spelling, e.g. KubeSchedulerConfiguration or SvcSchedulerConfiguration.",
    )
    parser.add_argument("kind", metavar="KIND", help=f"the component ({names}) or kind to print")
    parser.add_argument("--naming", choices=("kube", "svc"), default="kube", help="spelling of groups and kinds (default: kube)")
    add_domain_argument(parser)
    parser.set_defaults(run=_run_component_defaults)


def _run_component_defaults(args) -> int:
    try:
        domain = api_domain(args)
    except OptionsError as err:
        error(str(err))
        return EXIT_USAGE
    kind = components.resolve(args.kind)
    text = components.document(kind, domain, args.naming) if kind else None
    if text is None:
        names = ", ".join(components.COMPONENTS)
        error(f"no defaults for kind {args.kind!r}; components with defaults: {names} (or their kinds: {', '.join(components.kinds())})")
        return EXIT_USAGE
    sys.stdout.write(text)
    return EXIT_OK
