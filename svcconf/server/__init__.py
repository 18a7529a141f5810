"""The language server (`svcconf server`): validate's findings, rule docs, schema help and fixes in the editor.

`incremental` checks an open file document by document and needs nothing beyond svcconf itself;
the modules that speak the protocol import pygls and lsprotocol, the `server` extra, and only
`svcconf server` imports them.
"""
