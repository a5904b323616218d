"""The rules language: loading, schemas, grammar and compiler."""
