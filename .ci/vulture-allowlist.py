# Names vulture cannot see used: protocols called by libraries, the library API, tested grammar parts.
import svcconf
from svcconf import cli
from svcconf.go import reference
from svcconf.lint import check
from svcconf.load import construct
from svcconf.migrate import emit
from svcconf.server import app

_ = construct.ServerResolver.descend_resolver  # libyaml's composer calls the resolver protocol
_ = construct.ServerResolver.ascend_resolver
_ = (_.current_node, _.current_index)  # the protocol's argument names
_ = emit.round_trip_yaml  # ruamel's YAML object: preserve_quotes is a setting it reads
_ = _.preserve_quotes
_ = check.check_text  # library API for in-memory text
_ = svcconf.__getattr__  # the package's lazy library API (PEP 562)
_ = cli.Parser._get_formatter  # argparse calls it for every argument and help text
_ = reference.NAME  # the grammar's name pattern, kept beside REFERENCE and tested on upstream's cases
_ = app.SvcconfServer.report_server_error  # pygls calls it for a message it cannot handle
