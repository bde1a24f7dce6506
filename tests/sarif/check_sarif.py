#!/usr/bin/env python3
"""SARIF test of `tfresolve check -format=sarif` (issue 6), stdlib only.

    check_sarif.py TFRESOLVE REPORT_MULTI CASES_DIR

No Debian package ships the SARIF 2.1.0 JSON schema, so this file checks
the constraints of that schema that our output touches, written down here
from the SARIF 2.1.0 standard (OASIS), section by section:

  3.13 sarifLog          version (enum "2.1.0"), runs, $schema (uri)
  3.14 run               tool (required), invocations, columnKind (enum),
                         results
  3.18 tool              driver (required)
  3.19 toolComponent     name (required), version, semanticVersion,
                         informationUri (uri), rules, notifications
                         (arrays of unique reportingDescriptor)
  3.49 reportingDescriptor        id (required), shortDescription,
                                  defaultConfiguration
  3.50 reportingConfiguration     level (enum), enabled, rank (-1..100)
  3.12 multiformatMessageString   text (required)
  3.20 invocation        executionSuccessful (required, boolean),
                         toolExecutionNotifications
  3.58 notification      message (required), level (enum), descriptor
  3.53 reportingDescriptorReference  one of id, index (>= -1), guid
  3.27 result            message (required), ruleId, ruleIndex (>= -1),
                         level (enum), locations, relatedLocations
                         (unique), properties
  3.11 message           text or id (one required), arguments
  3.28 location          id (>= -1), physicalLocation, logicalLocations
                         (unique), message
  3.29 physicalLocation  artifactLocation or address (one required),
                         region
  3.4  artifactLocation  uri (uri-reference), uriBaseId, index (>= -1)
  3.30 region            startLine, startColumn, endLine, endColumn (>= 1),
                         charOffset, byteOffset (>= -1), charLength,
                         byteLength (>= 0)
  3.33 logicalLocation   name, fullyQualifiedName, kind, index,
                         parentIndex (>= -1)
  3.8  propertyBag       tags (unique strings), anything else
Every object listed is closed (the schema's additionalProperties: false,
except propertyBag): each one's full list of property names is below, so
a property the standard does not define is an error.

On top of the schema, rules of the standard's text and of GitHub code
scanning's ingestion: ruleIndex names the rule whose id is ruleId
(3.27.6), a notification's descriptor.index names the notification
descriptor with its id, regions end after they start (3.30.2), every
result has a location with physicalLocation.artifactLocation.uri (GitHub
rejects the whole file otherwise), the URI names a file that exists and
the region's lines are in it, and no sensitive value appears.

The inputs: every fixtures/cases/report-* case run with -format=sarif
(its args, env and exit status), and report_multi (tests/sarif/
report_multi.c) on the environments of report-multi, whose GitHub and
JUnit reports are compared with tests/sarif/multi.github.txt and
multi.junit.xml (UPDATE=1 rewrites them).
"""
import json
import os
import re
import subprocess
import sys

# ---- the schema subset -----------------------------------------------------

INT_MIN_M1 = {"type": "integer", "minimum": -1}
INT_MIN_0 = {"type": "integer", "minimum": 0}
INT_MIN_1 = {"type": "integer", "minimum": 1}
STR = {"type": "string"}
BOOL = {"type": "boolean"}
LEVEL = {"type": "string", "enum": ["none", "note", "warning", "error"]}
ANY = {}


def ref(name):
    return {"$ref": name}


def arr(item, unique=False, nullable=False, min_items=0):
    return {"type": ["array", "null"] if nullable else "array",
            "items": item, "uniqueItems": unique, "minItems": min_items}


def obj(props, required=(), any_of=(), closed=True):
    return {"type": "object", "properties": props, "required": list(required),
            "anyOf": [list(a) for a in any_of], "closed": closed}


def names(*ns, **typed):
    """Property names the standard defines that we do not check in depth
    (any value), plus those we do (typed)."""
    d = {n: ANY for n in ns}
    d.update(typed)
    return d


DEFS = {
    "sarifLog": obj(names(
        "inlineExternalProperties",
        **{"$schema": {"type": "string", "format": "uri"},
           "version": {"type": "string", "enum": ["2.1.0"]},
           "runs": arr(ref("run"), nullable=True),
           "properties": ref("propertyBag")}),
        required=["version", "runs"]),
    "run": obj(names(
        "conversion", "language", "versionControlProvenance",
        "originalUriBaseIds", "artifacts", "logicalLocations", "graphs",
        "automationDetails", "runAggregates", "baselineGuid",
        "redactionTokens", "defaultEncoding", "defaultSourceLanguage",
        "newlineSequences", "externalPropertyFileReferences",
        "threadFlowLocations", "taxonomies", "addresses", "translations",
        "policies", "webRequests", "webResponses", "specialLocations",
        tool=ref("tool"),
        invocations=arr(ref("invocation")),
        columnKind={"type": "string",
                    "enum": ["utf16CodeUnits", "unicodeCodePoints"]},
        results=arr(ref("result"), nullable=True),
        properties=ref("propertyBag")),
        required=["tool"]),
    "tool": obj(names("extensions", driver=ref("toolComponent"),
                      properties=ref("propertyBag")),
                required=["driver"]),
    "toolComponent": obj(names(
        "guid", "organization", "product", "productSuite", "fullName",
        "dottedQuadFileVersion", "releaseDateUtc", "globalMessageStrings",
        "taxa", "locations", "language", "contents", "isComprehensive",
        "localizedDataSemanticVersion",
        "minimumRequiredLocalizedDataSemanticVersion", "associatedComponent",
        "translationMetadata", "supportedTaxonomies",
        name=STR, version=STR, semanticVersion=STR,
        shortDescription=ref("multiformatMessageString"),
        fullDescription=ref("multiformatMessageString"),
        downloadUri={"type": "string", "format": "uri"},
        informationUri={"type": "string", "format": "uri"},
        rules=arr(ref("reportingDescriptor"), unique=True),
        notifications=arr(ref("reportingDescriptor"), unique=True),
        properties=ref("propertyBag")),
        required=["name"]),
    "reportingDescriptor": obj(names(
        "deprecatedIds", "guid", "deprecatedGuids", "deprecatedNames",
        "messageStrings", "relationships",
        id=STR, name=STR,
        shortDescription=ref("multiformatMessageString"),
        fullDescription=ref("multiformatMessageString"),
        help=ref("multiformatMessageString"),
        helpUri={"type": "string", "format": "uri"},
        defaultConfiguration=ref("reportingConfiguration"),
        properties=ref("propertyBag")),
        required=["id"]),
    "reportingConfiguration": obj(names(
        "parameters", enabled=BOOL, level=LEVEL,
        rank={"type": "number", "minimum": -1, "maximum": 100},
        properties=ref("propertyBag"))),
    "multiformatMessageString": obj(names(
        text=STR, markdown=STR, properties=ref("propertyBag")),
        required=["text"]),
    "invocation": obj(names(
        "commandLine", "arguments", "responseFiles", "startTimeUtc",
        "endTimeUtc", "exitCode", "ruleConfigurationOverrides",
        "notificationConfigurationOverrides", "toolConfigurationNotifications",
        "exitCodeDescription", "exitSignalName", "exitSignalNumber",
        "processStartFailureMessage", "machine", "account", "processId",
        "executableLocation", "workingDirectory", "environmentVariables",
        "stdin", "stdout", "stderr", "stdoutStderr",
        executionSuccessful=BOOL,
        toolExecutionNotifications=arr(ref("notification")),
        properties=ref("propertyBag")),
        required=["executionSuccessful"]),
    "notification": obj(names(
        "threadId", "timeUtc", "exception",
        locations=arr(ref("location")), message=ref("message"), level=LEVEL,
        descriptor=ref("reportingDescriptorReference"),
        associatedRule=ref("reportingDescriptorReference"),
        properties=ref("propertyBag")),
        required=["message"]),
    "reportingDescriptorReference": obj(names(
        "toolComponent", id=STR, index=INT_MIN_M1, guid=STR,
        properties=ref("propertyBag")),
        any_of=[["index"], ["guid"], ["id"]]),
    "result": obj(names(
        "rule", "analysisTarget", "guid", "correlationGuid",
        "occurrenceCount", "partialFingerprints", "fingerprints", "stacks",
        "codeFlows", "graphs", "graphTraversals", "suppressions",
        "baselineState", "rank", "attachments", "hostedViewerUri",
        "workItemUris", "provenance", "fixes", "taxa", "webRequest",
        "webResponse",
        ruleId=STR, ruleIndex=INT_MIN_M1,
        kind={"type": "string", "enum": ["notApplicable", "pass", "fail",
                                          "review", "open", "informational"]},
        level=LEVEL, message=ref("message"),
        locations=arr(ref("location")),
        relatedLocations=arr(ref("location"), unique=True),
        properties=ref("propertyBag")),
        required=["message"]),
    "message": obj(names(
        text=STR, markdown=STR, id=STR, arguments=arr(STR),
        properties=ref("propertyBag")),
        any_of=[["text"], ["id"]]),
    "location": obj(names(
        "annotations", "relationships",
        id=INT_MIN_M1, physicalLocation=ref("physicalLocation"),
        logicalLocations=arr(ref("logicalLocation"), unique=True),
        message=ref("message"), properties=ref("propertyBag"))),
    "physicalLocation": obj(names(
        "address", "contextRegion",
        artifactLocation=ref("artifactLocation"), region=ref("region"),
        properties=ref("propertyBag")),
        any_of=[["address"], ["artifactLocation"]]),
    "artifactLocation": obj(names(
        uri={"type": "string", "format": "uri-reference"}, uriBaseId=STR,
        index=INT_MIN_M1, description=ref("message"),
        properties=ref("propertyBag"))),
    "region": obj(names(
        "snippet",
        startLine=INT_MIN_1, startColumn=INT_MIN_1, endLine=INT_MIN_1,
        endColumn=INT_MIN_1, charOffset=INT_MIN_M1, charLength=INT_MIN_0,
        byteOffset=INT_MIN_M1, byteLength=INT_MIN_0, message=ref("message"),
        sourceLanguage=STR, properties=ref("propertyBag"))),
    "logicalLocation": obj(names(
        name=STR, index=INT_MIN_M1, fullyQualifiedName=STR,
        decoratedName=STR, parentIndex=INT_MIN_M1, kind=STR,
        properties=ref("propertyBag"))),
    "propertyBag": obj({"tags": arr(STR, unique=True)}, closed=False),
}

# RFC 3986: a URI and a URI reference (scheme, then characters a URI may
# hold, with % only before two hex digits).
URI_CHARS = re.compile(r"^([A-Za-z0-9\-._~:/?#\[\]@!$&'()*+,;=]"
                       r"|%[0-9A-Fa-f]{2})*$")
SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.\-]*:")


def is_uri(s, reference):
    if not URI_CHARS.match(s):
        return False
    if SCHEME.match(s):
        return True
    if not reference:
        return False
    # a relative reference whose path does not start with "/": no ":" in
    # its first segment (it would read as a scheme)
    first = re.split(r"[?#]", s, maxsplit=1)[0].split("/", 1)[0]
    return s.startswith("/") or ":" not in first


def type_ok(v, t):
    if isinstance(t, list):
        return any(type_ok(v, x) for x in t)
    return {"object": lambda: isinstance(v, dict),
            "array": lambda: isinstance(v, list),
            "string": lambda: isinstance(v, str),
            "boolean": lambda: isinstance(v, bool),
            "null": lambda: v is None,
            "integer": lambda: isinstance(v, int) and not isinstance(v, bool),
            "number": lambda: isinstance(v, (int, float))
            and not isinstance(v, bool)}[t]()


def canon(v):
    return json.dumps(v, sort_keys=True)


def validate(v, spec, path, errs):
    if "$ref" in spec:
        return validate(v, DEFS[spec["$ref"]], path, errs)
    t = spec.get("type")
    if t and not type_ok(v, t):
        errs.append("%s: %r is not of type %s" % (path, v, t))
        return
    if "enum" in spec and v not in spec["enum"]:
        errs.append("%s: %r is not one of %s" % (path, v, spec["enum"]))
    if "minimum" in spec and type_ok(v, "number") and v < spec["minimum"]:
        errs.append("%s: %r is less than %s" % (path, v, spec["minimum"]))
    if "maximum" in spec and type_ok(v, "number") and v > spec["maximum"]:
        errs.append("%s: %r is more than %s" % (path, v, spec["maximum"]))
    fmt = spec.get("format")
    if fmt and isinstance(v, str) and not is_uri(v, fmt == "uri-reference"):
        errs.append("%s: %r is not a valid %s" % (path, v, fmt))
    if isinstance(v, list):
        if len(v) < spec.get("minItems", 0):
            errs.append("%s: too few items" % path)
        if spec.get("uniqueItems") and \
                len({canon(x) for x in v}) != len(v):
            errs.append("%s: items are not unique" % path)
        for i, x in enumerate(v):
            validate(x, spec.get("items", ANY), "%s[%d]" % (path, i), errs)
    if isinstance(v, dict) and "properties" in spec:
        for r in spec["required"]:
            if r not in v:
                errs.append("%s: required property %r missing" % (path, r))
        if spec["anyOf"] and not any(all(k in v for k in alt)
                                     for alt in spec["anyOf"]):
            errs.append("%s: needs one of %s" % (path, spec["anyOf"]))
        for k, x in v.items():
            if k in spec["properties"]:
                validate(x, spec["properties"][k], "%s.%s" % (path, k), errs)
            elif spec["closed"]:
                errs.append("%s: property %r is not defined" % (path, k))


# ---- rules beyond the schema ----------------------------------------------

def check_region(r, path, lines, errs):
    sl, el = r.get("startLine"), r.get("endLine", r.get("startLine"))
    sc, ec = r.get("startColumn", 1), r.get("endColumn")
    if sl is None:
        errs.append("%s: no startLine" % path)
        return
    if el < sl or (el == sl and ec is not None and ec < sc):
        errs.append("%s: region ends before it starts" % path)
    if lines is not None and (sl > len(lines) + 1 or el > len(lines) + 1):
        errs.append("%s: line %d is past the end of the file (%d lines)"
                    % (path, max(sl, el), len(lines)))


def check_location(loc, path, cwd, errs):
    phys = loc.get("physicalLocation")
    uri = phys and phys.get("artifactLocation", {}).get("uri")
    if not uri:
        errs.append("%s: no physicalLocation.artifactLocation.uri (GitHub "
                    "rejects the file)" % path)
        return
    if SCHEME.match(uri):
        errs.append("%s: %r is not relative" % (path, uri))
        return
    name = re.sub("%([0-9A-Fa-f]{2})",
                  lambda m: chr(int(m.group(1), 16)), uri)
    file = os.path.join(cwd, name)
    lines = None
    if not os.path.isfile(file):
        errs.append("%s: %s does not exist" % (path, file))
    else:
        with open(file, encoding="utf-8", errors="replace") as f:
            lines = f.read().split("\n")
    if "region" in phys:
        check_region(phys["region"], path + ".region", lines, errs)


def check_semantics(log, cwd, errs):
    for ri, run in enumerate(log.get("runs") or []):
        drv = run["tool"]["driver"]
        rules = drv.get("rules", [])
        notes = drv.get("notifications", [])
        for i, res in enumerate(run.get("results") or []):
            p = "runs[%d].results[%d]" % (ri, i)
            k = res.get("ruleIndex", -1)
            if "ruleId" in res and k >= 0 and \
                    (k >= len(rules) or rules[k]["id"] != res["ruleId"]):
                errs.append("%s: ruleIndex %d is not rule %r"
                            % (p, k, res["ruleId"]))
            if not res.get("locations"):
                errs.append("%s: no location (GitHub rejects the file)" % p)
            for j, loc in enumerate(res.get("locations", [])):
                check_location(loc, "%s.locations[%d]" % (p, j), cwd, errs)
            ids = [x.get("id") for x in res.get("relatedLocations", [])]
            if len(ids) != len(set(ids)):
                errs.append("%s: related location ids repeat" % p)
            for j, loc in enumerate(res.get("relatedLocations", [])):
                check_location(loc, "%s.relatedLocations[%d]" % (p, j), cwd,
                               errs)
        for inv in run.get("invocations", []):
            for i, n in enumerate(inv.get("toolExecutionNotifications", [])):
                d = n.get("descriptor", {})
                k = d.get("index", -1)
                if k >= 0 and (k >= len(notes) or
                               notes[k]["id"] != d.get("id")):
                    errs.append("notification %d: index %d is not %r"
                                % (i, k, d.get("id")))


SECRETS = ["hunter2", "s3cr3t-value"]  # sensitive values in the fixtures


def check_log(text, cwd, what):
    errs = []
    try:
        log = json.loads(text)
    except ValueError as e:
        return ["%s: not JSON: %s" % (what, e)]
    validate(log, DEFS["sarifLog"], "$", errs)
    if not errs:
        check_semantics(log, cwd, errs)
    for s in SECRETS:
        if s in text:
            errs.append("a sensitive value (%s) is in the report" % s)
    return ["%s: %s" % (what, e) for e in errs]


# ---- running ---------------------------------------------------------------

def read_lines(path):
    if not os.path.exists(path):
        return []
    with open(path) as f:
        return [x for x in f.read().split("\n") if x]


def run_case(tool, case):
    args = read_lines(os.path.join(case, "args")) or ["check"]
    args = [a for a in args if not a.startswith("-format")]
    env = {"PATH": os.environ.get("PATH", ""), "LANG": "C.UTF-8"}
    for line in read_lines(os.path.join(case, "env")):
        k, _, v = line.partition("=")
        env[k] = v
    p = subprocess.run([tool, args[0], "-format=sarif"] + args[1:], cwd=case,
                       env=env, capture_output=True)
    want = read_lines(os.path.join(case, "expected.rc"))
    want_rc = int(want[0]) if want else 0
    errs = check_log(p.stdout.decode("utf-8", "replace"), case,
                     os.path.basename(case))
    if p.returncode != want_rc:
        errs.append("%s: exit status %d, expected %d"
                    % (case, p.returncode, want_rc))
    if p.stderr:
        errs.append("%s: stderr: %s" % (case, p.stderr.decode()[:200]))
    return errs


def compare(path, got):
    if os.environ.get("UPDATE", "0") not in ("", "0"):
        with open(path, "w") as f:
            f.write(got)
        return []
    with open(path) as f:
        want = f.read()
    if want == got:
        return []
    return ["%s differs: got\n%s" % (path, got)]


def multi(report_multi, cases, here):
    """report_multi on report-multi's environments: SARIF valid, with one
    result per distinct diagnostic; GitHub and JUnit as expected."""
    case = os.path.join(cases, "report-multi")
    envs = sorted("envs/" + f for f in os.listdir(os.path.join(case, "envs")))
    errs = []
    out = {}
    for fmt in ("sarif", "github", "junit"):
        p = subprocess.run([report_multi, fmt, case] + envs,
                           capture_output=True, env={"PATH": "/usr/bin"})
        out[fmt] = p.stdout.decode("utf-8", "replace")
        if p.returncode != 1:
            errs.append("report_multi %s: exit status %d" % (fmt, p.returncode))
        if p.stderr:
            errs.append("report_multi %s: stderr: %s"
                        % (fmt, p.stderr.decode()[:200]))
    errs += check_log(out["sarif"], case, "report-multi (sarif)")
    log = json.loads(out["sarif"]) if not errs else {"runs": []}
    for run in log["runs"]:
        seen = set()
        for res in run.get("results", []):
            key = canon([res["ruleId"], res["message"], res["locations"]])
            if key in seen:
                errs.append("report-multi: a result repeats")
            seen.add(key)
            if not res.get("properties", {}).get("environments"):
                errs.append("report-multi: a result names no environment")
    errs += compare(os.path.join(here, "multi.github.txt"), out["github"])
    errs += compare(os.path.join(here, "multi.junit.xml"), out["junit"])
    return errs


def self_test():
    """The checker rejects what it must: a broken log gives errors."""
    bad = {"version": "2.0", "runs": [{"tool": {"driver": {}}, "results": [
        {"ruleId": "x", "ruleIndex": 0, "level": "fatal",
         "message": {}, "extra": 1,
         "locations": [{"physicalLocation": {"artifactLocation": {
             "uri": "a b"}, "region": {"startLine": 0}}}]}]}]}
    errs = []
    validate(bad, DEFS["sarifLog"], "$", errs)
    want = ["'2.0' is not one of", "required property 'name'",
            "'fatal' is not one of", "needs one of", "'extra' is not defined",
            "'a b' is not a valid uri-reference", "0 is less than 1"]
    # and a valid log whose ruleIndex names another rule, with a result
    # without a location
    wrong = {"version": "2.1.0", "runs": [{"tool": {"driver": {
        "name": "t", "rules": [{"id": "a"}, {"id": "b"}]}}, "results": [
        {"ruleId": "a", "ruleIndex": 1, "message": {"text": "m"}}]}]}
    validate(wrong, DEFS["sarifLog"], "$", errs)
    check_semantics(wrong, ".", errs)
    want += ["ruleIndex 1 is not rule 'a'", "no location"]
    return ["self-test: no error %r" % w for w in want
            if not any(w in e for e in errs)]


def main():
    tool, report_multi, cases = (os.path.abspath(a) for a in sys.argv[1:4])
    here = os.path.dirname(os.path.abspath(__file__))
    passed = failed = 0
    checks = [("self-test", self_test)]
    for name in sorted(os.listdir(cases)):
        if name.startswith("report-"):
            path = os.path.join(cases, name)
            checks.append((name, lambda p=path: run_case(tool, p)))
    checks.append(("report-multi environments",
                   lambda: multi(report_multi, cases, here)))
    for name, fn in checks:
        errs = fn()
        if errs:
            failed += 1
            for e in errs:
                print("FAIL %s: %s" % (name, e))
        else:
            passed += 1
            print("PASS %s" % name)
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
