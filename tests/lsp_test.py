#!/usr/bin/env python3
"""The language server (tfresolve lsp, issue 18) over its protocol.

  lsp_test.py TFRESOLVE FIXTURE_DIR

A small LSP client of our own (JSON-RPC with Content-Length framing over
the server's standard input and output) drives `tfresolve lsp` on copies
of FIXTURE_DIR (fixtures/lsp; the tree is never written), in short server
runs:

  main      initialize; the diagnostics of opened documents (their text,
            not the files on disk: a document whose file does not exist,
            one whose file says something else) at their ranges; full and
            incremental changes, the published version, a fix that
            empties the list; a change of the open main.tf re-checks the
            open tfvars; hover, completion, definition, quick fixes;
            .tfvars.json; shutdown and exit (status 0).
  settings  varFiles in initializationOptions; strict through
            workspace/didChangeConfiguration; a request after shutdown.
  tree      a module tree (fixtures/lsp-tree beside FIXTURE_DIR): a
            child module's failure at the tfvars line whose value causes
            it and at the module argument of the open caller's file, with
            Terraform's words and then the instance; hover listing the
            child variables a key reaches (value, rules; a sensitive
            value never); an edit of a child's file; the modules setting
            off.
  states    (issue 28) a client that watches files: a varFiles entry
            that does not exist, Emacs's lock file of an auto file, a
            broken other .tf, a tfvars without declarations, files
            changed on disk (didChangeWatchedFiles, didSave), publishes
            only of what changed.
  fallback  a client that watches nothing: files changed on disk seen
            by their modification times.
  robust    malformed JSON, bodies that are no object, bad headers,
            unknown methods and notifications, a document never opened,
            binary junk, invalid UTF-8, 1 MB of text, positions out of
            range: the server answers the next request after each; exit
            without shutdown (status 1).

The sensitive variable's value is set in documents of three runs (in
the tree run passed down to a child whose rule fails with a message that
interpolates it): it must not appear in anything any server writes.  Every read waits at most
READ_LIMIT seconds and every server is killed after RUN_LIMIT: a hung
server is a failure, never a hang of the suite.  No server may report a
sanitizer error on its standard error.

Prints PASS or FAIL per check and "N passed, M failed" last.
"""
import json
import os
import queue
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import traceback
import urllib.parse

READ_LIMIT = 20  # seconds: the longest wait for any one message
RUN_LIMIT = 120  # seconds: a server still running then is killed

SECRET = "CANARY-s3cr3t-7f1d"
TREE_SECRET = "CANARY-tr33"  # short: the child's rule fails

# terraform.tfvars as the editor has it (the file on disk says other
# things): one problem of each kind.
T1 = """\
# opened with other text than the file on disk
name           = "Bad-Name"
instance_count = "three"
db_password    = "%s"
instance_conut = 3
network = {
  cidr          = "10.1.0.0/16"
  adress_prefix = "10.1.0.0/24"
}
pools = {
  web = { size = 2, disk = { size_gb = 10, knd = "hdd" } }
}
debug = true
""" % SECRET

# The same once every problem is fixed: region is not set, and network's
# object has an empty line for completion.
T_CLEAN = """\
# opened with other text than the file on disk
name           = "good"
instance_count = 3
db_password    = "%s"
network = {
  cidr           = "10.1.0.0/16"
  address_prefix = "10.1.0.0/24"

}
pools = {
  web = { size = 2, disk = { size_gb = 10, kind = "hdd" } }
}
debug = true

""" % SECRET

J1 = """\
{
  "network": {
    "cidr": "10.2.0.0/16",
    "adress_prefix": "10.2.0.0/24"
  },
  "instance_count": "lots"
}
"""

SANITIZER = re.compile(r"AddressSanitizer|LeakSanitizer|runtime error:")

SERVERS = []  # every server started, to be killed and searched at the end


# ---- positions --------------------------------------------------------------

def utf16(s):
    return len(s.encode("utf-16-le")) // 2


def pos(text, needle, after=None):
    """LSP's position of needle in text (after the text after, if given)."""
    i = text.index(needle, text.index(after) if after else 0)
    bol = text.rfind("\n", 0, i) + 1
    return {"line": text.count("\n", 0, i), "character": utf16(text[bol:i])}


def rng(text, needle, after=None):
    """The range of needle (one line) in text."""
    s = pos(text, needle, after)
    return {"start": s, "end": {"line": s["line"],
                                "character": s["character"] + utf16(needle)}}


def uri(*parts):
    return "file://" + urllib.parse.quote(os.path.join(*parts))


def frame(body):
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def show(x, limit=1500):
    text = json.dumps(x)
    return text if len(text) <= limit else text[:limit] + "..."


# ---- the client -------------------------------------------------------------

class Server:
    """One `tfresolve lsp` process and what it wrote."""

    def __init__(self, tool, cwd):
        self.p = subprocess.Popen([tool, "lsp"], cwd=cwd,
                                  stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE)
        self.inbox = queue.Queue()
        self.out = bytearray()  # all of its standard output
        self.err = bytearray()
        self.bad_frames = []  # what was not Content-Length framed JSON
        self.notes = []  # messages not yet claimed as a response, in order
        self.next_id = 0
        self.dead = None  # why no more messages will be read
        SERVERS.append(self)
        self.timer = threading.Timer(RUN_LIMIT, self.kill)
        self.timer.daemon = True
        self.timer.start()
        self.threads = [threading.Thread(target=self._read, daemon=True),
                        threading.Thread(target=self._read_err, daemon=True)]
        for t in self.threads:
            t.start()

    def _read(self):
        fd = self.p.stdout.fileno()
        buf = bytearray()
        while True:
            chunk = os.read(fd, 1 << 16)
            if not chunk:
                self.inbox.put(None)
                return
            self.out += chunk
            buf += chunk
            while True:
                end = buf.find(b"\r\n\r\n")
                if end < 0:
                    break
                m = re.fullmatch(rb"Content-Length: (\d+)", bytes(buf[:end]))
                if not m:
                    self.bad_frames.append(bytes(buf[:200]))
                    self.inbox.put(None)
                    return
                n = int(m.group(1))
                if len(buf) < end + 4 + n:
                    break
                body = bytes(buf[end + 4:end + 4 + n])
                del buf[:end + 4 + n]
                try:
                    msg = json.loads(body.decode("utf-8"))
                except ValueError:
                    self.bad_frames.append(body[:200])
                    continue
                self.inbox.put(msg if isinstance(msg, dict) else {})

    def _read_err(self):
        for chunk in iter(lambda: self.p.stderr.read1(1 << 16), b""):
            self.err += chunk

    def kill(self):
        if self.p.poll() is None:
            self.p.kill()

    def get(self, deadline):
        """The next message, or None (then the server is dead to us)."""
        if self.dead:
            return None
        try:
            msg = self.inbox.get(timeout=max(0.0, deadline - time.monotonic()))
        except queue.Empty:
            self.dead = "no message within %d s: killed" % READ_LIMIT
            self.kill()
            return None
        if msg is None:
            self.dead = "its output ended (exit status %s)" % self.p.poll()
        return msg

    def send_raw(self, data):
        try:
            self.p.stdin.write(data)
            self.p.stdin.flush()
        except OSError:
            self.dead = self.dead or "its input is closed"

    def send(self, msg):
        msg["jsonrpc"] = "2.0"
        self.send_raw(frame(json.dumps(msg).encode()))

    def notify(self, method, params=None):
        self.send({"method": method, "params": params})

    def request(self, method, params=None):
        """The response (a dict), or None."""
        self.next_id += 1
        self.send({"id": self.next_id, "method": method, "params": params})
        return self.response(self.next_id)

    def response(self, rid=None):
        """The response with id rid (None: the next response of any id);
        the other messages on the way are kept in notes."""
        deadline = time.monotonic() + READ_LIMIT
        while True:
            msg = self.get(deadline)
            if msg is None:
                return None
            if "method" not in msg and (rid is None or msg.get("id") == rid):
                return msg
            self.notes.append(msg)

    def mark(self):
        return len(self.notes)

    def diags(self, doc, since, pred=lambda p: True):
        """The first publishDiagnostics for doc from notes[since] on that
        pred accepts (waiting for it), or None."""
        deadline = time.monotonic() + READ_LIMIT
        i = since
        while True:
            while i < len(self.notes):
                m = self.notes[i]
                i += 1
                p = m.get("params")
                if (m.get("method") == "textDocument/publishDiagnostics"
                        and isinstance(p, dict) and p.get("uri") == doc
                        and pred(p)):
                    return p
            msg = self.get(deadline)
            if msg is None:
                return None
            self.notes.append(msg)

    def latest(self, doc):
        """The diagnostics doc has now: the last publishDiagnostics for
        it, once everything sent before is resolved (a request about a
        document makes the server resolve first), or None.  The server
        publishes only what changed (issue 28): a file whose list stays
        the same gets no new publish."""
        self.request("textDocument/tfresolveBarrier",
                     {"textDocument": {"uri": "file:///nonexistent"}})
        for m in reversed(self.notes):
            p = m.get("params")
            if (m.get("method") == "textDocument/publishDiagnostics"
                    and isinstance(p, dict) and p.get("uri") == doc):
                return p
        return None

    def open(self, doc, text, version=1):
        self.notify("textDocument/didOpen", {"textDocument": {
            "uri": doc, "languageId": "terraform-vars", "version": version,
            "text": text}})

    def change(self, doc, version, *changes):
        self.notify("textDocument/didChange", {
            "textDocument": {"uri": doc, "version": version},
            "contentChanges": list(changes)})

    def close_doc(self, doc):
        self.notify("textDocument/didClose", {"textDocument": {"uri": doc}})

    def at(self, method, doc, position):
        """The result of a request at a position of doc (None too when
        there is no answer)."""
        r = self.request(method, {"textDocument": {"uri": doc},
                                  "position": position})
        return r.get("result") if r else None

    def wait_exit(self):
        """The exit status once the server ends by itself (its input still
        open: the end of input is no exit), or None."""
        try:
            return self.p.wait(timeout=READ_LIMIT)
        except subprocess.TimeoutExpired:
            self.kill()
            return None

    def finish(self):
        """Everything it wrote, once it is gone."""
        self.timer.cancel()
        self.kill()
        self.p.wait()
        for t in self.threads:
            t.join(READ_LIMIT)
        return bytes(self.out) + bytes(self.err)


class Checks:
    def __init__(self):
        self.passed = self.failed = 0

    def __call__(self, ok, what, detail=""):
        if ok:
            self.passed += 1
            print("PASS " + what)
        else:
            self.failed += 1
            print("FAIL " + what
                  + ("\n    " + detail[-3000:] if detail else ""))
        return ok

    def done(self):
        print("%d passed, %d failed" % (self.passed, self.failed))
        return 1 if self.failed else 0


def find(params, where, severity=None, code=None, words=()):
    """The diagnostic of params at range where with that severity, code
    and words in its message, or None."""
    for d in (params or {}).get("diagnostics", []):
        if (d.get("range") == where
                and (severity is None or d.get("severity") == severity)
                and (code is None or d.get("code") == code)
                and all(w in d.get("message", "") for w in words)):
            return d
    return None


def markdown(result):
    c = result.get("contents") if isinstance(result, dict) else None
    if isinstance(c, dict) and c.get("kind") == "markdown":
        return c.get("value", "")
    return None


def labels(result):
    items = result.get("items", []) if isinstance(result, dict) else result
    return {i["label"]: i for i in items or []}


def quickfix(result, doc, where, new_text):
    """Whether the code actions offer a quick fix replacing where in doc
    with new_text."""
    for a in result or []:
        edit = a.get("edit", {}).get("changes", {}).get(doc)
        if (a.get("kind") == "quickfix"
                and edit == [{"range": where, "newText": new_text}]):
            return True
    return False


def sanity(check, s, label):
    """What every run must show: well-framed JSON, no sanitizer report."""
    check(not s.bad_frames, "%s: every message is Content-Length framed JSON"
          % label, show([f.decode("latin-1") for f in s.bad_frames]))
    errors = SANITIZER.findall(s.err.decode("utf-8", "replace"))
    check(not errors, "%s: no sanitizer report" % label,
          s.err.decode("utf-8", "replace"))


# ---- the main run -----------------------------------------------------------

def main_run(check, tool, fixture, root):
    mod = os.path.join(root, "lsp module")  # a space: %20 in the URIs
    shutil.copytree(fixture, mod)
    main_tf = open(os.path.join(mod, "main.tf")).read()
    T, E = uri(mod, "terraform.tfvars"), uri(mod, "extra.auto.tfvars")
    J, V = uri(mod, "x.auto.tfvars.json"), uri(mod, "main.tf")
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

    # 2. didOpen: a document whose file on disk says other things
    m = s.mark()
    s.open(T, T1, 1)
    p = s.diags(T, m, lambda p: p.get("version") == 1)
    check(p is not None, "didOpen terraform.tfvars: its diagnostics are "
          "published with version 1", s.dead or "")
    t1_diags = {}
    for what, needle, sev, code, words in [
            ("a conversion error", '"three"', 1, None,
             ["Invalid value for input variable", "a number is required"]),
            ("a failed validation rule, with its error_message", '"Bad-Name"',
             1, None, ["Invalid value for variable",
                       "The name must be lowercase letters only."]),
            ("an undeclared variable (warning at the name, did you mean)",
             "instance_conut", 2, None,
             ["undeclared variable", 'Did you mean "instance_count"']),
            ("a misspelt object attribute (warning, code 11, at the key)",
             "adress_prefix", 2, 11,
             ['Did you mean to set attribute "address_prefix"']),
            ("a misspelt nested attribute", "knd", 2, 11,
             ['Did you mean to set attribute "kind"'])]:
        d = find(p, rng(T1, needle), sev, code, words)
        t1_diags[needle] = d
        check(d is not None, "didOpen terraform.tfvars: %s at %s" %
              (what, show(rng(T1, needle)["start"])), show(p, 4000))
    check(p is not None and len(p["diagnostics"]) == 5,
          "didOpen terraform.tfvars: no other problem (the file on disk has "
          "another)", show(p, 4000))

    # 8. quick fixes for "did you mean"
    for needle, name in [("adress_prefix", "address_prefix"),
                         ("knd", "kind"),
                         ("instance_conut", "instance_count")]:
        d = t1_diags.get(needle)
        result = None
        if d:
            r = s.request("textDocument/codeAction", {
                "textDocument": {"uri": T}, "range": d["range"],
                "context": {"diagnostics": [d]}})
            result = (r or {}).get("result")
        check(quickfix(result, T, rng(T1, needle), name),
              "codeAction: a quickfix replaces %s with %s" % (needle, name),
              show(result))

    # 2, 3. a document whose file does not exist: a syntax error, then
    # changes, full and incremental, and its fix
    e1 = 'debug = false\nregion = "eu" "west"\n'
    m = s.mark()
    s.open(E, e1, 1)
    p = s.diags(E, m, lambda p: p.get("version") == 1)
    west = rng(e1, '"west"')  # the token after the value: its quote
    west["end"]["character"] = west["start"]["character"] + 1
    check(find(p, west, 1, None,
               ["Missing newline after argument"]) is not None
          and len(p["diagnostics"]) == 1,
          "didOpen of a document whose file does not exist: its syntax "
          "error at its range", show(p))
    e2 = 'debug = "maybe"\n'
    m = s.mark()
    s.change(E, 2, {"text": e2})
    p = s.diags(E, m, lambda p: p.get("version") == 2)
    check(find(p, rng(e2, '"maybe"'), 1, None,
               ["Invalid value for input variable", "a bool is required"])
          is not None and len(p["diagnostics"]) == 1,
          "didChange (full text): the new problem, version 2", show(p))
    m = s.mark()
    s.change(E, 3, {"range": rng(e2, '"maybe"'), "text": "true"})
    p = s.diags(E, m, lambda p: p.get("version") == 3)
    check(p is not None and p["diagnostics"] == [],
          "didChange (incremental) fixing it: an empty list, version 3",
          show(p))
    m = s.mark()
    s.close_doc(E)
    p = s.diags(E, m)
    check(p is not None and p["diagnostics"] == [],
          "didClose of a document whose file does not exist: its list is "
          "cleared", show(p))

    # 3. terraform.tfvars fixed step by step
    t2 = T1.replace('"three"', "3")
    m = s.mark()
    s.change(T, 2, {"text": t2})
    p = s.diags(T, m, lambda p: p.get("version") == 2)
    check(p is not None and len(p["diagnostics"]) == 4
          and find(p, rng(t2, "instance_conut"), 2) is not None,
          "didChange (full text) fixing the conversion error: the other four "
          "problems at their new ranges, version 2", show(p, 4000))
    t3 = t2.replace('"Bad-Name"', '"good"')
    m = s.mark()
    s.change(T, 3, {"range": rng(t2, '"Bad-Name"'), "text": '"good"'})
    p = s.diags(T, m, lambda p: p.get("version") == 3)
    check(p is not None and len(p["diagnostics"]) == 3
          and find(p, rng(t3, "knd"), 2, 11) is not None,
          "didChange (incremental) fixing the rule: three problems left, "
          "version 3", show(p, 4000))
    m = s.mark()
    s.change(T, 4, {"text": T_CLEAN})
    p = s.diags(T, m, lambda p: p.get("version") == 4)
    check(p is not None and p["diagnostics"] == [],
          "didChange fixing everything: an empty list, version 4", show(p))

    # an edit, then at once a request about another document: the edit's
    # diagnostics come first (the request does not wait for input to
    # pause, nor is it answered from before the edit)
    P = uri(mod, "probe.tfvars")
    s.open(P, "")
    s.diags(P, s.mark())
    m = s.mark()
    s.send_raw(frame(json.dumps({  # in one write: the server sees both
        "jsonrpc": "2.0", "method": "textDocument/didChange", "params": {
            "textDocument": {"uri": T, "version": 5},
            "contentChanges": [{"text": t2}]}}).encode()) +
        frame(json.dumps({
            "jsonrpc": "2.0", "id": 900, "method": "textDocument/completion",
            "params": {"textDocument": {"uri": P},
                       "position": {"line": 0, "character": 0}}}).encode()))
    r = s.response(900)
    before = [n for n in s.notes[m:]
              if n.get("method") == "textDocument/publishDiagnostics"
              and n["params"].get("uri") == T
              and n["params"].get("version") == 5]
    check(r is not None and "result" in r and len(before) == 1
          and len(before[0]["params"]["diagnostics"]) == 4,
          "a request right after an edit of another document: that edit's "
          "diagnostics (version 5) are published before the answer",
          show(s.notes[m:], 3000))
    s.close_doc(P)
    m = s.mark()
    s.change(T, 6, {"text": T_CLEAN})
    s.diags(T, m, lambda p: p.get("version") == 6)

    # 4. the open main.tf changes: the open tfvars is checked again
    m = s.mark()
    s.open(V, main_tf, 1)
    stricter = main_tf.replace(  # debug becomes a number
        '  type        = bool\n  description = "Whether to log more."\n'
        '  default     = false',
        '  type        = number\n  description = "Whether to log more."\n'
        '  default     = 0')
    s.change(V, 2, {"text": stricter})
    p = s.diags(T, m, lambda p: p["diagnostics"] != [])
    check(stricter != main_tf and
          find(p, rng(T_CLEAN, "true", after="debug ="), 1, None,
               ["Invalid value for input variable", "number required"])
          is not None,
          "didChange of the open main.tf (another type): terraform.tfvars "
          "is published again with the new error", show(p))
    m = s.mark()
    s.change(V, 3, {"text": main_tf})
    p = s.diags(T, m)
    check(p is not None and p["diagnostics"] == [] and p.get("version") == 6,
          "main.tf changed back: terraform.tfvars's list is empty again",
          show(p))

    # 5. hover
    h = s.at("textDocument/hover", T, pos(T_CLEAN, "network"))
    md = markdown(h)
    line = pos(T_CLEAN, "network")["line"] + 1
    check(md is not None and "object({" in md
          and re.search(r"cidr *= *string", md)  # folded (issue 28)
          and "The network to create." in md
          and "terraform.tfvars:%d" % line in md,
          "hover on a top-level key: markdown with the type, the description "
          "and where the value comes from", show(h))
    check(isinstance(h, dict) and h.get("range") == rng(T_CLEAN, "network"),
          "hover on a top-level key: its range is the key", show(h))
    h = s.at("textDocument/hover", T, pos(T_CLEAN, "address_prefix"))
    md = markdown(h)
    check(md is not None and "`string`" in md and "(optional)" in md,
          "hover on a nested optional attribute: its type and (optional)",
          show(h))
    h = s.at("textDocument/hover", T, pos(T_CLEAN, "size_gb"))
    md = markdown(h)
    check(md is not None and "`number`" in md and "(optional)" in md,
          "hover on an attribute of a map(object): its type and (optional)",
          show(h))
    h = s.at("textDocument/hover", T, pos(T_CLEAN, "cidr"))
    md = markdown(h)
    check(md is not None and "`string`" in md and "(optional)" not in md,
          "hover on a required attribute: its type, not (optional)", show(h))
    h = s.at("textDocument/hover", T, pos(T_CLEAN, "db_password"))
    md = markdown(h)
    check(md is not None and "sensitive" in md and SECRET not in md,
          "hover on a sensitive variable: said to be sensitive, the value "
          "not shown", show(h))

    # 6. completion
    last = {"line": T_CLEAN.count("\n"), "character": 0}
    c = labels(s.at("textDocument/completion", T, last))
    check("region" in c and not {"name", "instance_count", "db_password",
                                 "network", "pools", "debug"} & set(c),
          "completion on an empty line: the variables not set yet, not those "
          "set", show(sorted(c)))
    inside = pos(T_CLEAN, "\n\n}", after="network")
    inside = {"line": inside["line"] + 1, "character": 0}
    c = labels(s.at("textDocument/completion", T, inside))
    check("enable_ipv6" in c and "cidr" not in c
          and "address_prefix" not in c  # set already (issue 28)
          and "(optional" in c["enable_ipv6"].get("detail", ""),
          "completion inside an object value: the type's attribute names "
          "not set yet, (optional) in the detail of the optional ones",
          show(c))
    c = labels(s.at("textDocument/completion", T,
                    pos(T_CLEAN, "true", after="debug =")))
    check({"true", "false"} <= set(c), "completion of a bool value: true and "
          "false", show(sorted(c)))

    # 7. definition
    d = s.at("textDocument/definition", T, pos(T_CLEAN, "network"))
    check(d == {"uri": V, "range": rng(main_tf, 'variable "network"')},
          "definition from a tfvars key: the variable block in main.tf",
          show(d))
    d = s.at("textDocument/definition", T, pos(T_CLEAN, "address_prefix"))
    check(d == {"uri": V, "range": rng(main_tf, "address_prefix",
                                       after='variable "network"')},
          "definition from a nested attribute: its name in the type "
          "expression", show(d))
    d = s.at("textDocument/definition", T, pos(T_CLEAN, "size_gb"))
    check(d == {"uri": V, "range": rng(main_tf, "size_gb",
                                       after='variable "pools"')},
          "definition from an attribute of a map(object): its name in the "
          "type expression", show(d))

    # 9. .tfvars.json: diagnostics, hover, quick fix with the quotes
    m = s.mark()
    s.open(J, J1, 1)
    p = s.diags(J, m, lambda p: p.get("version") == 1)
    conv = find(p, rng(J1, '"lots"'), 1, None,
                ["Invalid value for input variable", "a number is required"])
    miss = find(p, rng(J1, '"adress_prefix"'), 2, 11,
                ['Did you mean to set attribute "address_prefix"'])
    check(conv is not None, ".tfvars.json: a conversion error at its value",
          show(p))
    check(miss is not None, ".tfvars.json: a misspelt attribute (warning, "
          "code 11) at its quoted key", show(p))
    h = s.at("textDocument/hover", J, pos(J1, "network"))
    md = markdown(h)
    check(md is not None and "object({" in md
          and "The network to create." in md,
          ".tfvars.json: hover on a key: its type and description", show(h))
    h = s.at("textDocument/hover", J, pos(J1, "cidr"))
    md = markdown(h)
    check(md is not None and "`string`" in md,
          ".tfvars.json: hover on a nested attribute: its type", show(h))
    result = None
    if miss:
        r = s.request("textDocument/codeAction", {
            "textDocument": {"uri": J}, "range": miss["range"],
            "context": {"diagnostics": [miss]}})
        result = (r or {}).get("result")
    check(quickfix(result, J, rng(J1, '"adress_prefix"'), '"address_prefix"'),
          ".tfvars.json: the quickfix keeps the quotes", show(result))
    s.close_doc(J)
    p = s.latest(T)
    check(p is not None and p["diagnostics"] == [],
          ".tfvars.json closed: terraform.tfvars is checked without it",
          show(p))

    # 11. shutdown, then exit: status 0
    r = s.request("shutdown")
    check(r is not None and "result" in r and r["result"] is None
          and "error" not in r, "shutdown: a null result", show(r))
    s.notify("exit")
    status = s.wait_exit()
    check(status == 0, "exit after shutdown: exit status 0",
          "status %s; %s" % (status, s.err.decode("utf-8", "replace")))
    s.finish()
    sanity(check, s, "main run")


# ---- settings ---------------------------------------------------------------

def settings_run(check, tool, fixture, root):
    mod = os.path.join(root, "settings")
    shutil.copytree(fixture, mod)
    T = uri(mod, "terraform.tfvars")
    s = Server(tool, mod)
    s.request("initialize", {"processId": os.getpid(), "rootUri": uri(mod),
                             "capabilities": {},
                             "initializationOptions": {
                                 "varFiles": ["layer.tfvars"]}})
    s.notify("initialized", {})
    tb = ('name           = "good"\n'
          'instance_count = 3\n'
          'db_password    = "%s"\n'
          'network = {\n'
          '  cidr          = "10.1.0.0/16"\n'
          '  adress_prefix = "10.1.0.0/24"\n'
          '}\n' % SECRET)
    m = s.mark()
    s.open(T, tb, 1)
    p = s.diags(T, m, lambda p: p.get("version") == 1)
    check(find(p, rng(tb, "adress_prefix"), 2, 11) is not None,
          "settings: without strict a misspelt attribute is a warning",
          show(p))

    def layered(what):
        h = s.at("textDocument/hover", T, pos(tb, "instance_count"))
        md = markdown(h)
        check(md is not None and "layer.tfvars:2" in md
              and "```hcl\n7\n```" in md and "(overridden)" in md,
              "settings: %s: the var file is layered on top (hover: 7 from "
              "layer.tfvars:2)" % what, show(h))

    layered("initializationOptions varFiles")
    m = s.mark()
    s.notify("workspace/didChangeConfiguration",
             {"settings": {"tfresolve": {"strict": True}}})
    p = s.diags(T, m, lambda p: find(p, rng(tb, "adress_prefix"), 1)
                is not None)
    check(p is not None and find(p, rng(tb, "adress_prefix"), 1, 11,
                                 ['"address_prefix"']) is not None,
          "settings: didChangeConfiguration strict makes the misspelt "
          "attribute an error (severity 1)", show(p) if p else s.dead or "")
    layered("after didChangeConfiguration")

    # 11. a request after shutdown is an error; exit: status 0
    r = s.request("shutdown")
    check(r is not None and "error" not in r, "settings: shutdown", show(r))
    r = s.request("textDocument/hover", {"textDocument": {"uri": T},
                                         "position": {"line": 0,
                                                      "character": 0}})
    check(r is not None and "error" in r and "result" not in r,
          "a request after shutdown: an error response", show(r))
    s.notify("exit")
    status = s.wait_exit()
    check(status == 0, "settings: exit after shutdown: exit status 0",
          "status %s; %s" % (status, s.err.decode("utf-8", "replace")))
    s.finish()
    sanity(check, s, "settings run")


# ---- a variables file the module does not load itself ------------------------

def env_file_run(check, tool, fixture, root):
    """envs/prod.tfvars below the module, and dev.tfvars beside it: each
    resolved as a -var-file on top of the module's own sources."""
    mod = os.path.join(root, "envfiles")
    shutil.copytree(fixture, mod)
    os.makedirs(os.path.join(mod, "envs"))
    P = uri(mod, "envs", "prod.tfvars")
    D = uri(mod, "dev.tfvars")
    s = Server(tool, mod)
    s.request("initialize", {"processId": os.getpid(), "rootUri": uri(mod),
                             "capabilities": {}})
    s.notify("initialized", {})
    bad = 'instance_count = "many"\n'
    m = s.mark()
    s.open(P, bad, 1)
    p = s.diags(P, m, lambda p: p.get("version") == 1)
    check(p is not None and find(p, rng(bad, '"many"'), 1, None,
                                 ["Invalid value for input variable"])
          is not None,
          "envs/prod.tfvars (not loaded by the module): its own errors, "
          "as a -var-file of the module above it", show(p))
    h = s.at("textDocument/hover", P, pos(bad, "instance_count"))
    md = markdown(h)
    check(md is not None and "prod.tfvars:1" in md,
          "envs/prod.tfvars: hover says the value comes from it", show(h))
    m = s.mark()
    s.change(P, 2, {"text": "instance_count = 4\n"})
    p = s.diags(P, m, lambda p: p.get("version") == 2)
    check(p is not None and p["diagnostics"] == [],
          "envs/prod.tfvars: fixed, its diagnostics are cleared", show(p))
    good = 'instance_count = 5\n'
    m = s.mark()
    s.open(D, good, 1)
    p = s.diags(D, m, lambda p: p.get("version") == 1)
    check(p is not None and not [d for d in p["diagnostics"]
                                 if "instance_count" in d["message"]],
          "dev.tfvars beside the module: resolved as its -var-file (its "
          "value wins, no error about it)", show(p))
    h = s.at("textDocument/hover", D, pos(good, "instance_count"))
    md = markdown(h)
    check(md is not None and "dev.tfvars:1" in md and "5" in md,
          "dev.tfvars: hover shows its own value", show(h))
    # completion while typing: what the editor has is a syntax error
    def labels_at(marked, n=[0]):
        """Completion at the "|" of marked (removed) in a new document."""
        n[0] += 1
        doc = uri(mod, "typing%d.auto.tfvars" % n[0])
        i = marked.index("|")
        text = marked[:i] + marked[i + 1:]
        s.open(doc, text, 1)
        bol = text.rfind("\n", 0, i) + 1
        at = {"line": text.count("\n", 0, i), "character": utf16(text[bol:i])}
        got = labels(s.at("textDocument/completion", doc, at)) or []
        s.close_doc(doc)
        return got
    got = labels_at("tier = |\n")
    check('"basic"' in got and '"premium"' in got,
          "completion of a value not typed yet: the values a contains() "
          "rule allows", show(got))
    got = labels_at('network = {\n  cidr = "10.0.0.0/16"\n  adr|\n}\n')
    check("address_prefix" in got and "tier" not in got,
          "completion of an attribute name half typed: the object's "
          "attributes, not the variables", show(got))
    # every undeclared name at its place (Terraform names only two)
    doc = uri(mod, "many.auto.tfvars")
    text = 'namee = "x"\nfoo = 1\nbar = 2\nbaz = 3\n'
    m = s.mark()
    s.open(doc, text, 1)
    p = s.diags(doc, m, lambda p: p.get("version") == 1)
    got = [d for d in (p or {}).get("diagnostics", [])
           if "Value for undeclared variable" in d.get("message", "")]
    check(len(got) == 4 and find(p, rng(text, "namee"), 2, None,
                                 ['Did you mean "name"?']) is not None,
          "four undeclared names: four warnings, each at its name",
          show(p))
    s.close_doc(doc)
    # hover in a configuration file: on a variable's header, its story
    tf = uri(mod, "main.tf")
    tf_text = open(os.path.join(mod, "main.tf")).read()
    s.open(tf, tf_text, 1)
    md = markdown(s.at("textDocument/hover", tf,
                       pos(tf_text, 'variable "instance_count"')))
    check(md is not None and "var.instance_count" in md and "number" in md
          and "How many instances to run." in md,
          "hover on a variable block's header in main.tf: its type, "
          "description and value", show(md))
    s.close_doc(tf)
    # an optional attribute's default: in completion and in hover
    doc = uri(mod, "defaults.auto.tfvars")
    text = 'network = {\n  cidr           = "10.0.0.0/16"\n' \
           '  address_prefix = "10.0.9.0/24"\n}\n'
    s.open(doc, text, 1)
    r = s.at("textDocument/completion", doc, pos(text, "  address_prefix"))
    items = (r or {}).get("items", [])
    detail = [i.get("detail", "") for i in items
              if i.get("label") == "address_prefix"]
    check(detail and 'default "10.0.0.0/24"' in detail[0],
          "completion: an optional attribute's default in its detail",
          show(r))
    md = markdown(s.at("textDocument/hover", doc,
                       pos(text, "address_prefix")))
    check(md is not None and 'Default when left out: `"10.0.0.0/24"`' in md,
          "hover: an optional attribute's default", show(md))
    s.request("shutdown")
    s.notify("exit")
    check(s.wait_exit() == 0, "env files run: exit status 0")
    s.finish()
    sanity(check, s, "env files run")


# ---- a module tree ----------------------------------------------------------

def tree_run(check, tool, fixture, root):
    mod = os.path.join(root, "tree module")
    shutil.copytree(os.path.join(os.path.dirname(fixture), "lsp-tree"), mod)
    T = uri(mod, "terraform.tfvars")
    PM = uri(mod, "modules", "platform", "main.tf")
    DB = uri(mod, "modules", "db", "variables.tf")
    pm = open(os.path.join(mod, "modules", "platform", "main.tf")).read()
    db = open(os.path.join(mod, "modules", "db", "variables.tf")).read()
    DBI = "module.platform.module.db"
    s = Server(tool, mod)
    s.request("initialize", {"processId": os.getpid(), "rootUri": uri(mod),
                             "capabilities": {}})
    s.notify("initialized", {})

    def dups(p):
        ds = (p or {}).get("diagnostics", [])
        return [d for i, d in enumerate(ds) if d in ds[:i]]

    def in_instance(d, words):
        """Terraform's words, then (last) the instance."""
        msg = (d or {}).get("message", "")
        return (d is not None and msg.endswith("\n(in %s)" % DBI)
                and all(msg.find(w) < msg.find("\n(in ") for w in words))

    # a root value two calls down fails a child's rule: at its tfvars line
    t1 = ('db_name     = "customer_orders_reporting_archive"\n'
          'db_password = "%s"\n'
          'envirnment  = "dev"\n' % TREE_SECRET)
    m = s.mark()
    s.open(T, t1, 1)
    p = s.diags(T, m, lambda p: p.get("version") == 1)
    name_at = rng(t1, '"customer_orders_reporting_archive"')
    pw_at = rng(t1, '"%s"' % TREE_SECRET)
    d = find(p, name_at, 1, None, ["Invalid value for variable",
                                   "must be at most 16 characters long"])
    check(in_instance(d, ["Invalid value for variable",
                          "This was checked by the validation rule"]),
          "tree: a child's failed rule at the tfvars value that causes it "
          "(Terraform's summary and detail, then the instance)", show(p, 4000))
    d = find(p, pw_at, 1, None, ["Invalid value for variable",
                                 "included a sensitive value"])
    check(in_instance(d, ["so it will not be displayed"]),
          "tree: a sensitive value passed down whose child rule fails: "
          "Terraform's hidden message at the tfvars value", show(p, 4000))
    check(find(p, rng(t1, "envirnment"), 2, None,
               ['Did you mean "environment"']) is not None
          and len(p["diagnostics"]) == 4 and not dups(p),
          "tree: published with the document's own diagnostics, each once",
          show(p, 4000))

    # hover on a tfvars key: the child variables it reaches
    md = markdown(s.at("textDocument/hover", T, pos(t1, "db_name")))
    check(md is not None and md.startswith("**var.db_name**: `string`")
          and "Name of the application database." in md
          and md.index("Name of the application") < md.index("module.")
          and "`module.platform.var.db_name` = "
              '`"customer_orders_reporting_archive"`' in md
          and "`%s.var.name`" % DBI in md
          and "`%s.var.identifier` = `\"prod-customer" % DBI in md
          and "rule 1 failed: The database name" in md
          and "rule 2 passed" in md and "var.password" not in md,
          "tree: hover on a tfvars key: its own content first, then the "
          "child variables it reaches (through a local too), with values "
          "and their rules' outcomes", show(md, 4000))
    md = markdown(s.at("textDocument/hover", T, pos(t1, "db_password")))
    check(md is not None and "`%s.var.password`" % DBI in md
          and "rule 1 failed" in md and TREE_SECRET not in md,
          "tree: hover on a sensitive key: its child variables, no value",
          show(md, 4000))

    # the caller's file open: at the module arguments too
    m = s.mark()
    s.open(PM, pm, 1)
    p = s.diags(PM, m, lambda p: len(p["diagnostics"]) >= 2)
    arg = rng(pm, "var.db_name", after='module "db"')
    pw_arg = rng(pm, "var.db_password", after='module "db"')
    check(in_instance(find(p, arg, 1, None,
                           ["must be at most 16 characters long"]),
                      ["This was checked"])
          and in_instance(find(p, pw_arg, 1, None,
                               ["included a sensitive value"]), [])
          and not dups(p),
          "tree: the caller's file open: the failures at their module "
          "arguments, each once", show(p, 4000))
    p = s.latest(T)  # unchanged: not published again
    check(p is not None and len(p["diagnostics"]) == 4 and not dups(p),
          "tree: the tfvars keeps its list, no duplicates", show(p, 4000))

    # an edit of a child module's file re-checks the tfvars
    m = s.mark()
    s.open(DB, db, 1)
    s.change(DB, 2, {"range": rng(db, "<= 16"), "text": "<= 40"})
    p = s.diags(T, m, lambda p: find(p, name_at, 1) is None)
    check(p is not None and len(p["diagnostics"]) == 3
          and find(p, pw_at, 1) is not None,
          "tree: an edit of the child's open variables.tf (a longer limit): "
          "the tfvars's failure is gone", show(p, 4000))
    p = s.diags(PM, m, lambda p: find(p, arg) is None)
    check(p is not None and find(p, pw_arg, 1) is not None,
          "tree: ... and at the module argument", show(p, 4000))

    # everything valid: the lists are emptied; hover on a sensitive key
    long_secret = TREE_SECRET + "-is-long-enough"
    t2 = 'db_name     = "orders"\ndb_password = "%s"\n' % long_secret
    m = s.mark()
    s.change(T, 2, {"text": t2})
    p = s.diags(T, m, lambda p: p.get("version") == 2)
    check(p is not None and p["diagnostics"] == [],
          "tree: fixed: the tfvars's list is empty", show(p, 4000))
    p = s.diags(PM, m, lambda p: not [
        d for d in p["diagnostics"] if "(in module." in d["message"]])
    check(p is not None, "tree: fixed: the module arguments' failures are "
          "cleared", s.dead or "")
    md = markdown(s.at("textDocument/hover", T, pos(t2, "db_password")))
    check(md is not None
          and "`%s.var.password` = (sensitive value)" % DBI in md
          and "`module.platform.var.db_password` = (sensitive value)" in md
          and "rule 1 passed" in md and long_secret not in md,
          "tree: hover on a sensitive key: (sensitive value) for every "
          "child variable it reaches", show(md, 4000))
    md = markdown(s.at("textDocument/hover", T, pos(t2, "db_name")))
    check(md is not None and '`%s.var.name` = `"orders"`' % DBI in md
          and "rule 1 passed" in md and "rule 2 passed" in md,
          "tree: hover on a valid key: the child's value, its rules passed",
          show(md, 4000))

    # the setting modules off: no child failure, no child in hover
    t3 = 'db_name     = "Orders"\ndb_password = "%s"\n' % long_secret
    m = s.mark()
    s.change(T, 3, {"text": t3})
    bad = rng(t3, '"Orders"')
    p = s.diags(T, m, lambda p: p.get("version") == 3)
    check(in_instance(find(p, bad, 1, None, ["must start with a letter"]),
                      []) and len(p["diagnostics"]) == 1,
          "tree: a value that fails another rule of the child", show(p))
    m = s.mark()
    s.notify("workspace/didChangeConfiguration",
             {"settings": {"tfresolve": {"modules": False}}})
    p = s.diags(T, m)
    check(p is not None and p["diagnostics"] == [],
          "tree: the setting modules false: no child module's failure",
          show(p))
    p = s.diags(PM, m, lambda p: not [
        d for d in p["diagnostics"] if "(in module." in d["message"]])
    check(p is not None, "tree: modules false: none at the module "
          "arguments either", s.dead or "")
    md = markdown(s.at("textDocument/hover", T, pos(t3, "db_name")))
    check(md is not None and "var.db_name" in md and "module." not in md,
          "tree: modules false: hover lists no child variable", show(md))
    m = s.mark()
    s.notify("workspace/didChangeConfiguration",
             {"settings": {"tfresolve": {"modules": True}}})
    p = s.diags(T, m, lambda p: p["diagnostics"] != [])
    check(in_instance(find(p, bad, 1), []),
          "tree: modules true again: the child's failure is back", show(p))

    s.request("shutdown")
    s.notify("exit")
    check(s.wait_exit() == 0, "tree run: exit status 0")
    seen = s.finish()
    check(TREE_SECRET.encode() not in seen,
          "tree run: the sensitive value passed down (a child's rule fails "
          "with a message that interpolates it) appears nowhere in what the "
          "server wrote: diagnostics, hovers, its standard error")
    sanity(check, s, "tree run")


# ---- robustness -------------------------------------------------------------

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



# ---- the states editors create (issue 28) ------------------------------------

def server_request(s, method, since=0):
    """The first request of the server (it has an id) for method in
    notes[since:], or None: a request of ours answered first (barrier)
    makes sure that whatever came before it is there."""
    barrier(s)
    for m in s.notes[since:]:
        if m.get("method") == method and "id" in m:
            return m
    return None


def barrier(s):
    """A request answered after everything the server had to send (a
    request about a document: it resolves first): the notes hold all it
    published before."""
    return s.request("textDocument/tfresolveBarrier",
                     {"textDocument": {"uri": "file:///nonexistent"}})


def publishes(s, doc, since):
    return [m for m in s.notes[since:]
            if m.get("method") == "textDocument/publishDiagnostics"
            and (m.get("params") or {}).get("uri") == doc]


def words_in(p, *words):
    """The diagnostics of p whose message holds every one of words."""
    return [d for d in (p or {}).get("diagnostics", [])
            if all(w in d.get("message", "") for w in words)]


ST = ('name           = "Bad-Name"\n'
      'instance_count = 5\n')
GLOBS = ["**/*.tf", "**/*.tf.json", "**/*.tofu", "**/*.tofu.json",
         "**/*.tfvars", "**/*.tfvars.json"]


def states_run(check, tool, fixture, root):
    """A client that watches files for the server (dynamic registration
    of workspace/didChangeWatchedFiles): a varFiles entry that does not
    exist, an editor's lock file, a broken other .tf, a tfvars without a
    module, files changed on disk, and publishes only when they change."""
    mod = os.path.join(root, "states")
    shutil.copytree(fixture, mod)
    T, E = uri(mod, "terraform.tfvars"), uri(mod, "extra.auto.tfvars")
    s = Server(tool, mod)
    s.request("initialize", {
        "processId": os.getpid(), "rootUri": uri(mod),
        "capabilities": {"workspace": {"didChangeWatchedFiles": {
            "dynamicRegistration": True}}},
        "initializationOptions": {"varFiles": ["missing.tfvars"]}})
    m = s.mark()
    s.notify("initialized", {})
    req = server_request(s, "client/registerCapability", m)
    regs = ((req or {}).get("params") or {}).get("registrations") or []
    globs = sorted(w.get("globPattern") for r in regs
                   if r.get("method") == "workspace/didChangeWatchedFiles"
                   for w in (r.get("registerOptions") or {})
                   .get("watchers", []))
    check(globs == sorted(GLOBS), "states: at initialized, the server "
          "registers workspace/didChangeWatchedFiles for the module's "
          "files (the client can)", show(req))
    if req:  # our answer: the server must go on
        s.send({"id": req["id"], "result": None})

    # 2. a varFiles entry that does not exist: said on the document, and
    # the module checked with its other sources
    m = s.mark()
    s.open(T, ST, 1)
    p = s.diags(T, m, lambda p: p.get("version") == 1)
    check(words_in(p, "The name must be lowercase letters only."),
          "states: varFiles names a missing file: the module is still "
          "checked (the failed rule of the document)", show(p))
    miss = words_in(p, "missing.tfvars", "No such file")
    check(len(miss) == 1 and miss[0]["range"]["start"]["line"] == 0
          and miss[0]["severity"] in (1, 2),
          "states: the missing var file is a diagnostic on the open "
          "document, at line 0, with the path and the OS error", show(p))
    h = s.at("textDocument/hover", T, pos(ST, "instance_count"))
    md = markdown(h) or ""
    check("terraform.tfvars:2" in md and "from default" not in md.lower(),
          "states: missing var file: hover says the document's value wins",
          show(h))
    m = s.mark()
    s.notify("workspace/didChangeConfiguration",
             {"settings": {"tfresolve": {"varFiles": []}}})
    p = s.diags(T, m)
    check(p is not None and not words_in(p, "missing.tfvars")
          and words_in(p, "The name must be lowercase"),
          "states: varFiles emptied: the message goes, the checks stay",
          show(p))

    # 1. Emacs's lock file of an open auto file: a dangling symlink
    m = s.mark()
    s.open(E, 'debug = "maybe"\n', 1)
    p = s.diags(E, m, lambda p: p.get("version") == 1)
    lock = os.path.join(mod, ".#extra.auto.tfvars")
    os.symlink("user@host.1234:1700000000", lock)
    # a Vim swap file and a backup too (neither is an auto file by name,
    # but a server must not trip on them)
    open(os.path.join(mod, ".extra.auto.tfvars.swp"), "wb").write(b"\0b0VIM")
    open(os.path.join(mod, "extra.auto.tfvars~"), "w").write("debug = 1\n")
    m = s.mark()
    s.change(E, 2, {"text": 'debug = "perhaps"\n'})
    p = s.diags(E, m, lambda p: p.get("version") == 2)
    check(words_in(p, "a bool is required"),
          "states: with Emacs's lock file .#extra.auto.tfvars (a dangling "
          "symlink) the open auto file is still checked", show(p))
    pt = s.latest(T)
    check(pt is not None and words_in(pt, "The name must be lowercase")
          and not words_in(pt, "Failed to read"),
          "states: the lock file is not read as a variables file: the "
          "module's diagnostics stay, no read error", show(pt))
    os.unlink(lock)

    # 6. publish only what changed: an edit of T alone does not publish E
    # (nor any other file) again
    m = s.mark()
    t2 = ST.replace("5", "6")
    s.change(T, 2, {"text": t2})
    s.diags(T, m, lambda p: p.get("version") == 2)
    barrier(s)
    again = publishes(s, E, m)
    check(not again, "states: an edit of terraform.tfvars does not publish "
          "extra.auto.tfvars's unchanged diagnostics again", show(again))
    m = s.mark()
    s.change(T, 3, {"text": ST})
    p = s.diags(T, m, lambda p: p.get("version") == 3)
    check(p is not None, "states: the edited document itself is published "
          "with each new version", s.dead or "")

    # 3. a syntax error in another .tf file (not open)
    broken = os.path.join(mod, "broken.tf")
    open(broken, "w").write('variable "x" {\n  type = \n}\n')
    B = uri(mod, "broken.tf")
    m = s.mark()
    s.notify("workspace/didChangeWatchedFiles",
             {"changes": [{"uri": B, "type": 1}]})
    pb = s.diags(B, m)
    check(pb is not None and words_in(pb, "Invalid expression")
          and pb["diagnostics"][0]["range"]["start"]["line"] == 1,
          "states: a broken other .tf (not open): its syntax error is "
          "published on its own URI", show(pb))
    pt = s.diags(T, m)
    lim = words_in(pt, "broken.tf:2")
    check(lim and "syntax error" in lim[0]["message"]
          and lim[0]["range"]["start"]["line"] == 0,
          "states: the tfvars says checking is limited because broken.tf:2 "
          "has a syntax error", show(pt))
    check(words_in(pt, "The name must be lowercase letters only.")
          and len(lim) == 1,
          "states: a broken other .tf: the tfvars's values are still "
          "checked (its failed rule, as a preview), the blocking problem "
          "said once", show(pt))
    h = s.at("textDocument/hover", T, pos(ST, "instance_count"))
    md = markdown(h) or ""
    check("terraform.tfvars:2" in md and "5" in md and "(not set)" not in md,
          "states: a broken other .tf: hover shows the document's value "
          "(a preview)", show(h))
    os.unlink(broken)
    m = s.mark()
    s.notify("workspace/didChangeWatchedFiles",
             {"changes": [{"uri": B, "type": 3}]})
    pb = s.diags(B, m)
    pt = s.diags(T, m)
    check(pb is not None and pb["diagnostics"] == []
          and words_in(pt, "The name must be lowercase")
          and not words_in(pt, "broken.tf"),
          "states: broken.tf deleted: its diagnostics cleared, the tfvars "
          "checked in full again", show([pb, pt]))

    # 5. a new auto file on disk, reported by the client's watcher
    N = uri(mod, "new.auto.tfvars")
    newf = os.path.join(mod, "new.auto.tfvars")
    open(newf, "w").write('tier = "gold"\n')
    m = s.mark()
    s.notify("workspace/didChangeWatchedFiles",
             {"changes": [{"uri": N, "type": 1}]})
    pn = s.diags(N, m)
    check(words_in(pn, "The tier must be basic or premium."),
          "states: didChangeWatchedFiles: a new *.auto.tfvars on disk is "
          "checked (its failed rule on its URI)", show(pn))
    # changed on disk, then a save of the open document: re-checked
    open(newf, "w").write('tier = "premium"\n')
    m = s.mark()
    s.notify("textDocument/didSave", {"textDocument": {"uri": T}})
    pn = s.diags(N, m)
    check(pn is not None and pn["diagnostics"] == [],
          "states: didSave re-checks the module (the file fixed on disk)",
          show(pn))

    # 4. a tfvars file in a directory without declarations
    lone = os.path.join(root, "states-lone", "a", "b", "c", "d")
    os.makedirs(lone)
    L = uri(lone, "lone.tfvars")
    m = s.mark()
    s.open(L, 'region = "x"\n', 1)
    p = s.diags(L, m, lambda p: p.get("version") == 1)
    nd = words_in(p, "No variable declarations")
    check(len(nd) == 1 and nd[0]["severity"] in (2, 3),
          "states: a tfvars without a module: says there are no variable "
          "declarations here (information or warning)", show(p))
    # a .tf written beside it: the document joins that module (as a var
    # file it does not load itself), the note goes, its values are checked
    main = os.path.join(lone, "main.tf")
    open(main, "w").write('variable "region" {\n  type = number\n}\n')
    m = s.mark()
    s.notify("workspace/didChangeWatchedFiles",
             {"changes": [{"uri": uri(lone, "main.tf"), "type": 1}]})
    p = s.diags(L, m)
    check(p is not None and not words_in(p, "No variable declarations")
          and words_in(p, "a number is required"),
          "states: a .tf created beside a lone tfvars: the document moves "
          "to the new module and is checked against it", show(p))
    os.unlink(main)
    m = s.mark()
    s.notify("workspace/didChangeWatchedFiles",
             {"changes": [{"uri": uri(lone, "main.tf"), "type": 3}]})
    p = s.diags(L, m)
    check(p is not None and len(words_in(p, "No variable declarations")) == 1
          and not words_in(p, "a number is required"),
          "states: the .tf deleted again: the document is alone again, "
          "said once", show(p))

    r = s.request("shutdown")
    s.notify("exit")
    check(s.wait_exit() == 0, "states: exit after shutdown", show(r))
    s.finish()
    sanity(check, s, "states run")


def fallback_run(check, tool, fixture, root):
    """A client that watches nothing (Neovim 0.7): files changed on disk
    are seen by their modification times, before a request and when input
    pauses."""
    mod = os.path.join(root, "fallback")
    shutil.copytree(fixture, mod)
    T = uri(mod, "terraform.tfvars")
    s = Server(tool, mod)
    s.request("initialize", {"processId": os.getpid(), "rootUri": uri(mod),
                             "capabilities": {}})
    m = s.mark()
    s.notify("initialized", {})
    s.open(T, ST, 1)
    s.diags(T, m, lambda p: p.get("version") == 1)
    barrier(s)
    check(not [n for n in s.notes[m:]
               if n.get("method") == "client/registerCapability"],
          "fallback: no registration asked of a client that cannot",
          show(s.notes[m:]))
    N = uri(mod, "new.auto.tfvars")
    m = s.mark()
    open(os.path.join(mod, "new.auto.tfvars"), "w").write('tier = "gold"\n')
    pn = s.diags(N, m)  # no message sent: the server looks by itself
    check(words_in(pn, "The tier must be basic or premium."),
          "fallback: a new *.auto.tfvars on disk is seen without any "
          "message from the client", show(pn))
    open(os.path.join(mod, "new.auto.tfvars"), "w").write('tier = "x2"\n')
    m = s.mark()
    s.at("textDocument/hover", T, pos(ST, "name"))
    pn = [n["params"] for n in publishes(s, N, m)]
    check(pn and words_in(pn[-1], "The tier must be basic or premium."),
          "fallback: a changed file on disk is re-read before a request",
          show(s.notes[m:]))
    # a lone tfvars, then a .tf written beside it: seen by itself too
    lone = os.path.join(root, "fallback-lone", "a", "b", "c", "d")
    os.makedirs(lone)
    L = uri(lone, "terraform.tfvars")
    m = s.mark()
    s.open(L, 'size = "big"\n', 1)
    p = s.diags(L, m, lambda p: p.get("version") == 1)
    check(words_in(p, "No variable declarations"),
          "fallback: a lone tfvars says so", show(p))
    m = s.mark()
    open(os.path.join(lone, "main.tf"), "w").write(
        'variable "size" {\n  type = number\n}\n')
    p = s.diags(L, m)  # no message sent: the server looks by itself
    check(p is not None and not words_in(p, "No variable declarations")
          and words_in(p, "a number is required"),
          "fallback: a .tf written beside a lone tfvars on disk: the "
          "document joins that module, seen without any message", show(p))
    s.notify("exit")
    s.finish()
    sanity(check, s, "fallback run")


def main():
    tool = os.path.abspath(sys.argv[1])
    fixture = os.path.abspath(sys.argv[2])
    check = Checks()
    with tempfile.TemporaryDirectory(prefix="lsp-test.") as root:
        for run in (main_run, settings_run, env_file_run, tree_run,
                    states_run, fallback_run, robust_run):
            try:
                run(check, tool, fixture, root)
            except Exception:  # a failure of its own, not of the others
                check(False, "%s: ran to its end" % run.__name__,
                      traceback.format_exc())
    seen = b"".join(s.finish() for s in SERVERS)
    check(SECRET.encode() not in seen and TREE_SECRET.encode() not in seen,
          "the sensitive values never appear in anything a server wrote "
          "(%d bytes from %d servers)" % (len(seen), len(SERVERS)))
    return check.done()


if __name__ == "__main__":
    sys.exit(main())
