#!/usr/bin/env python3
"""The language server (tfresolve lsp) as a JSON-RPC server: initialize
and its capabilities, shutdown and exit, and bad input of every kind
that must leave it answering (src/lsp/server.c).

  lsp_server_test.py TFRESOLVE FIXTURE_DIR

  server    initialize (the capabilities), shutdown, exit (status 0).
  robust    malformed JSON, bodies that are no object, bad headers,
            unknown methods and notifications, a document never opened,
            binary junk, invalid UTF-8, 1 MB of text, positions out of
            range: the server answers the next request after each; exit
            without shutdown (status 1).

With the client and checks of tests/lsp_common.py, on copies of
FIXTURE_DIR (fixtures/lsp).  Prints PASS or FAIL per check and
"N passed, M failed" last.
"""
import json  # noqa: F401
import os
import re  # noqa: F401
import shutil  # noqa: F401
import sys
import time  # noqa: F401

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lsp_common import *  # noqa: E402,F401,F403
from lsp_common import main  # noqa: E402


def server_run(check, tool, fixture, root):
    """initialize (the capabilities the method table gives), shutdown
    and exit (status 0)."""
    mod, u = module_copy(fixture, root, "lsp server")
    s = Server(tool, mod)

    # 1. initialize
    r = s.request("initialize", {"processId": os.getpid(), "rootUri": uri(mod),
                                 "capabilities": {}})
    res = (r or {}).get("result") or {}
    caps = res.get("capabilities") or {}
    sync = caps.get("textDocumentSync")
    check(isinstance(sync, dict) and sync.get("openClose") is True
          and sync.get("change") == 2,
          "initialize: textDocumentSync with openClose and incremental change",
          show(r))
    for cap in ("hoverProvider", "completionProvider", "definitionProvider",
                "codeActionProvider"):
        check(bool(caps.get(cap)), "initialize: " + cap, show(r))
    check((res.get("serverInfo") or {}).get("name") == "tfresolve",
          "initialize: serverInfo.name is tfresolve", show(r))
    s.notify("initialized", {})

    # 11. shutdown, then exit: status 0
    r = s.request("shutdown")
    check(r is not None and "result" in r and r["result"] is None
          and "error" not in r, "shutdown: a null result", show(r))
    s.notify("exit")
    status = s.wait_exit()
    check(status == 0, "exit after shutdown: exit status 0",
          "status %s; %s" % (status, s.err.decode("utf-8", "replace")))
    s.finish()
    sanity(check, s, "server run")


def robust_run(check, tool, fixture, root):
    mod = os.path.join(root, "robust")
    shutil.copytree(fixture, mod)
    mod2 = os.path.join(root, "robust-latin1")
    shutil.copytree(fixture, mod2)
    latin1 = b'region = "caf\xe9"\n'  # not UTF-8: the editor saved Latin-1
    with open(os.path.join(mod2, "latin1.auto.tfvars"), "wb") as f:
        f.write(latin1)
    T = uri(mod, "terraform.tfvars")
    never = uri(mod, "never-opened.tfvars")
    s = Server(tool, mod)
    s.request("initialize", {"processId": os.getpid(), "rootUri": uri(mod),
                             "capabilities": {}})
    s.notify("initialized", {})

    def alive(after):
        r = s.request("textDocument/hover", {"textDocument": {"uri": never},
                                             "position": {"line": 0,
                                                          "character": 0}})
        return check(r is not None and "result" in r and r["result"] is None,
                     "after %s: the server answers the next request" % after,
                     s.dead or show(r))

    r = s.request("textDocument/hover", {"textDocument": {"uri": never},
                                         "position": {"line": 0,
                                                      "character": 0}})
    check(r is not None and r.get("result", 1) is None,
          "hover on a document never opened: null", show(r))

    def error_reply(what, code=None):
        r = s.response()
        check(r is not None and r.get("id", 1) is None and "error" in r
              and (code is None or r["error"].get("code") == code),
              "%s: an error with id null%s" %
              (what, " (%d)" % code if code else ""), s.dead or show(r))

    s.send_raw(frame(b'{"jsonrpc": "2.0", "id": 50, "method": "initialize", '))
    error_reply("malformed JSON", -32700)
    alive("malformed JSON")
    for body in (b"[1, 2, 3]", b'"text"', b"42", b"null"):
        s.send_raw(frame(body))
        error_reply("a body that is not an object (%s)" % body.decode(),
                    -32600)
    alive("bodies that are not objects")
    lost = json.dumps({"jsonrpc": "2.0", "id": 51, "method": "shutdown"})
    for what, data in [
            ("Content-Length: abc", b"Content-Length: abc\r\n\r\n"
             + lost.encode()),
            ("Content-Length: -5", b"Content-Length: -5\r\n\r\n"),
            ("a Content-Length too large",
             b"Content-Length: 99999999999999\r\n\r\n" + lost.encode()),
            ("a Content-Length beyond 64 bits",
             b"Content-Length: 99999999999999999999999\r\n\r\n"),
            ("a line that is no header", b"hello there\r\n\r\n"),
            ("a header line of 100 kB", b"X" * 100000 + b"\r\n\r\n")]:
        s.send_raw(data)
        error_reply("a bad header (%s)" % what, -32600)
        alive("a bad header (%s)" % what)
    # a body longer than its Content-Length runs into the next message
    s.send_raw(b"Content-Length: 10\r\n\r\n" + lost.encode())
    error_reply("a body longer than its Content-Length")
    alive("a body longer than its Content-Length")

    r = s.request("tfresolve/noSuchMethod", {})
    check(r is not None and r.get("id") == s.next_id
          and (r.get("error") or {}).get("code") == -32601,
          "an unknown method with an id: error -32601", show(r))
    r = s.request("textDocument/semanticTokens/full",
                  {"textDocument": {"uri": never}})
    check(r is not None and (r.get("error") or {}).get("code") == -32601,
          "an unknown textDocument method: error -32601", show(r))
    alive("unknown methods")
    m = s.mark()
    s.notify("tfresolve/noSuchNotification", {"x": 1})
    s.notify("$/cancelRequest", {"id": 12345})
    ok = alive("unknown notifications")
    answers = [n for n in s.notes[m:] if "method" not in n]
    check(ok and not answers, "unknown notifications: no answer",
          show(answers))

    # documents: binary junk, invalid UTF-8, 1 MB of text
    junk = "".join(chr(i) for i in range(256)) * 256
    JUNK = uri(mod, "junk.auto.tfvars")
    m = s.mark()
    s.open(JUNK, junk, 1)
    p = s.diags(JUNK, m, lambda p: p.get("version") == 1)
    check(p is not None and p["diagnostics"] != []
          and all(0 <= d["range"]["start"]["line"] <= junk.count("\n")
                  for d in p["diagnostics"]),
          "a document of binary junk (NUL included): diagnostics",
          show(p) if p else s.dead or "")
    s.close_doc(JUNK)
    alive("binary junk")
    bad = uri(mod, "bad.auto.tfvars")
    s.send_raw(frame(b'{"jsonrpc": "2.0", "method": "textDocument/didOpen", '
                     b'"params": {"textDocument": {"uri": "' + bad.encode()
                     + b'", "languageId": "x", "version": 1, '
                     b'"text": "region = \\"caf\xe9\\"\\n"}}}'))
    error_reply("a message of invalid UTF-8", -32700)
    alive("a message of invalid UTF-8")
    T2, L1 = uri(mod2, "terraform.tfvars"), uri(mod2, "latin1.auto.tfvars")
    m = s.mark()
    s.open(T2, 'name = "good"\n', 1)
    p = s.diags(L1, m)
    check(find(p, {"start": {"line": 0, "character": 13},
                   "end": {"line": 0, "character": 14}}, 1, None,
               ["Invalid character encoding"]) is not None,
          "a file of invalid UTF-8 in the module: its diagnostic, each bad "
          "byte one character", show(p) if p else s.dead or "")
    s.close_doc(T2)
    alive("a file of invalid UTF-8")

    # every line a problem: positions must not be counted from the start
    # of the text for each (that took minutes for 1 MB)
    entry = '  p%05d = { size = %d, disk = { size_gb = 10, knd = "ssd" } }\n'
    lines = (["pools = {\n"] + [entry % (i, i) for i in range(16500)]
             + ['  zz = { size = 1, disk = { knd = "x" } }\n'])
    big = "".join(lines) + "}\n"
    want = [(n, line.index("knd")) for n, line in enumerate(lines) if n]
    BIG = uri(mod, "big.auto.tfvars")
    m = s.mark()
    t0 = time.monotonic()
    s.open(BIG, big, 1)
    p = s.diags(BIG, m, lambda p: p.get("version") == 1)
    took = time.monotonic() - t0
    got = []
    for d in (p or {}).get("diagnostics", []):
        a, b = d["range"]["start"], d["range"]["end"]
        if d.get("code") == 11 and b == {"line": a["line"],
                                         "character": a["character"] + 3}:
            got.append((a["line"], a["character"]))
    got.sort()
    check(len(big) > 1 << 20 and got == want,
          "a document of 1 MB with %d problems: each at its range (%.1f s)"
          % (len(want), took), show(p) if p else s.dead or "")
    h = s.at("textDocument/hover", BIG, pos(big, "zz"))
    md = markdown(h)
    check(md is not None and "var.pools.zz" in md,
          "a document of 1 MB: hover at its end", show(h))
    s.close_doc(BIG)
    alive("a document of 1 MB")

    # positions out of range
    text = 'name = "good"\nnetwork = { cidr = "10.0.0.0/8" }\n'
    m = s.mark()
    s.open(T, text, 1)
    s.diags(T, m, lambda p: p.get("version") == 1)
    far = [{"line": 10 ** 6, "character": 10 ** 6},
           {"line": 0, "character": 10 ** 9},
           {"line": -1, "character": -7},
           {"line": 2 ** 40, "character": 2 ** 40},
           {"line": "one", "character": None}, None, {}]
    for method in ("hover", "completion", "definition"):
        answered = 0
        for where in far:
            r = s.request("textDocument/" + method,
                          {"textDocument": {"uri": T}, "position": where})
            answered += r is not None and ("result" in r or "error" in r)
        check(answered == len(far), "%s at positions out of range: answered"
              % method, s.dead or "")
    fake = {"range": {"start": far[0], "end": far[0]},
            "message": 'Did you mean "network"?'}
    r = s.request("textDocument/codeAction", {
        "textDocument": {"uri": T}, "range": fake["range"],
        "context": {"diagnostics": [fake, {"message": 7}, None]}})
    check(r is not None and "result" in r,
          "codeAction with ranges out of range: answered", show(r))
    m = s.mark()
    s.change(T, 2, {"range": {"start": far[0], "end": far[1]},
                    "text": "debug = true\n"},
             {"range": {"start": far[2], "end": far[0]}, "text": 7},
             {"range": {"start": far[1], "end": far[2]}, "text": ""})
    p = s.diags(T, m, lambda p: p.get("version") == 2)
    check(p is not None, "didChange with ranges out of range: diagnostics "
          "still published", s.dead or "")
    alive("positions out of range")
    r = s.request("textDocument/hover", {"textDocument": "x", "position": 3})
    check(r is not None and "result" in r, "hover with params of the wrong "
          "types: answered", show(r))
    r = s.request("textDocument/hover", "not an object")
    check(r is not None and "result" in r, "hover with params not an "
          "object: answered", show(r))

    # 11. exit without shutdown: status 1
    s.notify("exit")
    status = s.wait_exit()
    check(status == 1, "exit without shutdown: exit status 1",
          "status %s; %s" % (status, s.err.decode("utf-8", "replace")))
    s.finish()
    sanity(check, s, "robustness run")


if __name__ == "__main__":
    sys.exit(main([server_run, robust_run]))
