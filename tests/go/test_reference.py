"""svcconf.go.reference against distribution/reference's regexp_test.go and kubeadm's TestValidateImageRepository
(kubernetes cmd/kubeadm/app/apis/kubeadm/validation/validation_test.go)."""

from __future__ import annotations

import pytest

from svcconf.go.reference import NAME, REFERENCE, valid_image_repository

DIGEST = "sha256:be178c0543eb17f5f3043021c9e5fcf30285e557a4fc309cce97ff9ca6182912"

# TestReferenceRegexp
REFERENCES = [
    ("registry.com:8080/myapp:tag", True),
    (f"registry.com:8080/myapp@{DIGEST}", True),
    (f"registry.com:8080/myapp:tag2@{DIGEST}", True),
    ("registry.com:8080/myapp@sha256:badbadbadbad", False),
    ("registry.com:8080/myapp:invalid~tag", False),
    ("bad_hostname.com:8080/myapp:tag", False),
    (f"localhost:8080@{DIGEST}", True),
    (f"localhost:8080/name@{DIGEST}", True),
    (f"localhost:http/name@{DIGEST}", False),
    (f"localhost@{DIGEST}", True),
    ("registry.com:8080/myapp@bad", False),
    ("registry.com:8080/myapp@2bad", False),
]

# TestFullNameRegexp
NAMES = [
    *[(name, True) for name in ("short", "simple/name", "library/ubuntu", "docker/stevvooe/app", "a/a/a/a", "a", "a/aa")],
    *[(name, True) for name in ("aa/aa/aa/aa/aa/aa/aa/aa/aa/bb/bb/bb/bb/bb/bb", "aa/aa/bb/bb/bb", "a/aa/a", "foo.com")],
    *[(name, True) for name in ("foo.com:8080/bar", "foo.com/bar", "foo.com/bar/baz", "localhost:8080/bar")],
    *[(name, True) for name in ("sub-dom1.foo.com/bar/baz/quux", "blog.foo.com/bar/baz", "aa-a/a", "a/" * 128 + "a")],
    *[(name, True) for name in ("foo_bar", "foo_bar.com", "foo.com/foo_bar", "b.gcr.io/test.example.com/my-app")],
    *[(name, True) for name in ("xn--n3h.com/myimage", "xn--7o8h.com/myimage", "example.com/xn--7o8h.com/myimage")],
    *[(name, True) for name in ("example.com/some_separator__underscore/myimage", "do__cker/docker", "Asdf.com/foo/bar")],
    ("registry.io/foo/project--id.module--name.ver---sion--name", True),
    *[(name, False) for name in ("", "a/a/a/a/", "a//a/a", "foo.com/", "foo.com:http/bar", "a^a", "aa/asdf$$^/aa")],
    *[(name, False) for name in ("asdf$$^/aa", "a-/a/a/a", "foo.com/a-/a/a", "-foo/bar", "foo/bar-", "foo-/bar")],
    *[(name, False) for name in ("foo/-bar", "_foo/bar", "foo_bar.com:8080", "foo_bar.com:8080/app", "____/____")],
    *[(name, False) for name in ("_docker/_docker", "docker_/docker_", "example.com/__underscore/myimage")],
    *[(name, False) for name in ("example.com/..dots/myimage", "example.com/.dots/myimage", "docker./docker")],
    *[(name, False) for name in ("example.com/nodouble..dots/myimage", ".docker/docker", "docker-/docker")],
    *[(name, False) for name in ("-docker/docker", "do..cker/docker", "do__cker:8080/docker", "Foo/FarB")],
]

# kubeadm TestValidateImageRepository, then TestDomainRegexp's hosts (with IPv6 literals) as repositories
REPOSITORIES = [
    *[(repo, True) for repo in ("a", "a.b.c", "a.b.c/repo", "a:5000", "a.b.c:5000", "a.b.c:5000/repo", "a/b/c")],
    ("127.0.0.1:5000/repo", True),
    *[(repo, False) for repo in ("", "a.b/c\n\t\t\ts", " a.b.c", "a.b c", "a.b.c:5000/", "https://a.b.c:5000", "a//b/c")],
    ("a.b.c:5000/test:1.0", False),
    *[(repo, True) for repo in ("test.com:10304", "localhost:8080", "ab.c-om", "0101.com", "b.gbc.io:443", "Asdf.com")],
    *[(repo, True) for repo in ("192.168.1.1:75050", "[fd00:1:2::3]:75050", "[2001:0db8:85a3:0000:0000:8a2e:0370:7334]:75050")],
    *[(repo, False) for repo in ("test.com:http", "-ab.com", "ab-.com", "ab.-com", "ab.com-", "[fd00:1:2::3]75050")],
    *[(repo, False) for repo in ("[fd00:1:2::3]::75050", "[fd00:1:2::3%eth0]:75050", "fd00:1:2::3:75050")],
    ("registry.k8s.io\n", False),  # Go's $ is the end of the text
]


@pytest.mark.parametrize(("text", "valid"), REFERENCES)
def test_reference(text: str, valid: bool) -> None:
    assert bool(REFERENCE.match(text)) is valid


@pytest.mark.parametrize(("text", "valid"), NAMES)
def test_name(text: str, valid: bool) -> None:
    assert bool(NAME.match(text)) is valid


@pytest.mark.parametrize(("repository", "valid"), REPOSITORIES)
def test_image_repository(repository: str, valid: bool) -> None:
    assert valid_image_repository(repository) is valid
