"""Ingress, EndpointSlice and RBAC v1alpha1 subjects (the conversions of pkg/apis/networking, pkg/apis/discovery and pkg/apis/rbac)."""

from __future__ import annotations

import re

from ...go.numbers import parse_uint
from ..ops import Context, Review, get, insert_after, leaves, move, new_map, pop, rename, replace_value, walk
from ..steps import Custom, same_shape, step

BACKENDS = (("spec", "defaultBackend"), ("spec", "rules", "*", "http", "paths", "*", "backend"))


_SUBDOMAIN = re.compile(r"^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$")


def _backend_reviews(doc: dict, ctx: Context) -> list[Review]:
    out = []
    for path, tls in walk(doc, ("spec", "tls", "*")):
        secret = tls.get("secretName") if isinstance(tls, dict) else None
        if isinstance(secret, str) and secret and (len(secret) > 253 or not _SUBDOMAIN.match(secret)):
            out.append(
                Review(
                    (*path, "secretName"), f"secretName {secret!r} is not a valid Secret name; v1 refuses it on create", "rename the Secret"
                )
            )
    for parent in (("spec", "backend"), ("spec", "rules", "*", "http", "paths", "*", "backend")):
        for path, backend in walk(doc, parent):
            if isinstance(backend, dict) and "serviceName" in backend and "servicePort" not in backend:
                out.append(
                    Review(path, "the backend names a service but no servicePort; networking.k8s.io/v1 requires a port", "add servicePort")
                )
            if isinstance(backend, dict) and "serviceName" in backend and "resource" in backend:
                out.append(Review(path, "the backend sets both a service and a resource; v1 allows one", "keep one of them"))
    return out


def _ingress(doc: dict, ctx: Context) -> None:
    spec = doc.get("spec")
    if isinstance(spec, dict):
        rename(spec, "backend", "defaultBackend", ctx)
    for parent in BACKENDS:
        for path, backend in walk(doc, parent):
            if isinstance(backend, dict) and ("serviceName" in backend or "servicePort" in backend):
                _service(backend, path, ctx)
    for path, item in walk(doc, ("spec", "rules", "*", "http", "paths", "*")):
        if isinstance(item, dict) and "pathType" not in item:
            insert_after(item, ("path",), "pathType", "ImplementationSpecific")
            ctx.note((*path, "pathType"), "pathType ImplementationSpecific written: the v1beta1 default (v1 requires it)")
    if get(doc, "metadata", "annotations", CLASS_ANNOTATION) is not None and not get(doc, "spec", "ingressClassName"):
        # Controllers still read the annotation; v1 has a field for it (setting both differently is refused).
        ctx.note(
            ("metadata", "annotations", CLASS_ANNOTATION),
            f"annotation {CLASS_ANNOTATION} kept; networking.k8s.io/v1 also offers spec.ingressClassName",
        )


CLASS_ANNOTATION = "kubernetes.io/ingress.class"


def _service(backend: dict, path: tuple, ctx: Context) -> None:
    service = new_map(backend)
    first = "serviceName" if "serviceName" in backend else "servicePort"
    insert_after_key = list(backend).index(first)
    from ..ops import insert

    insert(backend, insert_after_key, "service", service)
    if "serviceName" in backend:
        move(backend, "serviceName", service, "name", ctx)
    if "servicePort" in backend:
        port_value = backend["servicePort"]
        port = new_map(backend)
        service["port"] = port
        # ASCII digits that fit a 32-bit port become its number; other text stays a name (validate judges it).
        number = parse_uint(port_value, 32) if isinstance(port_value, str) else None
        if number is not None:
            backend["servicePort"] = number
            ctx.note(
                (*path, "service", "port", "number"),
                f'servicePort "{port_value}" is a string of digits: written as port.number (the server would make it an invalid port name)',
                warn=True,
            )
            move(backend, "servicePort", port, "number", ctx)
        else:
            move(backend, "servicePort", port, "number" if isinstance(port_value, int) else "name", ctx)


step("extensions/v1beta1", "Ingress", "networking.k8s.io/v1", Custom(_ingress, lambda doc, ctx: _backend_reviews(doc, ctx)))
step("networking.k8s.io/v1beta1", "Ingress", "networking.k8s.io/v1", Custom(_ingress, lambda doc, ctx: _backend_reviews(doc, ctx)))

HOSTNAME, ZONE = "kubernetes.io/hostname", "topology.kubernetes.io/zone"


def _topology_reviews(doc: dict, ctx: Context) -> list[Review]:
    out = []
    for path, endpoint in walk(doc, ("endpoints", "*")):
        topology = get(endpoint, "topology")
        if isinstance(topology, dict) and HOSTNAME in topology and "nodeName" in endpoint and endpoint["nodeName"] != topology[HOSTNAME]:
            out.append(
                Review(
                    (*path, "topology", HOSTNAME),
                    f"topology hostname {topology[HOSTNAME]!r} differs from nodeName {endpoint['nodeName']!r}; v1 keeps only nodeName",
                    "decide which node is right and delete the other",
                )
            )
    if doc.get("addressType") == "IP":
        out.append(Review(("addressType",), "addressType IP no longer exists", "use IPv4 or IPv6"))
    return out


def _topology(doc: dict, ctx: Context) -> None:
    for path, endpoint in walk(doc, ("endpoints", "*")):
        if not isinstance(endpoint, dict) or not isinstance(endpoint.get("topology"), dict):
            continue
        topology = endpoint["topology"]
        from ..ops import index_of

        position = index_of(endpoint, "topology")
        for key, new in ((HOSTNAME, "nodeName"), (ZONE, "zone")):
            if key in topology and new not in endpoint:
                move(topology, key, endpoint, new, ctx, position=position + 1)
                position += 1
            elif key in topology:
                pop(topology, key)
        value, _comment = pop(endpoint, "topology")
        if value:
            kept = ", ".join(f"{k}={v}" for k, v in value.items())
            ctx.note((*path, "topology"), f"topology keys dropped (v1 has no writable place for them): {kept}", tuple(leaves(value)))


step("discovery.k8s.io/v1beta1", "EndpointSlice", "discovery.k8s.io/v1", Custom(_topology, _topology_reviews))
step("discovery.k8s.io/v1alpha1", "EndpointSlice", "discovery.k8s.io/v1beta1", Custom(lambda d, c: None, _topology_reviews))


def _subjects(doc: dict, ctx: Context) -> None:
    for path, subject in walk(doc, ("subjects", "*")):
        if not isinstance(subject, dict):
            continue
        if subject.get("kind") == "User" and subject.get("name") == "*":
            replace_value(subject, "kind", "Group", ctx)
            replace_value(subject, "name", "system:authenticated", ctx)
            ctx.note((*path, "name"), 'v1alpha1 User "*" (every authenticated user) written as Group system:authenticated', warn=True)
        if "apiVersion" not in subject:
            continue
        kind, version = subject.get("kind"), subject.get("apiVersion")
        if kind == "ServiceAccount":
            pop(subject, "apiVersion")
            ctx.note((*path, "apiVersion"), f"subject apiVersion {version} dropped: ServiceAccount subjects have no apiGroup")
            continue
        group = "rbac.authorization.k8s.io" if kind in ("User", "Group") else str(version).rpartition("/")[0]
        rename(subject, "apiVersion", "apiGroup", ctx)
        subject["apiGroup"] = group
        if group != version:
            ctx.note((*path, "apiGroup"), f"subject apiVersion {version} written as apiGroup {group}")


same_shape("rbac.authorization.k8s.io/v1alpha1", "ClusterRole Role", "rbac.authorization.k8s.io/v1")
step("rbac.authorization.k8s.io/v1alpha1", "ClusterRoleBinding", "rbac.authorization.k8s.io/v1", Custom(_subjects))
step("rbac.authorization.k8s.io/v1alpha1", "RoleBinding", "rbac.authorization.k8s.io/v1", Custom(_subjects))
