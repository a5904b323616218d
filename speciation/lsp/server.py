"""The protocol side of the language server (pygls): each request is answered by
:mod:`.analysis`."""
from __future__ import annotations

from urllib.parse import unquote, urlparse

from lsprotocol import types as lsp
from pygls.lsp.server import LanguageServer

from . import analysis
from .. import __version__, rulemessages

_KINDS = {"function": lsp.CompletionItemKind.Function, "macro": lsp.CompletionItemKind.Method,
          "attribute": lsp.CompletionItemKind.Field, "symbol": lsp.CompletionItemKind.EnumMember,
          "symbols": lsp.CompletionItemKind.Enum, "table": lsp.CompletionItemKind.Constant,
          "kind": lsp.CompletionItemKind.Class, "deck": lsp.CompletionItemKind.Module,
          "builtin function": lsp.CompletionItemKind.Function, "builtin verb": lsp.CompletionItemKind.Function,
          "keyword": lsp.CompletionItemKind.Keyword}


def _path(uri: str) -> str:
    return unquote(urlparse(uri).path)


def _uri(path: str) -> str:
    from pathlib import Path
    return Path(path).resolve().as_uri()


def build() -> LanguageServer:
    server = LanguageServer("speciation", __version__)
    # The language of the diagnostics: the editor's (``locale`` in initialize), else the
    # environment's as gettext reads it; English where the rule errors' catalogue has none.
    language: dict[str, str | None] = {"lang": rulemessages.from_environment()}

    @server.feature(lsp.INITIALIZE)
    def initialize(ls: LanguageServer, params: lsp.InitializeParams) -> None:
        if params.locale:
            language["lang"] = params.locale

    def publish(ls: LanguageServer, uri: str) -> None:
        document = ls.workspace.get_text_document(uri)
        problems = analysis.diagnostics(_path(uri), document.source, language["lang"])
        diagnostics = [lsp.Diagnostic(range=lsp.Range(start=lsp.Position(line=p.line, character=p.col),
                                                      end=lsp.Position(line=p.line, character=p.col + 1)),
                                      message=p.message, severity=lsp.DiagnosticSeverity.Error, source="speciation")
                       for p in problems]
        ls.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(uri=uri, diagnostics=diagnostics))

    @server.feature(lsp.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls: LanguageServer, params: lsp.DidOpenTextDocumentParams) -> None:
        publish(ls, params.text_document.uri)

    @server.feature(lsp.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(ls: LanguageServer, params: lsp.DidChangeTextDocumentParams) -> None:
        publish(ls, params.text_document.uri)

    @server.feature(lsp.TEXT_DOCUMENT_DID_SAVE)
    def did_save(ls: LanguageServer, params: lsp.DidSaveTextDocumentParams) -> None:
        analysis.vocabulary_for(_path(params.text_document.uri), fresh=True)
        publish(ls, params.text_document.uri)

    @server.feature(lsp.TEXT_DOCUMENT_COMPLETION, lsp.CompletionOptions(trigger_characters=["."]))
    def completion(ls: LanguageServer, params: lsp.CompletionParams) -> lsp.CompletionList:
        document = ls.workspace.get_text_document(params.text_document.uri)
        found = analysis.completions(_path(params.text_document.uri), document.source,
                                     params.position.line, params.position.character)
        items = [lsp.CompletionItem(label=label, kind=_KINDS.get(kind), detail=detail or kind)
                 for label, kind, detail in found]
        return lsp.CompletionList(is_incomplete=False, items=items)

    @server.feature(lsp.TEXT_DOCUMENT_HOVER)
    def hover(ls: LanguageServer, params: lsp.HoverParams) -> lsp.Hover | None:
        text = _at_position(ls, params, analysis.hover)
        if text is None:
            return None
        return lsp.Hover(contents=lsp.MarkupContent(kind=lsp.MarkupKind.Markdown, value=text))

    @server.feature(lsp.TEXT_DOCUMENT_DEFINITION)
    def definition(ls: LanguageServer, params: lsp.DefinitionParams) -> lsp.Location | None:
        span = _at_position(ls, params, analysis.definition)
        if span is None:
            return None
        at = lsp.Position(line=span.line - 1, character=max(span.col - 1, 0))
        return lsp.Location(uri=_uri(span.path), range=lsp.Range(start=at, end=at))

    return server


def main() -> None:
    build().start_io()


def _at_position(ls, params, ask):
    """Ask the analysis about the position a request names, in the editor's current text."""
    document = ls.workspace.get_text_document(params.text_document.uri)
    return ask(_path(params.text_document.uri), document.source,
               params.position.line, params.position.character)
