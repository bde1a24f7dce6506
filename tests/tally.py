"""The tally of a scripted test: a FAIL line (and the end of what was
seen) for each check that fails, and "N passed, M failed" last, the line
tests/summary.py reads."""


class Tally:
    def __init__(self, tail=3000):
        self.passed = self.failed = 0
        self.tail = tail  # how much of a failure's detail to print (None: all)

    def __call__(self, ok, what, detail=""):
        if ok:
            self.passed += 1
            return
        self.failed += 1
        if self.tail is not None:
            detail = detail[-self.tail:]
        print("FAIL %s%s" % (what, "\n" + detail if detail else ""))

    def done(self):
        """Print the last line; the exit status."""
        print("%d passed, %d failed" % (self.passed, self.failed))
        return 1 if self.failed else 0
