# The default of not_before is in the past on purpose: its rule fails.
not_before = "2999-01-01T00:00:00Z"
