#!/usr/bin/env python3
"""What the language server's tests share (tests/lsp_*_test.py): a small
LSP client of our own (JSON-RPC with Content-Length framing over the
server's standard input and output), the documents the runs open, the
checks, and main(): each test file is one feature's scenarios, run on
copies of a fixture directory (the tree is never written).

Every read waits at most READ_LIMIT seconds and every server is killed
after RUN_LIMIT: a hung server is a failure, never a hang of the suite.
No server may report a sanitizer error on its standard error, and the
sensitive values (SECRET, TREE_SECRET) must appear in nothing any server
writes.  Prints PASS or FAIL per check and "N passed, M failed" last.
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



def open_t1(check, s, T):
    """didOpen of terraform.tfvars (T) with the text T1, whose file on disk
    says other things: the published diagnostics (None: none) and, by
    needle, the one found for each of T1's five problems (checked)."""
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
    return p, t1_diags

# A caf-like root (issue 41, point 1): keyed instances whose argument is
# each.key of a for expression (no tfvars line causes the failure), a
# local child whose directory is missing, a registry child not installed.
KEYED_MAIN = """\
variable "scopes" {
  type        = map(string)
  description = "Management group scopes by name."
}

module "keyed" {
  source   = "./modules/scope"
  for_each = { for k, v in var.scopes : "/groups/${k}" => v }
  scope_id = each.key
  label    = each.value
}

module "gone" {
  source = "./modules/missing"
}

module "remote" {
  source  = "Azure/avm-res-network-vnet/azurerm"
  version = "0.4.0"
}
"""
KEYED_CHILD = """\
variable "scope_id" {
  type = string
  validation {
    condition     = startswith(var.scope_id, "/providers/")
    error_message = "The scope must start with /providers/."
  }
}

variable "label" {
  type = string
}
"""
KEYED_TFVARS = 'scopes = {\n  alpha = "A"\n  beta  = "B"\n}\n'


def keyed_root(root, name):
    """The caf-like root as root/name (written, not copied: its failures
    hold whatever the values)."""
    mod = os.path.join(root, name)
    os.makedirs(os.path.join(mod, "modules", "scope"))
    for rel, text in [("main.tf", KEYED_MAIN), ("terraform.tfvars",
                                                KEYED_TFVARS),
                      ("modules/scope/variables.tf", KEYED_CHILD)]:
        with open(os.path.join(mod, rel), "w") as f:
            f.write(text)
    return mod



def begin(tool, mod, capabilities=None, options=None):
    """A server on directory mod, initialized (initialize, initialized)."""
    s = Server(tool, mod)
    params = {"processId": os.getpid(), "rootUri": uri(mod),
              "capabilities": capabilities or {}}
    if options is not None:
        params["initializationOptions"] = options
    r = s.request("initialize", params)
    s.notify("initialized", {})
    return s, r


def module_copy(fixture, root, name):
    """A copy of the fixture module (main.tf, variables...) as root/name,
    and the URIs of its files the runs open."""
    mod = os.path.join(root, name)
    shutil.copytree(fixture, mod)
    return mod, {"T": uri(mod, "terraform.tfvars"),
                 "E": uri(mod, "extra.auto.tfvars"),
                 "J": uri(mod, "x.auto.tfvars.json"),
                 "V": uri(mod, "main.tf")}


def main(runs):
    """Runs each of runs (check, tool, fixture, root) on argv's TFRESOLVE
    and FIXTURE_DIR, in a temporary directory; the exit status."""
    tool = os.path.abspath(sys.argv[1])
    fixture = os.path.abspath(sys.argv[2])
    check = Checks()
    with tempfile.TemporaryDirectory(prefix="lsp-test.") as root:
        for run in runs:
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
