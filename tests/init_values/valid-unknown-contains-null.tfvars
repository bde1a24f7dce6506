# The defaults hold a null on purpose: the rules fail (or are skipped).
names = ["a", "b"]
typed = ["a", "b"]
