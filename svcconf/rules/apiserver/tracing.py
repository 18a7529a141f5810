"""TracingConfiguration rules: the sampling rate range and the collector endpoint as a gRPC target, as component-base checks them."""

from __future__ import annotations

from collections.abc import Iterator

from svcconf.go.url import parse_url
from svcconf.model import Finding

from .. import Context, invalid, rule

SCHEMES = ("dns", "unix", "unix-abstract")


@rule("TracingConfiguration")
def check_sampling(doc: dict, ctx: Context) -> Iterator[Finding]:
    rate = doc.get("samplingRatePerMillion")
    if not isinstance(rate, int) or isinstance(rate, bool):
        return
    if rate < 0:
        yield invalid(("samplingRatePerMillion",), rate, "sampling rate must be positive", "invalid-sampling-rate")
    elif rate > 1_000_000:
        yield invalid(
            ("samplingRatePerMillion",),
            rate,
            "sampling rate per million must be less than or equal to one million",
            "invalid-sampling-rate",
        )


@rule("TracingConfiguration")
def check_endpoint(doc: dict, ctx: Context) -> Iterator[Finding]:
    endpoint = doc.get("endpoint")
    if not isinstance(endpoint, str):
        return
    target = endpoint if "//" in endpoint else "dns://" + endpoint
    scheme, problem = parse_url(target)
    if problem:
        yield invalid(("endpoint",), target, problem, "invalid-tracing-endpoint")
    elif scheme not in SCHEMES:
        yield invalid(
            ("endpoint",),
            target,
            f"unsupported scheme: {scheme}.  Options are none, dns, unix, or unix-abstract.  "
            "See https://github.com/grpc/grpc/blob/master/doc/naming.md",
            "invalid-tracing-endpoint",
        )
