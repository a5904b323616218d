"""A language server for rule files (``speciation lsp``; needs the ``lsp`` extra, pygls):
diagnostics as you type (the errors ``speciation check`` reports), completion of names,
attributes and verbs, hover with the vocabulary's docs, go to definition across layers."""
