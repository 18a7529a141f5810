"""Regenerate svcconf/data/flags/*.tsv, the component flag tables, from stored upstream excerpts.

    python -m tests.tools.flag_table                      # rebuild the tables from tests/tools/flag_sources
    python -m tests.tools.flag_table --website PAGE.md --component kube-apiserver --release 1.35
                                                          # turn a generated reference page into an excerpt
    python -m tests.tools.flag_table --etcd GIT_DIR       # re-read etcd's flags from an etcd clone's tags
    python -m tests.tools.flag_table --ccm CLOUD_PROVIDER CONTROLLER_MANAGER APISERVER COMPONENT_BASE
                                                          # re-read cloud-controller-manager's flags from the modules' tags

The sources (named in every row's `source` column, listed in svcconf/data/flags/sources.tsv):
- one excerpt per component and release of the command-line reference that kubernetes/website
  generates from the component's flag registrations (content/en/docs/reference/command-line-tools-
  reference/<component>.md): every flag's header cell (name, type word, "Default:") and its
  "DEPRECATED:" note;
- for etcd, the flag registrations (`fs.*Var`) and help text of etcd's tags that kubeadm's local etcd
  runs (etcd 3.5 for Kubernetes 1.22 to 1.33, 3.6 from 1.34: kubeadm's SupportedEtcdVersion);
- for cloud-controller-manager, the pflag registrations of the k8s.io modules it is built from
  (cloud-provider, controller-manager, apiserver, component-base) at the tag of every release
  (v0.22.0 to v0.36.0);
- events.tsv: what the snapshots cannot say, each from a CHANGELOG entry, a KEP or an upstream file:
  flags the pages hide (deprecated flags of some releases, flags registered only on Linux or only where
  the JSON log format is linked in), removals and introductions at their exact release, renames, and
  the pflag type of a flag whose page shows a word of its usage text instead (`type` events).

Between two snapshots the bounds are lenient: a flag first seen in a later snapshot is taken as known
from the release after the earlier snapshot, a flag gone from a later snapshot as removed in that
snapshot's release, unless an event names the release. svcconf then never refuses a flag a release has.
"""

from __future__ import annotations

import argparse
import html
import os
import re
import subprocess
import sys
from collections.abc import Iterable
from typing import NamedTuple

from svcconf.known.tsv import read_table

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCES = os.path.join(HERE, "flag_sources")
ROOT = os.path.dirname(os.path.dirname(HERE))
TABLES = os.path.join(ROOT, "svcconf", "data", "flags")
COLUMNS = ("flag", "type", "default", "introduced", "deprecated", "removed", "replacement", "renamed-to", "source")
# kubeadm's local etcd per Kubernetes release (cmd/kubeadm/app/constants/constants.go SupportedEtcdVersion).
ETCD_RELEASES = {"v3.5.0": "1.22", "v3.6.0": "1.34"}
NEWEST = "1.36"


# "Use '--compact-hash-check-time' instead": an exact rename (a flag of the same snapshot).
RENAMED = re.compile(r"Use '--([a-z0-9-]+)' instead")


class Snapshot(NamedTuple):
    release: tuple[int, int]
    source: str
    rows: dict[str, dict[str, str]]  # flag name (without dashes) -> flag, type, default, deprecated


def release(text: str) -> tuple[int, int]:
    major, minor = text.split(".")
    return int(major), int(minor)


def show(value: tuple[int, int] | None) -> str:
    return "" if value is None else f"{value[0]}.{value[1]}"


def read_tsv(path: str) -> tuple[dict[str, str], list[dict[str, str]]]:
    """A source table by its path (svcconf's reader: `# key: value` lines, a header row, tab-separated cells)."""
    return read_table(path)  # an absolute path replaces the data folder in os.path.join


def flag_name(cell: str) -> str:
    """`-v, --v` -> `v`; `--bind-address` -> `bind-address`; `--log_dir` -> `log-dir` (pflag's WordSepNormalizeFunc)."""
    return cell.rpartition("--")[2].strip().replace("_", "-")


def snapshots(component: str) -> list[Snapshot]:
    found = []
    for name in sorted(os.listdir(SOURCES)):
        stem, _dot, ext = name.rpartition(".")
        if ext != "tsv" or not stem.startswith(component + "-") or not stem[len(component) + 1 :][:1].isdigit():
            continue
        meta, rows = read_tsv(os.path.join(SOURCES, name))
        found.append(Snapshot(release(meta["release"]), meta["source-key"], {flag_name(r["flag"]): r for r in rows}))
    return sorted(found)


def events(component: str) -> list[dict[str, str]]:
    _meta, rows = read_tsv(os.path.join(SOURCES, "events.tsv"))
    return [row for row in rows if component in row["component"].split(",")]


def build(component: str) -> list[dict[str, str]]:
    """One row per flag: its newest type and default, the releases it lives in, its sources."""
    shots = snapshots(component)
    # kubeadm pins its etcd per release, so etcd's snapshots bound its flags exactly.
    exact = component == "etcd"
    table: dict[str, dict[str, str]] = {}
    for index, shot in enumerate(shots):
        for name, row in shot.rows.items():
            entry = table.setdefault(name, {"flag": name, "source": shot.source})
            if entry["source"] != shot.source and shot.source not in entry["source"].split(","):
                entry["source"] += "," + shot.source
            entry["type"], entry["default"] = row.get("type", ""), row.get("default", "")
            if index and name not in shots[index - 1].rows and "introduced" not in entry:
                entry["introduced"] = show(shot.release if exact else next_release(shots[index - 1].release))
            if row.get("deprecated") and "deprecated" not in entry:
                entry["deprecated"] = show(shot.release)
                entry["replacement"] = row["deprecated"]
                renamed = RENAMED.search(row["deprecated"])
                if renamed and renamed.group(1) in shot.rows:
                    entry["renamed-to"] = renamed.group(1)
        for name, entry in table.items():
            if index and name in shots[index - 1].rows and name not in shot.rows and not entry.get("removed"):
                entry["removed"] = show(shot.release)
    for event in events(component):
        apply_event(table, event)
    return [dict({column: "" for column in COLUMNS}, **table[name]) for name in sorted(table)]


def next_release(value: tuple[int, int]) -> tuple[int, int]:
    return value[0], value[1] + 1


def apply_event(table: dict[str, dict[str, str]], event: dict[str, str]) -> None:
    entry = table.setdefault(event["flag"], {"flag": event["flag"], "type": event.get("type", ""), "source": event["source"]})
    if event["source"] not in entry["source"].split(","):
        entry["source"] += "," + event["source"]
    kind = event["event"]
    if kind in ("introduced", "deprecated", "removed"):
        entry[kind] = event["release"]
    if kind == "present":  # a flag the pages hide: known from `release` (blank: before 1.22), not gone where a page omits it
        entry["introduced"] = event["release"]
        entry.pop("removed", None)
    if event.get("replacement"):
        entry["replacement"] = event["replacement"]
    if event.get("renamed-to"):
        entry["renamed-to"] = event["renamed-to"]
    if event.get("type"):
        entry["type"] = event["type"]


def write(component: str, rows: list[dict[str, str]], complete: tuple[str, str]) -> str:
    path = os.path.join(TABLES, f"{component}.tsv")
    with open(path, "w", encoding="utf-8", newline="\n") as out:
        out.write(f"# {component} flags per release; generated by `python -m tests.tools.flag_table` from tests/tools/flag_sources\n")
        out.write("# introduced/deprecated/removed: releases (blank introduced: 1.22 or earlier); source: keys of sources.tsv\n")
        out.write(f"# complete-from: {complete[0]}\n")
        out.write(f"# complete-through: {complete[1]}\n")
        out.write("\t".join(COLUMNS) + "\n")
        out.writelines("\t".join(row[column].replace("\t", " ") for column in COLUMNS) + "\n" for row in rows)
    return path


def components() -> list[tuple[str, tuple[str, str]]]:
    """(component, (complete-from, complete-through)) from events.tsv's `# components:` line: the releases in which a name
    missing from the table is unknown, its oldest and newest full reference ("no", "no": never)."""
    meta, _rows = read_tsv(os.path.join(SOURCES, "events.tsv"))
    listed = []
    for item in meta["components"].split(","):
        name, _equals, complete = item.strip().partition("=")
        first, _dots, last = complete.partition("..")
        listed.append((name, (first or "no", last or first or "no")))
    return listed


# --------------------------------------------------------------------------- excerpts from sources

HEADER = re.compile(r'<td colspan="2">([^<]*(?:<[^/][^>]*>[^<]*)*?)</td>')
DEFAULT = "\u00a0" * 5 + "Default: "


def website_excerpt(page: str) -> list[tuple[str, str, str, str]]:
    """(flag, type, default, deprecated) for each flag header cell of a generated reference page."""
    rows = []
    parts = page.split('<td colspan="2">')[1:]
    for part in parts:
        cell, _end, rest = part.partition("</td>")
        cell = html.unescape(cell.replace("&nbsp;", "\u00a0"))
        head, _sep, default = cell.partition(DEFAULT)
        flag, _space, kind = head.strip().rpartition("--")[2].partition(" ")
        prefix = head[: head.rfind("--")]
        description = rest.split("</tr>", 2)[1] if rest.count("</tr>") > 1 else rest
        deprecated = ""
        marker = description.find("DEPRECATED:")
        if marker >= 0:
            deprecated = html.unescape(re.sub(r"<[^>]+>", "", description[marker + 11 :])).strip().rstrip(")").strip()
        rows.append((prefix + "--" + flag, kind.strip(), default.strip(), deprecated.split("\n")[0]))
    return rows


GO_FLAG = re.compile(r"\bfs\.(\w*)Var\(")
GO_TYPES = {"String": "string", "Bool": "bool", "Uint": "uint", "Uint64": "uint64", "Int": "int", "Int64": "int64",
            "Duration": "duration", "Float64": "float", "": "value"}  # fmt: skip
# A flag's line of etcd's help: `  --name 'default'`, `  --name 1000` (a number unquoted) or `  --name`.
HELP_ROW = re.compile(r"^  --([a-z0-9-]+)(?: '(.*)'| ([^' ]+))?$")
DEPRECATED_NOW = re.compile(r"Deprecated in v|Deprecated and|DEPRECATED")  # "Will be deprecated in v3.7" is not yet


def go_args(text: str, start: int) -> list[str]:
    """The top-level arguments of the call whose `(` is at text[start - 1], Go strings kept whole."""
    args, depth, current, index, quote = [], 0, [], start, ""
    while index < len(text):
        char = text[index]
        if quote:
            current.append(char)
            if char == "\\" and quote == '"':
                current.append(text[index + 1])
                index += 1
            elif char == quote:
                quote = ""
        elif char in '"`':
            quote = char
            current.append(char)
        elif char in "([{":
            depth += 1
            current.append(char)
        elif char in ")]}":
            if depth == 0:
                args.append("".join(current).strip())
                return args
            depth -= 1
            current.append(char)
        elif char == "," and depth == 0:
            args.append("".join(current).strip())
            current = []
        else:
            current.append(char)
        index += 1
    return args


def etcd_excerpt(git_dir: str, tag: str) -> list[tuple[str, str, str, str]]:
    def show_file(path: str) -> str:
        done = subprocess.run(["git", "--git-dir", git_dir, "show", f"{tag}:{path}"], capture_output=True, text=True, check=False)
        return done.stdout if done.returncode == 0 else ""

    registered: dict[str, str] = {}
    for path in ("server/etcdmain/config.go", "server/embed/config.go"):
        text = show_file(path)
        for match in GO_FLAG.finditer(text):
            args = go_args(text, match.end())
            if len(args) >= 2 and re.fullmatch(r'"[a-z][a-z0-9-]*"', args[1]):
                registered[args[1].strip('"')] = GO_TYPES.get(match.group(1), match.group(1).lower())
        # A flag a type registers itself (the server's feature gate: `AddFlag(fs, ServerFeatureGateFlagName)`).
        for constant in re.findall(r"\.AddFlag\(fs, (\w+)\)", text):
            named = re.search(rf'\b{constant}\s*=\s*"([a-z][a-z0-9-]*)"', text)
            if named:
                registered[named.group(1)] = "value"
    rows, current = [], None
    for line in show_file("server/etcdmain/help.go").splitlines():
        found = HELP_ROW.match(line)
        if line.startswith("  --"):  # a flag's own line: what follows describes this flag, never the one before
            current = None
        if found and found.group(1) in registered:
            current = [found.group(1), registered[found.group(1)], found.group(2) or found.group(3) or "", ""]
            rows.append(current)
        elif current is not None and line.startswith("    ") and DEPRECATED_NOW.search(line):
            current[3] = line[DEPRECATED_NOW.search(line).start() :].strip()  # the deprecation, not the description
    listed = {row[0] for row in rows}
    rows += [[name, kind, "", ""] for name, kind in registered.items() if name not in listed]
    # A default spliced from Go code (`' + strconv.Itoa(...) + '`) is not text the help shows as such.
    return [("--" + name, kind, "" if "` +" in default else default, note) for name, kind, default, note in sorted(rows)]


# --------------------------------------------------------------------------- cloud-controller-manager from its registrations

# pflag methods that register a flag: the Go type its help shows (pflag's UnquoteUsage names bool "", float64 "float").
PFLAG_TYPES = {"StringVar": "string", "BoolVar": "", "IntVar": "int", "Int32Var": "int32", "Int64Var": "int", "UintVar": "uint",
               "Float32Var": "float32", "Float64Var": "float", "DurationVar": "duration", "StringSliceVar": "strings",
               "StringArrayVar": "stringArray", "Int32SliceVar": "int32Slice", "IPVar": "ip", "Var": "value", "VarP": "value",
               "BoolP": ""}  # fmt: skip
PFLAG_CALL = re.compile(r"\b\w*fs\.(" + "|".join(PFLAG_TYPES) + r")\(")
VALUE_TYPES = {"NewMapStringBool": "mapStringBool", "NewMapStringString": "mapStringString", "NewNamedCertKeyArray": "namedCertKey"}
DEPRECATION = re.compile(r'MarkDeprecated\("([a-z0-9-]+)",\s*((?:"(?:[^"\\]|\\.)*"\s*\+?\s*)+)\)')
# The sources of the flags cloud-controller-manager registers (k8s.io/cloud-provider app.NewCloudControllerManagerCommand):
# its options, the generic controller-manager options, secure serving and delegated authn/authz of k8s.io/apiserver,
# and component-base's leader election, feature gate, --version and --help flags.
CCM_FILES = {
    "cloud-provider": ("options/",),
    "controller-manager": ("options/", "pkg/leadermigration/options/"),
    "apiserver": ("pkg/server/options/serving.go", "pkg/server/options/authentication.go", "pkg/server/options/authorization.go"),
    "component-base": ("config/options/leaderelectionconfig.go", "featuregate/feature_gate.go", "version/verflag/verflag.go",
                       "cli/globalflag/globalflags.go"),
}  # fmt: skip
# Before k8s.io/cloud-provider 0.27 the logging flags came from klog through globalflag.AddGlobalFlags (the klog-only ones
# are events of KEP-2845); from 0.27 the app adds component-base's logs/api/v1 flags.
KLOG_FLAGS = (("-v, --v", "Level"), ("--vmodule", "moduleSpec"), ("--log-flush-frequency", "duration"))


def go_name(expression: str, text: str) -> str | None:
    """A flag name as Go code writes it: a literal, `prefix+"name"`, or a constant of the same file."""
    literal = re.fullmatch(r'(?:\w+\s*\+\s*)?"([a-z0-9-]+)"', expression.strip())
    if literal:
        return literal.group(1)
    constant = re.search(rf'\b{re.escape(expression.strip())}\s*=\s*"([a-z0-9-]+)"', text) if expression.strip().isidentifier() else None
    return constant.group(1) if constant else None


def go_registrations(text: str) -> dict[str, tuple[str, str]]:
    """name -> (type word, deprecation note) for every pflag registration of a Go file."""
    found: dict[str, tuple[str, str]] = {}
    for match in PFLAG_CALL.finditer(text):
        method, args = match.group(1), go_args(text, match.end())
        name = go_name(args[0] if method == "BoolP" else args[1] if len(args) > 1 else "", text)
        if name is None:
            continue
        kind = PFLAG_TYPES[method]
        if method in ("Var", "VarP"):
            kind = next((word for call, word in VALUE_TYPES.items() if call in args[0]), "version[=true]" if name == "version" else kind)
        found[name] = (kind, "")
    for name, message in DEPRECATION.findall(text):
        if name in found:
            found[name] = (found[name][0], "".join(re.findall(r'"((?:[^"\\]|\\.)*)"', message)))
    return found


def ccm_excerpt(git_dirs: dict[str, str], tag: str) -> list[tuple[str, str, str, str]]:
    def show(repo: str, path: str) -> str:
        done = subprocess.run(["git", "--git-dir", git_dirs[repo], "show", f"{tag}:{path}"], capture_output=True, text=True, check=False)
        return done.stdout if done.returncode == 0 else ""

    def files(repo: str, path: str) -> list[str]:
        if not path.endswith("/"):
            return [path]
        done = subprocess.run(
            ["git", "--git-dir", git_dirs[repo], "ls-tree", "--name-only", tag, path], capture_output=True, text=True, check=False
        )
        return [name for name in done.stdout.split() if name.endswith(".go") and not name.endswith("_test.go")]

    registered: dict[str, tuple[str, str]] = {}
    for repo, paths in CCM_FILES.items():
        for path in (name for entry in paths for name in files(repo, entry)):
            registered.update(go_registrations(show(repo, path)))
    if "InsecureServing.AddUnqualifiedFlags" in show("cloud-provider", "options/options.go"):  # --address and --port, to 1.23
        insecure = show("apiserver", "pkg/server/options/deprecated_insecure_serving.go")
        start = insecure.find("func (s *DeprecatedInsecureServingOptions) AddUnqualifiedFlags")
        registered.update(go_registrations(insecure[start : insecure.find("\nfunc ", start + 1)]))
    app = show("cloud-provider", "app/controllermanager.go")
    if "logsapi.AddFlags" in app:
        registered.update(go_registrations(show("component-base", "logs/api/v1/options.go")))
    rows = [("-h, --help" if name == "help" else "-v, --v" if name == "v" else "--" + name, kind, "", note)
            for name, (kind, note) in registered.items()]  # fmt: skip
    if "logsapi.AddFlags" not in app:
        rows += [(flag, kind, "", "") for flag, kind in KLOG_FLAGS if flag.rpartition("--")[2] not in registered]
    if "verflag.AddFlags" in app:  # verflag registers --version through a variable name (VersionVar)
        rows.append(("--version", "version[=true]", "", ""))
    return sorted(rows, key=lambda row: flag_name(row[0]))


def write_excerpt(component: str, version: str, source: str, text: str, rows: Iterable[tuple[str, str, str, str]]) -> str:
    path = os.path.join(SOURCES, f"{component}-{version}.tsv")
    with open(path, "w", encoding="utf-8", newline="\n") as out:
        out.write(f"# component: {component}\n# release: {version}\n# source-key: {source}\n# source: {text}\n")
        out.write("flag\ttype\tdefault\tdeprecated\n")
        out.writelines("\t".join(row).rstrip("\t") + "\n" for row in rows)
    return path


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.tools.flag_table", description=__doc__.split("\n")[0])
    parser.add_argument("--website", help="a generated reference page to turn into an excerpt")
    parser.add_argument("--component")
    parser.add_argument("--release")
    parser.add_argument("--etcd", help="the git directory of an etcd clone with its release tags")
    parser.add_argument("--ccm", nargs=4, metavar=("CLOUD_PROVIDER", "CONTROLLER_MANAGER", "APISERVER", "COMPONENT_BASE"),
                        help="the git directories of clones of the k8s.io modules cloud-controller-manager is built from")  # fmt: skip
    args = parser.parse_args(argv)
    if args.ccm:
        git_dirs = dict(zip(("cloud-provider", "controller-manager", "apiserver", "component-base"), args.ccm))
        for minor in range(22, int(NEWEST.split(".")[1]) + 1):
            tag = f"v0.{minor}.0"
            text = (f"k8s.io/cloud-provider, controller-manager, apiserver and component-base {tag} (Kubernetes 1.{minor}): "
                    "the pflag registrations of the files CCM_FILES names in tests/tools/flag_table.py")  # fmt: skip
            print(write_excerpt("cloud-controller-manager", f"1.{minor}", f"k8s-cloud-provider-{tag}", text, ccm_excerpt(git_dirs, tag)))
        return 0
    if args.website:
        with open(args.website, encoding="utf-8") as page:
            rows = website_excerpt(page.read())
        key = f"website-{args.component}-{args.release}"
        print(write_excerpt(args.component, args.release, key, f"kubernetes/website {os.path.basename(args.website)}", rows))
        return 0
    if args.etcd:
        for tag, kube in ETCD_RELEASES.items():
            rows = etcd_excerpt(args.etcd, tag)
            text = f"etcd-io/etcd {tag}: server/etcdmain/config.go, server/embed/config.go (fs.*Var), server/etcdmain/help.go"
            print(write_excerpt("etcd", kube, f"etcd-{tag}", text, rows))
        return 0
    os.makedirs(TABLES, exist_ok=True)
    for component, complete in components():
        print(write(component, build(component), complete))
    return 0


if __name__ == "__main__":
    sys.exit(main())
