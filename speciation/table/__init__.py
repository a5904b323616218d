"""The table: play in the browser (``speciation serve``; see ``docs/table.md``).

A Starlette app (:mod:`.app`) serves static pages (:file:`static/`) and one websocket
per page; :mod:`.session` holds a game with its seats (people or agents), its decision
history, undo and replay; :mod:`.messages` builds what one seat's page is sent, from that
seat's view only. Needs the ``table`` extra (starlette, uvicorn).
"""
